// Report data read from a file inside the render worker (a job's `dataFile`: the CLI's --data).
// Reading and parsing happen in the worker so that they count against the render's time and
// heap limits like the render itself; the caller only checks that the file is there.

import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseJsonText, TemplateError, type RenderData, type ReportModel } from '../../report/index.js';

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

/** The text of a .json data file, for embedding into a template (format frx). */
export function jsonTextFromFile(path: string): string {
  if (extname(path).toLowerCase() !== '.json') throw new TemplateError('the data to embed must be a .json file', path);
  return readDataFile(path).toString('utf8');
}

/**
 * The render data of a file: `.xml` an ADO.NET DataSet (the template's TableDataSources read
 * it by ReferenceName); `.json` the root of the template's JSON connection and/or, for its
 * TableDataSources, an object of named arrays.
 */
export function renderDataFromFile(path: string, report: ReportModel): RenderData {
  const ext = extname(path).toLowerCase();
  if (ext === '.xml') return { datasetXml: readDataFile(path) };
  if (ext !== '.json') throw new TemplateError('a data file must be .json or .xml', path);
  const root = parseJsonText(readDataFile(path).toString('utf8'), {}, path);
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
