// Render pool failures → answers (docs/reports.md, Errors):
//  - PoolBusyError → 503 `render_busy` with Retry-After (the queue is full; come back later);
//  - JobTimeoutError → 422 `render_timeout`, JobMemoryError and RenderPageLimitError →
//    422 `render_too_large` (over Settings:RenderMemoryMb / Settings:RenderMaxPages): this
//    report with these params is beyond the limits, so retrying the same request would fail the
//    same way (a 5xx would invite exactly that); narrower params are the way out;
//  - TemplateRenderError → 422 `template_error` with the engine's message (it names the object
//    and expression, never a server path);
//  - anything else (a crashed worker, a closed pool) is a server fault: 500, logged.
import { unavailable, unprocessable } from '../lib/errors.js';
import { MAX_PAGES_PARAM } from './max-pages-param.js';
import {
  PoolBusyError,
  JobMemoryError,
  RenderPageLimitError,
  JobTimeoutError,
  TemplateRenderError,
} from './render-pool/index.js';

export function renderFailure(err: unknown): unknown {
  if (err instanceof PoolBusyError) {
    return unavailable('render_busy', 'The report renderer is busy; retry later', err.retryAfterSeconds);
  }
  if (err instanceof JobTimeoutError) {
    return unprocessable(
      'render_timeout',
      `The report took longer than ${err.timeoutMs / 1000} s to render (Settings:RenderTimeoutSeconds) and ` +
        `was stopped; narrow its params`,
    );
  }
  if (err instanceof JobMemoryError) {
    return unprocessable(
      'render_too_large',
      `The report needs more than ${err.maxMemoryMb} MB of memory to render (Settings:RenderMemoryMb) and ` +
        `was stopped; narrow its params`,
    );
  }
  if (err instanceof RenderPageLimitError) {
    return unprocessable(
      'render_too_large',
      `The report has more than ${err.maxPages} pages (Settings:RenderMaxPages) and was not rendered; narrow ` +
        `its params, or ask for the first pages with ${MAX_PAGES_PARAM}=<pages>`,
    );
  }
  if (err instanceof TemplateRenderError) {
    return unprocessable('template_error', `The template cannot be rendered: ${err.message}`);
  }
  return err;
}
