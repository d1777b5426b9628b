// What the data layer needs from a template's <Dictionary>, as plain objects (the .frx loader
// produces them; tests build them by hand). Attribute names follow FastReport's.

export interface ColumnInput {
  readonly name: string;
  readonly alias?: string;
  /** DataType, e.g. "System.Int32". */
  readonly dataType?: string;
  /** JSON columns: the property read (FastReport's PropName); defaults to `name`. */
  readonly propName?: string;
  readonly enabled?: boolean;
  readonly calculated?: boolean;
  readonly expression?: string;
  /** Child columns (JSON object properties, or a nested JSON table's columns). */
  readonly columns?: readonly ColumnInput[];
  /** True for a nested <JsonTableDataSource> inside a JSON table's columns. */
  readonly table?: boolean;
}

export interface TableDataSourceInput {
  readonly name: string;
  readonly alias?: string;
  /** "NorthWind.Employees": table "Employees" of the data registered as "NorthWind". */
  readonly referenceName?: string;
  readonly tableName?: string;
  readonly enabled?: boolean;
  readonly columns?: readonly ColumnInput[];
}

export interface RelationInput {
  readonly name: string;
  readonly alias?: string;
  readonly referenceName?: string;
  /** Name of the parent data source. */
  readonly parentDataSource: string;
  readonly childDataSource: string;
  /** Column names; a string holds one name per line, as FastReport writes several. */
  readonly parentColumns: readonly string[] | string;
  readonly childColumns: readonly string[] | string;
  readonly enabled?: boolean;
}

export interface JsonConnectionInput {
  readonly name: string;
  /** As stored: plain or `rij`-encrypted. */
  readonly connectionString?: string;
  /** The connection's <JsonTableDataSource> (normally one, Name "JSON"), with the columns the
   *  designer stored; nested tables appear as columns with `table: true`. */
  readonly tables?: readonly TableDataSourceInput[];
}

export interface DictionaryInput {
  readonly dataSources?: readonly TableDataSourceInput[];
  readonly relations?: readonly RelationInput[];
  readonly jsonConnections?: readonly JsonConnectionInput[];
}

export function columnList(v: readonly string[] | string): string[] {
  if (typeof v !== 'string') return [...v];
  return v
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
