// One render job as a worker runs it: the template from the worker's cache, the data (the job's,
// or read from its data file), the format's renderer, the output as bytes that own their
// ArrayBuffer (so they can be transferred).
// Plain functions without worker_threads, so they also run (and are tested) in-process.

import {
  dataSourcesAwaitingData,
  setFontDirs,
  type FontFace,
  mergeDataIntoTemplate,
  renderDocument,
  TemplateError,
  type ReportFormat,
  webFontFileName,
} from '../../report/index.js';
import { jsonTextFromFile, renderDataFromFile } from './data-file.js';
import { MISSING_DATA } from './errors.js';
import type { CachedTemplate, TemplateCache } from './template-cache.js';
import type { WorkerJob } from './protocol.js';
import type { RenderFormat } from './types.js';

export interface Produced {
  output: Uint8Array;
  contentType: string;
  pages: number;
  truncated: boolean;
  warnings: string[];
}

interface FormatHandler {
  contentType: string;
  render(template: CachedTemplate, job: WorkerJob): Produced | Promise<Produced>;
}

/** The options every report render shares. */
function reportOptions(template: CachedTemplate, job: WorkerJob) {
  const loaded = template.loaded();
  if (job.requireData && job.dataFile === undefined && job.data === undefined) {
    const awaiting = dataSourcesAwaitingData(loaded.report.dictionary);
    if (awaiting.length > 0) throw new TemplateError(`${MISSING_DATA} ${awaiting.map((n) => `"${n}"`).join(', ')}`);
  }
  return {
    template: loaded,
    detailReport: template.readDetail,
    data: job.dataFile !== undefined ? renderDataFromFile(job.dataFile, loaded.report) : { json: job.data },
    ...(job.culture !== undefined ? { culture: job.culture } : {}),
    ...(job.nowMs !== undefined ? { now: new Date(job.nowMs) } : {}),
    ...(job.maxPages !== undefined ? { maxPages: job.maxPages } : {}),
    ...(job.truncatePages ? { truncatePages: true } : {}),
    ...(job.scriptLimits ? { scriptLimits: job.scriptLimits } : {}),
    ...(job.maxOutputBytes !== undefined ? { maxOutputBytes: job.maxOutputBytes } : {}),
  };
}

/** A format the report engine renders (html, pdf): pages and warnings come from the run. */
function rendered(format: ReportFormat, contentType: string): FormatHandler {
  return {
    contentType,
    render: (template, job) => {
      // renderDocument: a PDF's or the HTML bytes' pages are written as they are finished (memory
      // stays flat); the output is one buffer of its own (transferred, not copied: ownBytes).
      const r = renderDocument({
        ...reportOptions(template, job),
        format,
        htmlAsBytes: true,
        ...(format === 'html' && job.embedFonts ? { embedFonts: true } : {}),
        ...(format === 'html' && job.fontBaseUrl !== undefined ? { fontUrl: fontUrlUnder(job.fontBaseUrl) } : {}),
      });
      return { output: ownBytes(r.output), contentType, pages: r.pages, truncated: r.truncated, warnings: r.warnings };
    },
  };
}

/** A face's served file under `base` (functions do not cross to the worker: the URL is made here). */
function fontUrlUnder(base: string): (face: FontFace) => string {
  return (face) => base + webFontFileName(face);
}

/** Output formats: adding one is one entry here. */
const FORMATS: Record<RenderFormat, FormatHandler> = {
  html: rendered('html', 'text/html; charset=utf-8'),
  pdf: rendered('pdf', 'application/pdf'),
  // The template with the data embedded in its JSON connection: no pages, nothing rendered.
  frx: {
    contentType: 'application/xml; charset=utf-8',
    render: (template, job) => {
      // A data file goes to the merge as JSON text, parsed there with the merge's own limits.
      const data = job.dataFile !== undefined ? jsonTextFromFile(job.dataFile) : job.data;
      return {
        output: ownBytes(mergeDataIntoTemplate(template.bytes, data)),
        contentType: FORMATS.frx.contentType,
        pages: 0,
        truncated: false,
        warnings: [],
      };
    },
  },
};

/** Bytes in an ArrayBuffer of their own (a transfer moves the whole ArrayBuffer: a view into a
 *  shared or pooled one must be copied first). */
export function ownBytes(out: string | Uint8Array): Uint8Array {
  if (typeof out === 'string') return new TextEncoder().encode(out);
  const whole = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength && out.buffer instanceof ArrayBuffer;
  return whole ? out : new Uint8Array(out);
}

/** Runs one job. Throws TemplateError when the template or data cannot be used,
 *  RenderTooLargeError past the job's page limit; `onTemplate`
 *  learns whether the cache was used even when the render fails afterwards. */
export async function runRenderJob(
  job: WorkerJob,
  cache: TemplateCache,
  onTemplate?: (hit: boolean) => void,
): Promise<Produced> {
  // The pool's font directories (a worker's own copy of the font service's state).
  if (job.fontDirs) setFontDirs(job.fontDirs);
  const handler = Object.hasOwn(FORMATS, job.format) ? FORMATS[job.format] : undefined;
  if (!handler) throw new TemplateError(`unsupported output format "${String(job.format)}"`);
  const { template, hit } = cache.get(job.templatePath, job.resourceFolder);
  onTemplate?.(hit);
  return handler.render(template, job);
}
