// CSV text as a table (FastReport's CsvDataConnection, CsvUtils): the connection string's
// Separator [";"], FieldNamesInFirstString [false: columns Field0, Field1, …],
// RemoveQuotationMarks [true] and ConvertFieldTypes [true: a column of integers is System.Int32,
// of numbers System.Double, anything else System.String], Codepage [UTF-8 here] for file bytes.
// Unlike FastReport's line splitting, a quoted field may hold the separator, doubled quotes and
// line breaks (RFC 4180). Input size, rows, columns and field length are bounded: past a limit
// is a TemplateError naming it. Blank lines are skipped, as FastReport skips them.

import { TemplateError } from '../errors.js';
import { parseConnectionString } from './connection-string.js';
import type { ColumnInput } from './dictionary.js';
import { tableFromObjects } from './plain-table.js';
import type { DataTable } from './table.js';

export interface CsvOptions {
  separator: string;
  fieldNamesInFirstString: boolean;
  removeQuotationMarks: boolean;
  convertFieldTypes: boolean;
  /** A Windows code page number (65001 UTF-8, 1252, …); undefined: UTF-8. */
  codepage?: number;
  /** The CsvFile the connection names ('' when none). */
  csvFile: string;
}

export interface CsvLimits {
  maxBytes: number;
  maxRows: number;
  maxColumns: number;
  maxFieldLength: number;
}

export const DEFAULT_CSV_LIMITS: Readonly<CsvLimits> = Object.freeze({
  maxBytes: 64 * 1024 * 1024,
  maxRows: 1_000_000,
  maxColumns: 1000,
  maxFieldLength: 1024 * 1024,
});

const isTrue = (v: string | undefined, def: boolean): boolean =>
  v === undefined ? def : v.trim().toLowerCase() === 'true';

/** The CSV keys of a CsvDataConnection's connection string, with FastReport's defaults. */
export function csvOptions(connectionString: string, where = 'ConnectionString'): CsvOptions {
  const m = parseConnectionString(connectionString, where);
  const get = (k: string): string | undefined => {
    for (const [key, v] of m) if (key.toLowerCase() === k.toLowerCase()) return v;
    return undefined;
  };
  const cp = Number.parseInt(get('Codepage') ?? '', 10);
  return {
    separator: get('Separator') || ';',
    fieldNamesInFirstString: isTrue(get('FieldNamesInFirstString'), false),
    removeQuotationMarks: isTrue(get('RemoveQuotationMarks'), true),
    convertFieldTypes: isTrue(get('ConvertFieldTypes'), true),
    ...(Number.isFinite(cp) ? { codepage: cp } : {}),
    csvFile: get('CsvFile') ?? '',
  };
}

/** Code pages the runtime's TextDecoder reads under a label. */
const CODEPAGE_LABELS: Record<number, string> = {
  65001: 'utf-8',
  1200: 'utf-16le',
  1201: 'utf-16be',
  1250: 'windows-1250',
  1251: 'windows-1251',
  1252: 'windows-1252',
  1253: 'windows-1253',
  1254: 'windows-1254',
  1257: 'windows-1257',
  866: 'ibm866',
  28591: 'iso-8859-1',
  20127: 'us-ascii',
};

/** CSV file bytes as text in the connection's code page (a BOM wins; UTF-8 when unknown). */
export function decodeCsvBytes(bytes: Uint8Array, codepage?: number): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  const label = (codepage !== undefined && CODEPAGE_LABELS[codepage]) || 'utf-8';
  return new TextDecoder(label).decode(bytes);
}

/** The records of CSV text: fields split by the separator (any of its characters); a field that
 *  starts with a quote runs to the closing quote ("" inside is one quote, separators and line
 *  breaks are text). Without RemoveQuotationMarks quotes are ordinary characters. */
export function parseCsv(
  text: string,
  sep: string,
  removeQuotes: boolean,
  limits: CsvLimits = DEFAULT_CSV_LIMITS,
  where = 'CSV',
): string[][] {
  if (text.length > limits.maxBytes)
    throw new TemplateError(`the CSV text is larger than ${limits.maxBytes} characters`, where);
  const seps = new Set(sep.split(''));
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  const endField = (): void => {
    if (field.length > limits.maxFieldLength)
      throw new TemplateError(
        `row ${rows.length + 1}: a field is longer than ${limits.maxFieldLength} characters`,
        where,
      );
    row.push(field);
    field = '';
    if (row.length > limits.maxColumns)
      throw new TemplateError(`row ${rows.length + 1} has more than ${limits.maxColumns} fields`, where);
  };
  const endRow = (): void => {
    endField();
    if (!(row.length === 1 && row[0] === '')) {
      rows.push(row);
      if (rows.length > limits.maxRows) throw new TemplateError(`more than ${limits.maxRows} rows`, where);
    }
    row = [];
  };
  while (i < n) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"' && removeQuotes && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (seps.has(c)) endField();
    else if (c === '\r' || c === '\n') {
      endRow();
      if (c === '\r' && text[i + 1] === '\n') i++;
    } else field += c;
    if (field.length > limits.maxFieldLength)
      throw new TemplateError(
        `row ${rows.length + 1}: a field is longer than ${limits.maxFieldLength} characters`,
        where,
      );
    i++;
  }
  if (quoted) throw new TemplateError(`row ${rows.length + 1}: a quoted field is not closed`, where);
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

const INT32 = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** FastReport's type guess for a column's (non-empty) values. */
function guessType(values: readonly string[]): string {
  let ints = 0;
  let doubles = 0;
  let others = 0;
  for (const raw of values) {
    const v = raw.trim();
    if (v === '') continue;
    if (INT32.test(v) && Math.abs(Number(v)) <= 2147483647) ints++;
    else if (NUMBER.test(v)) doubles++;
    else others++;
  }
  if (others > 0 || ints + doubles === 0) return 'System.String';
  return doubles > 0 ? 'System.Double' : 'System.Int32';
}

/** A table from CSV text. Declared columns (the template's) give the column names and types;
 *  else the header or Field0…, typed by ConvertFieldTypes. */
export function csvTable(
  name: string,
  text: string,
  opts: CsvOptions,
  declared?: readonly ColumnInput[],
  limits: CsvLimits = DEFAULT_CSV_LIMITS,
): DataTable {
  const where = `CSV data of "${name}"`;
  const records = parseCsv(text, opts.separator, opts.removeQuotationMarks, limits, where);
  const first = records[0] ?? [];
  const names = first.map((f, i) => {
    const header = f.replace(/\t/g, '');
    return opts.fieldNamesInFirstString && header !== '' && first.indexOf(f) === i ? header : `Field${i}`;
  });
  const body = opts.fieldNamesInFirstString ? records.slice(1) : records;
  const types = names.map((_, i) =>
    opts.convertFieldTypes ? guessType(body.map((r) => r[i] ?? '')) : 'System.String',
  );
  const byName = new Map((declared ?? []).map((c) => [c.name, c]));
  const columns: ColumnInput[] = names.map((n, i) => ({
    name: n,
    dataType: byName.get(n)?.dataType ?? (types[i] as string),
  }));
  const rows = body.map((r) => {
    const o: Record<string, string | null> = {};
    names.forEach((n, i) => {
      const v = r[i] ?? '';
      const type = columns[i]?.dataType;
      o[n] = v.trim() === '' && type !== 'System.String' ? null : type === 'System.String' ? v : v.trim();
    });
    return o;
  });
  return tableFromObjects(name, rows, { columns, maxRows: limits.maxRows, where });
}
