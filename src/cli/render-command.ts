// `platform-core render <template.frx> [--data <file.json|dataset.xml>] [--format html|pdf|frx]
// [--out <file>|-] [--resources <dir>] [--timeout <seconds>] [--max-memory-mb <MB>]
// [--max-pages <pages>]`. Loaded only by that command.
//
// A template may be someone else's: the files it names (base reports, shapefiles, CSV files) are
// read only inside its own folder, or inside --resources when that is given.
//
// The render runs where the server's renders run: on a worker thread of a render pool
// (src/srs/render-pool), here one worker for one job, so it has the same time limit (the worker
// is terminated), heap limit (the worker's resourceLimits) and page limit (a longer report
// fails, it is never cut) — a hostile template stops with one message instead of taking the
// machine's memory. The worker reads the template and the
// data file itself, so loading and parsing them count against the limits too; this thread only
// checks the arguments and writes the output. The output comes back as one buffer (moved from
// the worker, not copied); a file is only created once the report has run, and removed again if
// writing it fails.

import { accessSync, constants, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { createRenderPool, MISSING_DATA, TemplateRenderError, type RenderJob } from '../srs/render-pool/index.js';
import { isRenderFormat, RENDER_FORMATS, type RenderFormat } from '../srs/render-formats.js';
import { one, UsageError, type ParsedArgs } from './args.js';
import { limitMessage, renderLimits } from './render-limits.js';

const USAGE =
  `platform-core render <template.frx> [--data <file>] [--format ${RENDER_FORMATS.join('|')}] [--out <file>|-] ` +
  '[--resources <dir>] [--timeout <seconds>] [--max-memory-mb <MB>] [--max-pages <pages>]';

/** A file the worker will read: checked here so that a wrong path is a usage error naming it. */
function checkReadable(path: string, what: string): void {
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
    accessSync(path, constants.R_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${what} ${path}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

/** The --resources folder: checked here so that a wrong path is a usage error naming it. */
function checkFolder(path: string): void {
  try {
    if (!statSync(path).isDirectory()) throw new Error('not a folder');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such folder' : (e as Error).message;
    throw new UsageError(`cannot use --resources ${path}: ${why}`);
  }
}

function writeStdout(data: Buffer): Promise<void> {
  return new Promise<void>((resolve, reject) => process.stdout.write(data, (e) => (e ? reject(e) : resolve())));
}

function writeOutputFile(out: string, data: Buffer): void {
  try {
    writeFileSync(out, data);
  } catch (e) {
    // Never leave half a document behind (a full disk); a path that is a folder stays as it is.
    try {
      rmSync(out, { force: true });
    } catch {
      // nothing to remove
    }
    throw new UsageError(`cannot write ${out}: ${(e as Error).message}`);
  }
}

/** The job for the worker, from the arguments (usage errors for what cannot work). */
function renderJob(args: ParsedArgs, templatePath: string, format: RenderFormat): RenderJob {
  checkReadable(templatePath, 'template');
  const job: RenderJob = { templatePath: resolve(templatePath), format, data: undefined };
  const dataPath = one(args, 'data');
  const ext = dataPath === undefined ? undefined : extname(dataPath).toLowerCase();
  // frx is the template with the data embedded in its JSON connection: only JSON can be.
  if (format === 'frx' && ext !== '.json')
    throw new UsageError('--format frx embeds JSON data: give --data <file.json>');
  // Without --data, a template whose data sources await data is an error, not an empty report.
  if (dataPath === undefined) job.requireData = true;
  else {
    if (ext !== '.json' && ext !== '.xml') throw new UsageError(`--data must be a .json or .xml file: ${dataPath}`);
    checkReadable(dataPath, 'data file');
    job.dataFile = resolve(dataPath);
  }
  const resources = one(args, 'resources');
  if (resources !== undefined) {
    checkFolder(resources);
    job.resourceFolder = resolve(resources);
  }
  const culture = one(args, 'culture');
  if (culture !== undefined) job.culture = culture;
  if (args.flags.has('embed-fonts')) job.embedFonts = true;
  return job;
}

export async function renderCommand(args: ParsedArgs, err: (s: string) => void): Promise<number> {
  const [, templatePath, extra] = args.positional;
  if (!templatePath) throw new UsageError(`render needs a template: ${USAGE}`);
  if (extra !== undefined) throw new UsageError(`unexpected argument: ${extra}`);
  const format = one(args, 'format') ?? 'html';
  if (!isRenderFormat(format)) {
    const known = `${RENDER_FORMATS.slice(0, -1).join(', ')} or ${RENDER_FORMATS.at(-1)}`;
    throw new UsageError(`unsupported --format ${format} (${known})`);
  }
  const out = one(args, 'out') ?? '-';
  if (format === 'pdf' && out === '-' && process.stdout.isTTY)
    throw new UsageError('not writing a PDF to a terminal: use --out <file.pdf> or redirect the output');
  const limits = renderLimits(args);
  const job = renderJob(args, templatePath, format);

  // One worker, no queue: the pool's limits, worker start and clean-up, for a single job.
  const pool = createRenderPool({
    size: 1,
    queueLimit: 0,
    timeoutMs: Math.round(limits.timeoutSeconds * 1000),
    maxMemoryMb: limits.maxMemoryMb,
    maxPages: limits.maxPages,
    scriptLimits: limits.scriptLimits,
  });
  let output: Buffer;
  let warnings: string[];
  try {
    ({ output, warnings } = await pool.render(job));
  } catch (e) {
    const overLimit = limitMessage(e);
    if (overLimit !== undefined) throw new UsageError(`${templatePath}: ${overLimit}`);
    if (e instanceof TemplateRenderError) {
      const hint = e.message.startsWith(MISSING_DATA) ? '; give them with --data <file.json|dataset.xml>' : '';
      throw new UsageError(`${templatePath}: ${e.message}${hint}`);
    }
    throw e;
  } finally {
    await pool.close();
  }
  for (const w of warnings) err(`warning: ${w}`);
  if (out === '-') await writeStdout(output);
  else writeOutputFile(out, output);
  return 0;
}
