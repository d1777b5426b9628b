// Errors of the render pool. Those of every pool of jobs (busy, over time or memory, failed,
// closed) are src/lib/worker-pool's; these two are a render's own. src/srs/render-errors.ts
// says how each is answered.
import { WorkerPoolError } from '../../lib/worker-pool/index.js';

/** The report needs more pages than the pool's maxPages (Settings:RenderMaxPages); nothing
 *  was cut and nothing is answered (the worker stays). */
export class RenderPageLimitError extends WorkerPoolError {
  constructor(readonly maxPages: number) {
    super(`the report has more than ${maxPages} pages and was not rendered`);
  }
}

/** The template or its data cannot be used. The message says why and where (the engine's
 *  TemplateError message) and holds no server paths: it is safe to show a client. */
export class TemplateRenderError extends WorkerPoolError {}

/** How the TemplateRenderError of a job with `requireData` and no data begins; the data sources
 *  follow (the CLI adds its --data option). */
export const MISSING_DATA = 'no data given for the data sources';
