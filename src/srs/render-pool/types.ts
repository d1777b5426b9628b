// The render pool's public types: what the SRS HTTP service hands over and gets back.

import type { RenderFormat } from '../render-formats.js';
import type { WorkerLosses } from '../../lib/worker-pool/index.js';

/** Output formats of the pool: the rendered report (HTML, PDF) or the template with its data
 *  merged into its JSON connection (.frx). */
export type { RenderFormat } from '../render-formats.js';

export interface RenderJob {
  /** Absolute path of the .frx template (already resolved inside the app's templates/ folder
   *  by the caller). The worker reads the file itself; it is never shipped per job. */
  templatePath: string;
  /** The folder every file the template names (base and detail reports, shapefiles, CSV files)
   *  must be inside, by real path (default: the template's own folder). The server gives the
   *  app's folder; the CLI the template's folder or its --resources. */
  resourceFolder?: string;
  format: RenderFormat;
  /** The SRS JSON object (command name → rows, or one object for dtsingle). Structured-cloned
   *  into the worker. */
  data: unknown;
  /** A data file the worker reads and uses instead of `data` (the CLI's --data): `.xml` an
   *  ADO.NET DataSet, `.json` the root of the template's JSON connection and/or named arrays for
   *  its TableDataSources (frx: the JSON to embed). Read in the worker, so that parsing it counts
   *  against the render's limits. */
  dataFile?: string;
  /** html, pdf: fail with a TemplateRenderError starting with MISSING_DATA when neither `data`
   *  nor `dataFile` is given and the template has data sources that read only supplied data
   *  (the CLI without --data), instead of rendering them empty. */
  requireData?: boolean;
  /** html: embed the font files used (the CLI's --embed-fonts); ignored by the other formats. */
  embedFonts?: boolean;
  /** html: link the faces the pages use as `<fontBaseUrl><name>.<hash>.woff2`, the files the
   *  API's font route serves (ignored with embedFonts and by the other formats). */
  fontBaseUrl?: string;
  /** Not used by any format of the pool: HTML and PDF take their title from the template's
   *  ReportInfo, and the starter template (which takes a title) is built in-process. */
  title?: string;
  /** Culture of number and date formats ("en-US" by default). */
  culture?: string;
  /** The report's "now" as a wall clock (a Date's UTC fields are the local time, as the engine
   *  reads it); default: the worker's current local time. */
  nowMs?: number;
  /** Named in the messages of JobFailedError (for logs); not sent to the worker. */
  requestId?: string;
  /** Answer the first this-many pages of a longer report (a whole number from 1 to the pool's
   *  maxPages; larger is taken as maxPages) instead of failing with RenderPageLimitError; the
   *  outcome's `truncated` says whether it was cut. */
  truncateAtPages?: number;
}

export interface RenderOutcome {
  output: Buffer;
  contentType: string;
  pages: number;
  /** The report was cut at the job's truncateAtPages (it has more pages). */
  truncated: boolean;
  warnings: string[];
}

export interface RenderPoolStats {
  /** Most workers (the configured size). */
  size: number;
  /** Workers running a job now. */
  busy: number;
  /** Jobs waiting for a worker. */
  queued: number;
  /** Workers lost (over a limit, crashed, aborted) and replaced since the pool was made. */
  lost: WorkerLosses;
  /** Template loads of all workers so far: `hits` reused a cached template (same path, mtime,
   *  size), `misses` read (and parsed) the file. */
  templateCache: { hits: number; misses: number };
}

export interface RenderPool {
  /** The page limit of every render (see RenderPoolOptions.maxPages). */
  readonly maxPages: number;
  /** Renders on a worker thread. Rejects with PoolBusyError when the queue is full,
   *  JobTimeoutError, JobMemoryError, RenderPageLimitError, TemplateRenderError, JobFailedError (anything
   *  else, e.g. a crashed worker), PoolClosedError, or the signal's reason when aborted. */
  render(job: RenderJob, signal?: AbortSignal): Promise<RenderOutcome>;
  /** Starts every worker now and warms each up (a few renders of a built-in report, at most
   *  10 s), so that the first real render is not 5–7 times slower than later ones. Workers
   *  started later (replacing lost ones) warm up too, unless a render is already waiting. */
  warmUp(): void;
  /** Terminates every worker; running and queued jobs reject with PoolClosedError. */
  close(): Promise<void>;
  stats(): RenderPoolStats;
}

export interface RenderPoolOptions {
  /** Worker threads (default max(1, CPU cores − 1)). Workers start on demand, or all at once
   *  with warmUp(). */
  size?: number;
  /** Jobs that may wait for a worker beyond those running (default 4 × size). */
  queueLimit?: number;
  /** Longest render, from the moment a worker takes the job (default 60 s). */
  timeoutMs?: number;
  /** A worker's heap limit (V8 old generation) in MB (default 512). */
  maxMemoryMb?: number;
  /** Most pages of a rendered report (default 10,000): one that needs more fails with
   *  RenderPageLimitError (never cut silently), unless the job asks for truncateAtPages. A
   *  template's own smaller MaxPages still stops it there without an error. */
  maxPages?: number;
  /** A report script's budgets for one render (the engine's defaults otherwise). */
  scriptLimits?: { maxSteps?: number; maxItems?: number };
  /** Font directories for fallback faces (Settings:FontDirs); Debian's Noto directories always. */
  fontDirs?: string[];
  /** Worker entry module (tests): a path or file URL; `.ts` files run through tsx. */
  workerScript?: string | URL;
}
