// One error type for every failure that should reach the client: the HTTP layer turns it into
// the envelope `{success: false, message, data: {code, details?}}`.

export interface ErrorDetail {
  field?: string;
  rule?: string;
  message: string;
}

export class AppError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    statusCode: number,
    code: string,
    message: string,
    opts: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.code = code;
    this.details = opts.details;
    this.headers = opts.headers;
  }
}

export const badRequest = (code: string, message: string, details?: ErrorDetail[]) =>
  new AppError(400, code, message, details ? { details } : {});
export const unauthorized = (code: string, message: string) =>
  new AppError(401, code, message, {
    headers: { 'WWW-Authenticate': 'Bearer realm="platform-core", Token realm="platform-core"' },
  });
export const forbidden = (code: string, message: string) => new AppError(403, code, message);
export const notFound = (code: string, message: string) => new AppError(404, code, message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
