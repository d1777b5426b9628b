// Report data read from a file inside the render worker (a job's `dataFile`: the CLI's --data).
// Reading and parsing happen in the worker so that they count against the render's time and
// heap limits like the render itself; the caller only checks that the file is there.

import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseJsonText, TemplateError, type RenderData, type ReportModel } from '../../report/index.js';
import { EnvelopeDataError, reportDataOf } from '../../lib/api-envelope.js';

function readDataFile(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new TemplateError(
      `cannot read the data file (${typeof code === 'string' ? code : (err as Error).message})`,
      path,
    );
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The report data of parsed JSON: a saved `data.json` answer gives its `data` (api-envelope.ts). */
function unwrapped(root: unknown, path: string): { data: unknown; unwrapped: boolean } {
  try {
    return reportDataOf(root);
  } catch (err) {
    if (err instanceof EnvelopeDataError) throw new TemplateError(err.message, path);
    throw err;
  }
}

/** The text of a .json data file, for embedding into a template (format frx); of a saved
 *  `data.json` answer, the text of its data. */
export function jsonTextFromFile(path: string): string {
  if (extname(path).toLowerCase() !== '.json') throw new TemplateError('the data to embed must be a .json file', path);
  const text = readDataFile(path).toString('utf8');
  const data = unwrapped(parseJsonText(text, {}, path), path);
  return data.unwrapped ? JSON.stringify(data.data) : text;
}

/**
 * The render data of a file: `.xml` an ADO.NET DataSet (the template's TableDataSources read
 * it by ReferenceName); `.json` the root of the template's JSON connection and/or, for its
 * TableDataSources, an object of named arrays (of a saved `data.json` answer of the API: its data).
 */
export function renderDataFromFile(path: string, report: ReportModel): RenderData {
  const ext = extname(path).toLowerCase();
  if (ext === '.xml') return { datasetXml: readDataFile(path) };
  if (ext !== '.json') throw new TemplateError('a data file must be .json or .xml', path);
  const root = unwrapped(parseJsonText(readDataFile(path).toString('utf8'), {}, path), path).data;
  const hasJsonConnection = report.dictionary.connections.some((c) => c.type === 'JsonDataSourceConnection');
  const hasTables = report.dictionary.dataSources.length > 0;
  const data: RenderData = {};
  if (hasJsonConnection || !hasTables) data.json = root;
  if (hasTables) {
    if (isPlainObject(root) && Object.values(root).every(Array.isArray))
      data.tables = root as Record<string, unknown[]>;
    else if (!hasJsonConnection)
      throw new TemplateError("data for the template's data sources must be an object of named arrays", path);
  }
  return data;
}
