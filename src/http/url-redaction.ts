// A credential presented in a URL (`?ptoken=…`) must never reach a log line
// (docs/operations.md, Logs). A pattern on the raw URL is not enough: the router starts the query at `?` and
// also at `#`, and the query parser decodes keys (`%70token`, `ptoke%6E`, `+` for a space), so
// the raw text can spell `ptoken` in many ways that still authenticate, and in many more that do
// not authenticate but still carry a real secret (`PTOKEN`, `ptoken%20`, `%2570token`).
//
// So each key is decoded the way the parser does, only more leniently — repeatedly (double
// encoding), keeping broken escapes as text, reading overlong UTF-8 as the letter it spells,
// ignoring case, punctuation, spaces and NULs — and the value of every key that then reads like
// a token is redacted in full, up to the next `&` (where the parser ends it). Two nets follow:
// anything shaped like one of our credentials (an API token, a JWT), in any encoding, takes the
// query with it; and when the parsed query is at hand, a value the parser filed under a token
// key that still shows drops the query too. Over-redaction only costs log detail.

const REDACTED = '[REDACTED]';

/** Where the router may start reading a query (`;` too: path parameters, and the router's
 *  optional semicolon delimiter). */
const QUERY_START = /[?#;]/;

/** `pct_` + 32 + 6 characters, matched loosely (any case, truncated, with a typo): a near-miss
 *  that does not authenticate is still most of a secret. */
const API_TOKEN_SHAPE = /pct_[A-Za-z0-9_-]{8,}/gi;
/** A JWT's header is base64url JSON, so it starts with `eyJ` (`{"`), where a run of base64url
 *  starts (which also keeps a run of `eyJeyJ…` from costing quadratic time). */
const JWT_SHAPE = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?/g;

/** The key names whose values are redacted: `ptoken` in every spelling, and any other token. */
const CREDENTIAL_KEY_WORD = 'token';

/**
 * UTF-8 read leniently: overlong forms (`%C1%B0` for `p`) give the character they spell, which
 * a strict decoder (and the query parser) would refuse; a byte that fits no sequence is U+FFFD.
 */
function decodeUtf8Leniently(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    const length =
      lead < 0x80
        ? 1
        : lead >= 0xc0 && lead < 0xe0
          ? 2
          : lead >= 0xe0 && lead < 0xf0
            ? 3
            : lead >= 0xf0 && lead < 0xf8
              ? 4
              : 0;
    let codePoint = length === 1 ? lead : length === 2 ? lead & 0x1f : length === 3 ? lead & 0x0f : lead & 0x07;
    let ok = length > 0 && i + length <= bytes.length;
    for (let k = 1; ok && k < length; k++) {
      const next = bytes[i + k]!;
      ok = (next & 0xc0) === 0x80;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (!ok || codePoint > 0x10ffff) {
      out += '\ufffd';
      i += 1;
    } else {
      out += String.fromCodePoint(codePoint);
      i += length;
    }
  }
  return out;
}

/**
 * Percent-decoding that never fails: valid escapes are decoded, invalid ones stay as text, `+`
 * is a space. Repeated until nothing changes (bounded), so `%2570` reads as `p` too.
 */
export function looseDecode(text: string): string {
  let current = text.replace(/\+/g, ' ');
  for (let round = 0; round < 8 && current.includes('%'); round++) {
    const next = current.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) =>
      decodeUtf8Leniently(Buffer.from(run.replace(/%/g, ''), 'hex')),
    );
    if (next === current) break;
    current = next;
  }
  return current;
}

/** A key decoded and case-folded, with everything but ASCII letters and digits dropped. */
const keySkeleton = (key: string): string =>
  looseDecode(key)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** True when a (raw or parsed) query key reads like a token once reduced to its skeleton:
 *  `%70token`, `PTOKEN`, `pto%00ken `, `ptoken[]`, `%2570token` all do. */
export const isCredentialKey = (key: string): boolean => keySkeleton(key).includes(CREDENTIAL_KEY_WORD);

const holdsCredentialShape = (text: string): boolean =>
  text.search(API_TOKEN_SHAPE) >= 0 || text.search(JWT_SHAPE) >= 0;

/** The first `=` whose preceding text reads like a token key, or -1. Checking the whole prefix,
 *  not just the first key, also catches a pair behind a separator the parser does not split at
 *  (`a=1;ptoken=…`, `x#ptoken=…`) or inside a value (`=ptoken=…`). An escape never spans an
 *  `=`, so the prefix's skeleton is built segment by segment: linear however many `=` there are. */
function credentialValueStart(pair: string): number {
  let skeleton = '';
  for (let from = 0, eq = pair.indexOf('='); eq >= 0; from = eq + 1, eq = pair.indexOf('=', from)) {
    const segment = keySkeleton(pair.slice(from, eq));
    skeleton = skeleton.slice(-(CREDENTIAL_KEY_WORD.length - 1)) + segment;
    if (skeleton.includes(CREDENTIAL_KEY_WORD)) return eq;
  }
  return -1;
}

/** True when the text, decoded, has an `=` after a token key: an encoded `=` (`ptoken%3D…`). */
const hasEncodedCredential = (text: string): boolean =>
  text.includes('%') && credentialValueStart(looseDecode(text)) >= 0;

/**
 * One `&`-separated piece of the query, as the parser splits it: from the credential's `=` to
 * the next `&` is all value to the parser (`#`, `;` and `?` included), so all of it goes. A
 * piece with an encoded `=` after a token key goes whole: its secret may be in the parser's key.
 */
function redactPair(pair: string): string {
  const firstEq = pair.indexOf('=');
  if (hasEncodedCredential(firstEq < 0 ? pair : pair.slice(0, firstEq))) return REDACTED;
  const start = credentialValueStart(pair);
  if (start >= 0) return `${pair.slice(0, start + 1)}${REDACTED}`;
  return hasEncodedCredential(pair) ? REDACTED : pair;
}

/** The URL up to where a query (or an encoded character) starts, with the rest replaced. */
function withoutQuery(url: string): string {
  const cut = url.search(/[?#;%]/);
  return cut < 0 ? url : `${url.slice(0, cut)}${REDACTED}`;
}

/** A URL (absolute or origin-form) with every credential in it redacted; the rest as sent. */
export function redactUrl(url: string): string {
  const start = url.search(QUERY_START);
  let out =
    start < 0
      ? url
      : url.slice(0, start + 1) +
        url
          .slice(start + 1)
          .split('&')
          .map(redactPair)
          .join('&');
  out = out.replace(API_TOKEN_SHAPE, REDACTED).replace(JWT_SHAPE, REDACTED);
  // A credential shape spelt with escapes (`%70ct_…`) is only visible decoded.
  if (out.includes('%') && holdsCredentialShape(looseDecode(out))) out = withoutQuery(out);
  return out;
}

/**
 * The URL of a request for a log line, checked against the query the parser produced (null when
 * the URL could not be parsed): a value filed under a token key that still shows after the
 * raw-text redaction means the two read the URL differently, and the query is dropped whole.
 */
export function redactRequestUrl(url: string, query: unknown): string {
  const redacted = redactUrl(url);
  if (query === null || typeof query !== 'object') return redacted;
  let decoded: string | undefined;
  for (const [key, value] of Object.entries(query)) {
    if (!isCredentialKey(key)) continue;
    for (const v of [value].flat()) {
      // Shorter values are no credential, and would match ordinary text by chance.
      if (typeof v !== 'string' || v.length < 8) continue;
      decoded ??= looseDecode(redacted);
      if (redacted.includes(v) || decoded.includes(v)) return withoutQuery(redacted);
    }
  }
  return redacted;
}

/** Free text that may quote a URL (an error message, a stack): each such run is redacted as one. */
export function redactText(text: string): string {
  return text.replace(/[^\s'"`<>()]+/g, (run) => (/[?#;%]|pct_|eyJ/i.test(run) ? redactUrl(run) : run));
}
