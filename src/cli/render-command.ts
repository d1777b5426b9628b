// `platform-core render <template.frx> [--data <file.json|dataset.xml>] [--format html] [--out <file>|-]`
// Loaded only by that command (the report library is not needed by the others).

import { readFileSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseJsonText } from '../report/data/index.js';
import { loadFrx, renderReport, TemplateError, type RenderData } from '../report/index.js';
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

export async function renderCommand(args: ParsedArgs, err: (s: string) => void): Promise<number> {
  const [, templatePath, extra] = args.positional;
  if (!templatePath) throw new UsageError('render needs a template: platform-core render <template.frx> [--data <file>] [--format html] [--out <file>|-]');
  if (extra !== undefined) throw new UsageError(`unexpected argument: ${extra}`);
  const format = one(args, 'format') ?? 'html';
  if (format !== 'html') throw new UsageError(`unsupported --format ${format} (only html)`);
  const out = one(args, 'out') ?? '-';
  const template = readFile(templatePath, 'template');
  const dataPath = one(args, 'data');
  try {
    let data: RenderData | undefined;
    if (dataPath !== undefined) {
      const bytes = readFile(dataPath, 'data file');
      const ext = extname(dataPath).toLowerCase();
      if (ext === '.xml') data = { datasetXml: bytes };
      else if (ext === '.json') data = jsonData(template, bytes.toString('utf8'), dataPath);
      else throw new UsageError(`--data must be a .json or .xml file: ${dataPath}`);
    }
    const culture = one(args, 'culture');
    const result = renderReport({
      template,
      format: 'html',
      ...(data ? { data } : {}),
      ...(culture !== undefined ? { culture } : {}),
      ...(args.flags.has('embed-fonts') ? { embedFonts: true } : {}),
    });
    for (const w of result.warnings) err(`warning: ${w}`);
    if (out === '-') await new Promise<void>((resolve, reject) => process.stdout.write(result.output, (e) => (e ? reject(e) : resolve())));
    else writeFileSync(out, result.output);
    return 0;
  } catch (e) {
    if (e instanceof TemplateError) throw new UsageError(`${templatePath}: ${e.message}`);
    throw e;
  }
}
