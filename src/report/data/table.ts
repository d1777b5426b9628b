// The data model shared by every data source: typed columns and rows of plain JS values.
//
// Representation (the contract the engine, the expression evaluator and the formatters rely on):
//
// - A row is an array. `row[i]` is the value of `columns[i]`. After the columns a row may hold
//   "sidecar" slots (see `ColumnDef.extra`) that keep lexical details a JS value loses.
// - Values: `null` (null, DBNull, a missing element or property), `string`, `number` (every
//   numeric .NET type: Int16/Int32/Int64/Byte/Single/Double/Decimal), `boolean`, `Date`
//   (System.DateTime: the instant), `Uint8Array` (System.Byte[]), and for JSON data the parsed
//   JSON objects and arrays themselves (type `FastReport.JsonBase`).
// - System.Decimal: the value is a JS number; when the source wrote the number as text (DataSet
//   XML, decimal strings supplied by a caller) the exact original text ("12.50") is kept in the
//   column's sidecar slot and reported as `ColumnValue.decimalText`, so an exact decimal (scale
//   included) can be rebuilt. Int64 values beyond 2^53 lose precision (documented limitation).
// - System.DateTime: the value is a `Date` holding the instant. The UTC offset written in the
//   source ("2013-08-04T00:00:00+04:00" → +240) is kept in the sidecar slot and reported as
//   `ColumnValue.offsetMinutes` (`null` when the text had no offset). FastReport shows the wall
//   time as written; `wallClock()` turns an instant + offset back into a Date whose UTC fields are
//   that wall time. With no offset the UTC fields of the Date are the wall time.

/** A .NET type name as FastReport writes it in `DataType` ("System.Int32", "System.Byte[]"…). */
export type DotNetType = string;

/** The type FastReport gives JSON objects and arrays (`item`, `array`, nested tables). */
export const JSON_TYPE = 'FastReport.JsonBase';
export const OBJECT_TYPE = 'System.Object';

export type JsonObject = { readonly [key: string]: unknown };
export type JsonArray = readonly unknown[];

export type CellValue = null | string | number | boolean | Date | Uint8Array | JsonArray | JsonObject;

export type Row = readonly CellValue[];

export interface ColumnDef {
  /** FastReport's Name: the data column (for JSON: the property) it reads. */
  readonly name: string;
  /** FastReport's Alias: the name expressions use. Defaults to `name`. */
  readonly alias: string;
  readonly type: DotNetType;
  /** Child columns: the properties of a JSON object column, or the columns of a nested table. */
  readonly columns?: readonly ColumnDef[];
  /** Set when this column is a nested JSON table (FastReport's nested JsonTableDataSource):
   *  `name` is unique among the data sources, `alias` is the property name. */
  readonly nested?: { readonly name: string; readonly alias: string };
  /** Row index of this column's sidecar slot: the original text of a System.Decimal, or the
   *  UTC offset in minutes (or null) of a System.DateTime. */
  readonly extra?: number;
  /** A calculated column (`Calculated="true"`): the engine evaluates `expression`; the data
   *  layer reports null. */
  readonly expression?: string;
}

export interface DataTable {
  readonly name: string;
  readonly columns: readonly ColumnDef[];
  readonly rows: readonly Row[];
}

export interface DataSet {
  /** The DataSet's own name (the root element, e.g. "NWindDataSet"). Templates refer to a
   *  dataset by the name it was registered under ("NorthWind"): see `BindData.datasets`. */
  readonly name: string;
  /** Tables by decoded name ("Order Details"), in document order. */
  readonly tables: ReadonlyMap<string, DataTable>;
}

/** A value read from a column, with the column's type and the lexical details kept for it. */
export interface ColumnValue {
  readonly value: CellValue;
  readonly type: DotNetType;
  /** System.Decimal read from text: the exact text, e.g. "12.50". */
  readonly decimalText?: string;
  /** System.DateTime: the UTC offset written in the source, in minutes; null = none written. */
  readonly offsetMinutes?: number | null;
}

export function column(
  name: string,
  type: DotNetType,
  more: Omit<ColumnDef, 'name' | 'alias' | 'type'> & { alias?: string } = {},
): ColumnDef {
  return { ...more, name, alias: more.alias ?? name, type };
}

/** The wall time of an instant written with a UTC offset, as a Date whose UTC fields are that
 *  wall time (2013-08-04T00:00:00+04:00 → 2013-08-04T00:00:00Z). */
export function wallClock(instant: Date, offsetMinutes: number | null | undefined): Date {
  return new Date(instant.getTime() + (offsetMinutes ?? 0) * 60_000);
}

export const NUMERIC_TYPES: ReadonlySet<string> = new Set([
  'System.Byte',
  'System.SByte',
  'System.Int16',
  'System.UInt16',
  'System.Int32',
  'System.UInt32',
  'System.Int64',
  'System.UInt64',
  'System.Single',
  'System.Double',
  'System.Decimal',
]);

/** Case-insensitive lookup as FastReport does (exact match first). */
export function findByAlias<T extends { readonly alias: string; readonly name: string }>(
  items: readonly T[],
  alias: string,
): T | undefined {
  let ci: T | undefined;
  const lower = alias.toLowerCase();
  for (const item of items) {
    if (item.alias === alias) return item;
    if (ci === undefined && item.alias.toLowerCase() === lower) ci = item;
  }
  return ci;
}

/** Decodes XmlConvert-encoded names: `Order_x0020_Details` → `Order Details`. */
export function decodeXmlName(name: string): string {
  if (!name.includes('_x')) return name;
  return name.replace(/_x([0-9A-Fa-f]{4}|[0-9A-Fa-f]{8})_/g, (_m, hex: string) => {
    const code = Number.parseInt(hex, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : _m;
  });
}
