// Errors of the render pool. The HTTP layer maps them to statuses: PoolBusyError → 503 with
// Retry-After, RenderTimeoutError / RenderMemoryError → a clear "report too large/slow" answer,
// TemplateRenderError → its message is safe to show a client, the rest → 500 (message for logs).

/** Base class of every error the pool rejects with (except an abort, which rejects with the
 *  signal's reason as fetch does). */
export class RenderPoolError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The queue is full: answer 503 and ask the client to come back later. */
export class PoolBusyError extends RenderPoolError {
  constructor(readonly retryAfterSeconds: number) {
    super(`the report renderer is busy; retry in ${retryAfterSeconds} s`);
  }
}

/** The render ran over its time limit; its worker was terminated (and is replaced on demand). */
export class RenderTimeoutError extends RenderPoolError {
  constructor(readonly timeoutMs: number) {
    super(`the report took longer than ${timeoutMs / 1000} s to render and was stopped`);
  }
}

/** The render hit the worker's heap limit; the worker died and is replaced on demand. */
export class RenderMemoryError extends RenderPoolError {
  constructor(readonly maxMemoryMb: number) {
    super(`the report needs more than the ${maxMemoryMb} MB of memory a render may use and was stopped`);
  }
}

/** The report needs more pages than the pool's maxPages (Settings:RenderMaxPages); nothing
 *  was cut and nothing is answered (the worker stays). */
export class RenderPageLimitError extends RenderPoolError {
  constructor(readonly maxPages: number) {
    super(`the report has more than ${maxPages} pages and was not rendered`);
  }
}

/** The template or its data cannot be used. The message says why and where (the engine's
 *  TemplateError message) and holds no server paths: it is safe to show a client. */
export class TemplateRenderError extends RenderPoolError {}

/** Anything else: an internal error in the worker, a worker that crashed or failed to start.
 *  The message is for logs, not for clients. */
export class RenderFailedError extends RenderPoolError {}

/** The pool was closed before the job finished. */
export class RenderPoolClosedError extends RenderPoolError {
  constructor() {
    super('the render pool is closed');
  }
}
