// Binding a template's dictionary to the data supplied for a run.
//
// - TableDataSource with ReferenceName "NorthWind.Employees" → table "Employees" of the DataSet
//   supplied as `datasets.NorthWind`; otherwise `tables[<Name|Alias|ReferenceName|TableName>]`
//   (plain JS rows or a DataTable), or a table of that name in a supplied DataSet.
// - The declared columns are what the template sees (Alias, DataType); each reads the data column
//   of the same Name. Declared columns the data lacks read null (with a warning); with no declared
//   columns every data column is visible.
// - Relation → parent/child rows by key columns (see context.ts).
// - JsonDataSourceConnection → the "JSON" table and its nested tables (see json-source.ts), fed
//   by `json` (the SRS data) or else by the connection string's Json.

import { TemplateError, type ReportWarnings } from '../errors.js';
import { Relation, DataContext } from './context.js';
import { DataSourceCursor } from './cursor.js';
import { columnList, type ColumnInput, type DictionaryInput, type TableDataSourceInput } from './dictionary.js';
import { buildJsonSource, type JsonTextLimits } from './json-source.js';
import { nestedRowsCursors, tableFromObjects } from './plain-table.js';
import type { ColumnDef, DataSet, DataTable } from './table.js';

export interface BindData {
  /** DataSets by the name templates use in ReferenceName ("NorthWind"). */
  readonly datasets?: Readonly<Record<string, DataSet>>;
  /** Tables by data source Name (or Alias / ReferenceName / TableName): plain rows or DataTables. */
  readonly tables?: Readonly<Record<string, readonly unknown[] | DataTable>>;
  /** The root of the JSON data (a JS value, or JSON text) for the JSON connection(s). When
   *  undefined, each connection reads its connection string's Json. */
  readonly json?: unknown;
  /** JSON roots per JsonDataSourceConnection Name (wins over `json`). */
  readonly jsonByConnection?: Readonly<Record<string, unknown>>;
}

export interface BindOptions {
  readonly warnings?: ReportWarnings;
  /** A data source with no supplied data: 'error' (default) or an empty table with a warning. */
  readonly missingData?: 'error' | 'empty';
  readonly jsonLimits?: JsonTextLimits;
  /** Most rows of one plain JS table (default 1,000,000). */
  readonly maxRows?: number;
  /** Crypter password for `rij` connection strings (FastReport's default when omitted). */
  readonly password?: string;
}

const own = <T>(rec: Readonly<Record<string, T>> | undefined, key: string | undefined): T | undefined =>
  rec !== undefined && key !== undefined && Object.hasOwn(rec, key) ? rec[key] : undefined;

function isDataTable(v: unknown): v is DataTable {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Array.isArray((v as DataTable).columns) &&
    Array.isArray((v as DataTable).rows)
  );
}

/** Finds the supplied data for a TableDataSource. */
function findData(
  ds: TableDataSourceInput,
  data: BindData,
): { table?: DataTable; rows?: readonly unknown[]; from: string } | undefined {
  const sets = data.datasets ?? {};
  if (ds.referenceName) {
    // "NorthWind.Order Details": the longest registered dataset name that prefixes it.
    const names = Object.keys(sets).sort((a, b) => b.length - a.length);
    for (const setName of names) {
      if (!ds.referenceName.startsWith(`${setName}.`)) continue;
      const table = (sets[setName] as DataSet).tables.get(ds.referenceName.slice(setName.length + 1));
      if (table) return { table, from: ds.referenceName };
    }
  }
  for (const key of [ds.name, ds.alias, ds.referenceName, ds.tableName]) {
    const v = own(data.tables, key);
    if (v === undefined) continue;
    if (isDataTable(v)) return { table: v, from: key as string };
    return { rows: v, from: key as string };
  }
  for (const key of [ds.tableName, ds.name, ds.alias]) {
    if (key === undefined) continue;
    for (const set of Object.values(sets)) {
      const table = set.tables.get(key);
      if (table) return { table, from: `${set.name}.${key}` };
    }
  }
  return undefined;
}

/** The declared columns over a loaded table: Alias/DataType from the template, values from the
 *  data column with the same Name. */
function project(
  table: DataTable,
  declared: readonly ColumnInput[] | undefined,
  where: string,
  warnings?: ReportWarnings,
): { columns: ColumnDef[]; slots: number[] } {
  const inputs = (declared ?? []).filter((c) => c.enabled !== false);
  if (inputs.length === 0) return { columns: [...table.columns], slots: table.columns.map((_, i) => i) };
  const columns: ColumnDef[] = [];
  const slots: number[] = [];
  for (const c of inputs) {
    const alias = c.alias ?? c.name;
    if (c.calculated) {
      columns.push({
        name: c.name,
        alias,
        type: c.dataType ?? 'System.Object',
        ...(c.expression !== undefined ? { expression: c.expression } : {}),
      });
      slots.push(-1);
      continue;
    }
    let i = table.columns.findIndex((t) => t.name === c.name);
    if (i < 0) i = table.columns.findIndex((t) => t.name.toLowerCase() === c.name.toLowerCase());
    const src = table.columns[i];
    if (!src) {
      warnings?.add(`${where}: column "${c.name}" is not in the data; it reads null`);
      columns.push({ name: c.name, alias, type: c.dataType ?? 'System.String' });
      slots.push(-1);
      continue;
    }
    columns.push({
      name: c.name,
      alias,
      type: c.dataType ?? src.type,
      ...(src.extra !== undefined ? { extra: src.extra } : {}),
      ...(src.columns ? { columns: src.columns } : {}),
    });
    slots.push(i);
  }
  return { columns, slots };
}

/** Binds the dictionary's data sources, relations and JSON connections to the supplied data. */
export function bindDictionary(dict: DictionaryInput, data: BindData = {}, opts: BindOptions = {}): DataContext {
  const cursors: DataSourceCursor[] = [];
  for (const ds of dict.dataSources ?? []) {
    if (ds.enabled === false) continue;
    const where = `TableDataSource "${ds.name}"`;
    const found = findData(ds, data);
    let table: DataTable;
    if (!found) {
      const what = ds.referenceName ? `ReferenceName "${ds.referenceName}"` : `Name "${ds.name}"`;
      if (opts.missingData !== 'empty') throw new TemplateError(`no data supplied for ${what}`, where);
      opts.warnings?.add(`${where}: no data supplied for ${what}; it has no rows`);
      table = { name: ds.name, columns: [], rows: [] };
    } else if (found.table) {
      table = found.table;
    } else {
      table = tableFromObjects(ds.name, found.rows ?? [], {
        ...(ds.columns !== undefined ? { columns: ds.columns } : {}),
        ...(opts.maxRows !== undefined ? { maxRows: opts.maxRows } : {}),
        where: `${where} (data "${found.from}")`,
      });
      const cursor = new DataSourceCursor(
        { name: ds.name, alias: ds.alias ?? ds.name, columns: table.columns },
        table.rows,
      );
      cursors.push(cursor, ...nestedRowsCursors(cursor, ds.columns ?? [], opts.maxRows ?? 1_000_000));
      continue;
    }
    const { columns, slots } = project(table, ds.columns, where, opts.warnings);
    cursors.push(new DataSourceCursor({ name: ds.name, alias: ds.alias ?? ds.name, columns, slots }, table.rows));
  }

  for (const conn of dict.jsonConnections ?? []) {
    const root = own(data.jsonByConnection, conn.name) ?? data.json;
    const built = buildJsonSource(conn, root, {
      reservedNames: cursors.map((c) => c.name),
      ...(opts.jsonLimits !== undefined ? { limits: opts.jsonLimits } : {}),
      ...(opts.password !== undefined ? { password: opts.password } : {}),
    });
    cursors.push(...built.cursors);
  }

  const byName = new Map(cursors.map((c) => [c.name, c] as const));
  const relations: Relation[] = [];
  for (const r of dict.relations ?? []) {
    if (r.enabled === false) continue;
    const parent = byName.get(r.parentDataSource);
    const child = byName.get(r.childDataSource);
    if (!parent || !child) {
      // "null" is how FastReport writes a relation whose data source was deleted (Gauge.frx): it
      // relates nothing there either, so nothing is lost.
      if (r.parentDataSource === 'null' || r.childDataSource === 'null') continue;
      opts.warnings?.add(
        `Relation "${r.name}": data source "${!parent ? r.parentDataSource : r.childDataSource}" is not in ` +
          `the dictionary; relation ignored`,
      );
      continue;
    }
    relations.push(
      new Relation(r.name, parent, child, columnList(r.parentColumns), columnList(r.childColumns), r.alias),
    );
  }
  return new DataContext(cursors, relations);
}

/** The SRS case: one JSON connection over `root` (table "JSON"), no other data sources. */
export function bindJson(root: unknown, opts: BindOptions = {}): DataContext {
  return bindDictionary({ jsonConnections: [{ name: 'Connection' }] }, { json: root }, opts);
}
