// The SRS render pool: report renders on worker threads (see pool.ts and README.md).

export { createRenderPool, RenderWorkerPool, resolvePoolOptions } from './pool.js';
export {
  PoolBusyError,
  RenderFailedError,
  RenderMemoryError,
  RenderPageLimitError,
  RenderPoolClosedError,
  RenderPoolError,
  RenderTimeoutError,
  TemplateRenderError,
} from './errors.js';
export type {
  RenderFormat,
  RenderJob,
  RenderOutcome,
  RenderPool,
  RenderPoolOptions,
  RenderPoolStats,
} from './types.js';
