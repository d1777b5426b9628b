// A database that cannot be opened at start: the message is one line naming the file or host and
// the cause, for an administrator; the CLI prints it without a stack trace and exits non-zero.
export class DatabaseOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseOpenError';
  }
}
