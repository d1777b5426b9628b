// Finds the credential a request presents (docs/identity.md, Credentials): the
// Authorization header wins over the `ptoken` cookie, which wins over the `ptoken` query value.
import { isWellFormedTokenValue } from './token-values.js';

export type CredentialSource = 'header' | 'cookie' | 'query';

export type Credential =
  | { kind: 'jwt'; value: string; source: CredentialSource }
  | { kind: 'api_token'; value: string; source: CredentialSource }
  /** Something was presented but cannot be a credential: answered 401, never ignored. */
  | { kind: 'malformed'; reason: string; source: CredentialSource };

export interface CredentialCarrier {
  authorization: string | undefined;
  cookieToken: string | undefined;
  queryToken: string | undefined;
}

const MAX_CREDENTIAL_LENGTH = 8192;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** A bare value is a JWT when it has the three-part shape, an API token when it has ours. */
function classify(value: string, source: CredentialSource): Credential {
  if (value.length > MAX_CREDENTIAL_LENGTH) return { kind: 'malformed', reason: 'credential too long', source };
  if (JWT_SHAPE.test(value)) return { kind: 'jwt', value, source };
  if (isWellFormedTokenValue(value)) return { kind: 'api_token', value, source };
  return { kind: 'malformed', reason: 'not a JWT or API token', source };
}

function fromApiPair(pair: string, source: CredentialSource): Credential {
  // `api:<token>` — the user part is the literal `api` (case-insensitive, like usernames).
  const colon = pair.indexOf(':');
  if (colon < 0 || pair.slice(0, colon).toLowerCase() !== 'api') {
    return { kind: 'malformed', reason: 'expected api:<token>', source };
  }
  const token = pair.slice(colon + 1);
  return isWellFormedTokenValue(token)
    ? { kind: 'api_token', value: token, source }
    : { kind: 'malformed', reason: 'not an API token', source };
}

function fromAuthorization(header: string): Credential {
  const trimmed = header.trim();
  const space = trimmed.indexOf(' ');
  const scheme = (space < 0 ? trimmed : trimmed.slice(0, space)).toLowerCase();
  const rest = space < 0 ? '' : trimmed.slice(space + 1).trim();
  if (rest === '') return { kind: 'malformed', reason: 'empty credential', source: 'header' };
  switch (scheme) {
    case 'token':
      return isWellFormedTokenValue(rest)
        ? { kind: 'api_token', value: rest, source: 'header' }
        : { kind: 'malformed', reason: 'not an API token', source: 'header' };
    case 'bearer':
      return classify(rest, 'header');
    case 'basic': {
      if (rest.length > MAX_CREDENTIAL_LENGTH || !/^[A-Za-z0-9+/]+={0,2}$/.test(rest)) {
        return { kind: 'malformed', reason: 'invalid base64', source: 'header' };
      }
      return fromApiPair(Buffer.from(rest, 'base64').toString('utf8'), 'header');
    }
    default:
      return { kind: 'malformed', reason: 'unsupported authorization scheme', source: 'header' };
  }
}

export function findCredential(c: CredentialCarrier): Credential | null {
  if (c.authorization !== undefined && c.authorization.trim() !== '') return fromAuthorization(c.authorization);
  if (c.cookieToken !== undefined && c.cookieToken !== '') return classify(c.cookieToken, 'cookie');
  if (c.queryToken !== undefined && c.queryToken !== '') {
    return c.queryToken.toLowerCase().startsWith('api:')
      ? fromApiPair(c.queryToken, 'query')
      : classify(c.queryToken, 'query');
  }
  return null;
}
