// Text that may hold a credential by mistake (a token pasted as a username, sent as a request
// id): whatever looks like an API token or a JWT is cut out before the text is logged or stored.

/** A run of the characters tokens are written in; `.` joins a JWT's parts. Each run is matched
 *  whole and then searched, so the cost stays linear in the line's length. */
const TOKEN_RUN = /[A-Za-z0-9._-]{12,}/g;
/** Where a credential starts inside a run: an API token's prefix in any case, or a JWT's header
 *  (base64url of `{"`). A run may carry a JSON escape's letter before it (`\neyJ…`). */
export const CREDENTIAL_START = /[Pp][Cc][Tt]_|eyJ/;
/** The shortest credential, its start included: anything shorter is no secret, and would take
 *  ordinary words (`keyJsonValue`) with it. */
const CREDENTIAL_MIN_LENGTH = 12;

/** The text with every token-shaped run redacted from where the credential starts. */
export function redactCredentialShapes(text: string): string {
  if (!CREDENTIAL_START.test(text)) return text;
  return text.replace(TOKEN_RUN, (run) => {
    const at = run.search(CREDENTIAL_START);
    if (at < 0 || run.length - at < CREDENTIAL_MIN_LENGTH) return run;
    return `${run.slice(0, at)}[REDACTED]`;
  });
}
