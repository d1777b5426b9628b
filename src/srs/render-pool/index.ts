// The SRS render pool: report renders on worker threads (see pool.ts and README.md).

export { createRenderPool, RenderWorkerPool, resolvePoolOptions } from './pool.js';
export { MISSING_DATA, RenderPageLimitError, TemplateRenderError } from './errors.js';
export {
  JobFailedError,
  JobMemoryError,
  JobTimeoutError,
  PoolBusyError,
  PoolClosedError,
} from '../../lib/worker-pool/index.js';
export type {
  RenderFormat,
  RenderJob,
  RenderOutcome,
  RenderPool,
  RenderPoolOptions,
  RenderPoolStats,
} from './types.js';
