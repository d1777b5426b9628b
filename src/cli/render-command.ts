// `platform-core render <template.frx> [--data <file.json|dataset.xml>] [--format html|pdf|frx] [--out <file>|-]`
// Loaded only by that command (the report library is not needed by the others).
//
// A PDF is streamed to its destination page by page (exportPdfToStream), so a long report does
// not sit in memory twice; a file is only created once the report has run, and removed again if
// writing it fails.

import { once } from 'node:events';
import { createWriteStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseJsonText } from '../report/data/index.js';
import {
  exportPdfToStream,
  loadFrx,
  mergeDataIntoTemplate,
  pdfExportOptions,
  prepareReport,
  renderReport,
  RENDER_FORMATS,
  TemplateError,
  type PrepareOptions,
  type RenderData,
  type RenderFormat,
} from '../report/index.js';
import { one, UsageError, type ParsedArgs } from './args.js';

function readFile(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${what} ${path}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON data: the root of the template's JSON connection, and/or named arrays for its
 *  TableDataSources. */
function jsonData(template: Buffer, text: string, path: string): RenderData {
  const root = parseJsonText(text, {}, path);
  const { report } = loadFrx(template);
  const hasJsonConnection = report.dictionary.connections.some((c) => c.type === 'JsonDataSourceConnection');
  const hasTables = report.dictionary.dataSources.length > 0;
  const data: RenderData = {};
  if (hasJsonConnection || !hasTables) data.json = root;
  if (hasTables) {
    if (!isPlainObject(root) || !Object.values(root).every(Array.isArray)) {
      if (!hasJsonConnection) throw new UsageError(`${path}: data for the template's data sources must be an object of named arrays`);
    } else data.tables = root as Record<string, unknown[]>;
  }
  return data;
}

const USAGE = 'platform-core render <template.frx> [--data <file>] [--format html|pdf|frx] [--out <file>|-]';

function writeStdout(data: string | Buffer): Promise<void> {
  return new Promise<void>((resolve, reject) => process.stdout.write(data, (e) => (e ? reject(e) : resolve())));
}

async function writePdf(opts: PrepareOptions, out: string, err: (s: string) => void): Promise<void> {
  if (out === '-' && process.stdout.isTTY) throw new UsageError('not writing a PDF to a terminal: use --out <file.pdf> or redirect the output');
  const run = prepareReport(opts);
  if (out === '-') {
    await exportPdfToStream(run.prepared, process.stdout, { ...pdfExportOptions(run), end: false });
  } else {
    const file = createWriteStream(out);
    try {
      await once(file, 'open');
      await exportPdfToStream(run.prepared, file, pdfExportOptions(run));
    } catch (e) {
      file.destroy();
      rmSync(out, { force: true });
      throw new UsageError(`cannot write ${out}: ${(e as Error).message}`);
    }
  }
  for (const w of run.warnings.list) err(`warning: ${w}`);
}

export async function renderCommand(args: ParsedArgs, err: (s: string) => void): Promise<number> {
  const [, templatePath, extra] = args.positional;
  if (!templatePath) throw new UsageError(`render needs a template: ${USAGE}`);
  if (extra !== undefined) throw new UsageError(`unexpected argument: ${extra}`);
  const format = one(args, 'format') ?? 'html';
  if (format !== 'frx' && !(RENDER_FORMATS as readonly string[]).includes(format)) throw new UsageError(`unsupported --format ${format} (html, pdf or frx)`);
  const out = one(args, 'out') ?? '-';
  const template = readFile(templatePath, 'template');
  const dataPath = one(args, 'data');
  try {
    if (format === 'frx') {
      // The template with the data embedded in its JSON connection: no engine run.
      if (dataPath === undefined || extname(dataPath).toLowerCase() !== '.json') throw new UsageError('--format frx embeds JSON data: give --data <file.json>');
      const merged = mergeDataIntoTemplate(template, readFile(dataPath, 'data file').toString('utf8'));
      if (out === '-') await writeStdout(merged);
      else writeFileSync(out, merged);
      return 0;
    }
    let data: RenderData | undefined;
    if (dataPath !== undefined) {
      const bytes = readFile(dataPath, 'data file');
      const ext = extname(dataPath).toLowerCase();
      if (ext === '.xml') data = { datasetXml: bytes };
      else if (ext === '.json') data = jsonData(template, bytes.toString('utf8'), dataPath);
      else throw new UsageError(`--data must be a .json or .xml file: ${dataPath}`);
    }
    const culture = one(args, 'culture');
    const opts: PrepareOptions = { template, ...(data ? { data } : {}), ...(culture !== undefined ? { culture } : {}) };
    if ((format as RenderFormat) === 'pdf') {
      await writePdf(opts, out, err);
      return 0;
    }
    const result = renderReport({ ...opts, format: 'html', ...(args.flags.has('embed-fonts') ? { embedFonts: true } : {}) });
    for (const w of result.warnings) err(`warning: ${w}`);
    if (out === '-') await writeStdout(result.output);
    else writeFileSync(out, result.output);
    return 0;
  } catch (e) {
    if (e instanceof TemplateError) throw new UsageError(`${templatePath}: ${e.message}`);
    throw e;
  }
}
