// One error type for every failure the caller should learn about, in the domain's words: what
// kind of failure it is, a stable code and a message. It knows nothing of HTTP; the HTTP layer
// (src/http/error-answer.ts) turns the kind into a status and headers and the error into the
// envelope `{success: false, message, data: {code, details?}}`. The CLI prints the message.

export interface ErrorDetail {
  field?: string;
  rule?: string;
  message: string;
}

/** What went wrong, as the caller should understand it. */
export type ErrorKind =
  /** The input is malformed or breaks a rule of the field it fills. */
  | 'invalid'
  /** No credential, or one that does not prove who the caller is. */
  | 'unauthenticated'
  /** The caller is known but may not do this. */
  | 'forbidden'
  | 'not_found'
  /** The change collides with the current state (a name taken, a race lost). */
  | 'conflict'
  /** The input is larger than the limit for it. */
  | 'too_large'
  /** The input comes in a form this operation does not read. */
  | 'unsupported_type'
  /** The input is well formed but cannot be processed (a broken template, a failing command,
   *  a report over its limits): the same request would fail the same way again. */
  | 'unprocessable'
  /** Too many attempts: come back after `retryAfterSeconds`. */
  | 'rate_limited'
  /** The caller went away before the answer was ready. */
  | 'client_gone'
  /** Busy or not reachable right now: come back after `retryAfterSeconds`. */
  | 'unavailable';

export interface AppErrorOptions {
  details?: ErrorDetail[];
  /** For `rate_limited` and `unavailable`: when a retry may succeed. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: ErrorKind, code: string, message: string, opts: AppErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AppError';
    this.kind = kind;
    this.code = code;
    this.details = opts.details;
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }
}

export const invalid = (code: string, message: string, details?: ErrorDetail[]) =>
  new AppError('invalid', code, message, details ? { details } : {});
export const unauthenticated = (code: string, message: string) => new AppError('unauthenticated', code, message);
export const forbidden = (code: string, message: string) => new AppError('forbidden', code, message);
export const notFound = (code: string, message: string) => new AppError('not_found', code, message);
export const conflict = (code: string, message: string) => new AppError('conflict', code, message);
export const unprocessable = (code: string, message: string, details?: ErrorDetail[]) =>
  new AppError('unprocessable', code, message, details ? { details } : {});
export const unavailable = (code: string, message: string, retryAfterSeconds: number) =>
  new AppError('unavailable', code, message, { retryAfterSeconds });
