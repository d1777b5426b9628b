// API failures in words a person can act on. The API's own message is kept where it already
// says what happened; these add what to do about it.
import { ApiError } from './api';

const HINTS: Record<string, string> = {
  invalid_credentials: 'The username or the password is wrong.',
  account_locked:
    'This account is locked: too many wrong passwords (it unlocks by itself after a few minutes) or an ' +
    'administrator locked it.',
  account_cancelled: 'This account has been cancelled. An administrator can reactivate it.',
  session_ended: 'Your session has ended. Sign in again.',
  token_expired: 'Your session has expired. Sign in again.',
  authentication_required: 'You are not signed in.',
  forbidden: 'Your account may not do this.',
  network: 'The server cannot be reached. Check the connection and try again.',
  command_failed: "One of the report's SQL commands failed: the server's log has the database's message.",
  template_error: 'The report template could not be rendered.',
  record_not_found: 'There is no such record: check the parameters.',
};

export function explain(err: unknown): string {
  if (!(err instanceof ApiError)) return (err as Error)?.message ?? String(err);
  if (err.code === 'rate_limited') {
    const wait = err.retryAfterSeconds;
    return `Too many attempts. Try again ${wait ? `in ${wait} second${wait === 1 ? '' : 's'}` : 'in a minute'}.`;
  }
  const hint = HINTS[err.code];
  const text = !hint ? err.message : err.message && !hint.startsWith(err.message) ? `${hint} (${err.message})` : hint;
  // What the server logged about a failure is found by the request's id.
  return err.status >= 422 && err.requestId ? `${text} — request ${err.requestId}` : text;
}
