// The template's <Dictionary> (frx model) as the data layer's plain input objects, and the
// binding of the data supplied for one run.

import type {
  BindData,
  ColumnInput,
  DataContext,
  DictionaryInput,
  JsonConnectionInput,
  TableDataSourceInput,
} from '../data/index.js';
import { bindDictionary, parseJsonConnectionString } from '../data/index.js';
import type { ReportWarnings } from '../errors.js';
import type { ColumnModel, ConnectionModel, DataSourceModel, DictionaryModel } from '../frx/model.js';
import { csvConnectionTables } from './csv-tables.js';

function column(c: ColumnModel): ColumnInput {
  const children: ColumnInput[] = [...c.columns.map(column), ...c.dataSources.map(nestedTable)];
  return {
    name: c.name,
    ...(c.alias !== c.name ? { alias: c.alias } : {}),
    ...(c.dataType ? { dataType: c.dataType } : {}),
    ...(c.raw.PropName !== undefined ? { propName: c.raw.PropName } : {}),
    enabled: c.enabled,
    ...(c.calculated ? { calculated: true, expression: c.expression } : {}),
    ...(children.length > 0 ? { columns: children } : {}),
  };
}

/** A JsonTableDataSource nested in a column: a column holding a table. Its Alias is the JSON
 *  property it reads unless PropName says otherwise. */
function nestedTable(ds: DataSourceModel): ColumnInput {
  const children: ColumnInput[] = [...ds.columns.map(column), ...ds.dataSources.map(nestedTable)];
  return {
    name: ds.name,
    ...(ds.alias !== ds.name ? { alias: ds.alias } : {}),
    propName: ds.raw.PropName ?? ds.alias,
    enabled: ds.enabled,
    table: true,
    ...(children.length > 0 ? { columns: children } : {}),
  };
}

function table(ds: DataSourceModel): TableDataSourceInput {
  return {
    name: ds.name,
    ...(ds.alias !== ds.name ? { alias: ds.alias } : {}),
    ...(ds.referenceName ? { referenceName: ds.referenceName } : {}),
    ...(ds.tableName ? { tableName: ds.tableName } : {}),
    enabled: ds.enabled,
    ...(ds.columns.length > 0 ? { columns: [...ds.columns.map(column), ...ds.dataSources.map(nestedTable)] } : {}),
  };
}

/** The data layer's view of a template dictionary. Connections other than JSON contribute their
 *  tables as plain data sources (their data must be supplied by name). */
export function dictionaryInput(dict: DictionaryModel, warnings?: ReportWarnings): DictionaryInput {
  const dataSources: TableDataSourceInput[] = dict.dataSources.map(table);
  const jsonConnections: JsonConnectionInput[] = [];
  for (const conn of dict.connections) {
    if (conn.type === 'JsonDataSourceConnection') {
      jsonConnections.push({
        name: conn.name,
        ...(conn.connectionString ? { connectionString: conn.connectionString } : {}),
        tables: conn.dataSources.map(table),
      });
      if (conn.connectionStringExpression)
        warnings?.add(
          `${conn.name}: ConnectionStringExpression is not evaluated; the connection string (or the supplied ` +
            `data) is used`,
        );
    } else if (conn.type === 'CsvDataConnection') {
      // csv-tables.ts gives its tables their data (stored, supplied CSV text, or its file).
      dataSources.push(...conn.dataSources.map(table));
    } else {
      warnings?.add(`${conn.name}: ${conn.type} is not supported; its tables read the supplied data by name`);
      dataSources.push(...conn.dataSources.map(table));
    }
  }
  return {
    dataSources,
    relations: dict.relations.map((r) => ({
      name: r.name,
      ...(r.alias !== r.name ? { alias: r.alias } : {}),
      parentDataSource: r.parentDataSource,
      childDataSource: r.childDataSource,
      parentColumns: r.parentColumns,
      childColumns: r.childColumns,
      enabled: r.enabled,
    })),
    jsonConnections,
  };
}

/** Binds a template dictionary to the data of one run. A data source without data has no rows
 *  (with a warning), so any template renders. JSON data for a template without a JSON connection
 *  gets one (table "JSON"), as the SRS exposes its data. */
export function bindReportData(
  dict: DictionaryModel,
  data: BindData,
  warnings: ReportWarnings,
  opts: { maxRows?: number } = {},
): DataContext {
  const input = dictionaryInput(dict, warnings);
  data = withCsvTables(dict, data, warnings);
  if (data.json !== undefined && (input.jsonConnections ?? []).length === 0) {
    (input.jsonConnections as JsonConnectionInput[]).push({ name: 'Connection' });
  }
  return bindDictionary(input, data, {
    warnings,
    missingData: 'empty',
    ...(opts.maxRows !== undefined ? { maxRows: opts.maxRows } : {}),
  });
}

/** The data with the CSV connections' tables added (a supplied CSV text replaced by its table). */
function withCsvTables(dict: DictionaryModel, data: BindData, warnings: ReportWarnings): BindData {
  const csv = dict.connections.filter((c) => c.type === 'CsvDataConnection');
  if (csv.length === 0) return data;
  const supplied = (data.tables ?? {}) as Readonly<Record<string, unknown>>;
  const tables: Record<string, NonNullable<BindData['tables']>[string]> = Object.create(null);
  for (const [k, v] of Object.entries(supplied)) if (typeof v !== 'string') tables[k] = v as never;
  for (const conn of csv) {
    const found = csvConnectionTables(conn, (ds) => table(ds).columns, supplied, warnings);
    for (const [k, v] of Object.entries(found)) tables[k] = v;
  }
  return { ...data, tables };
}

/** Whether a JSON connection's string holds JSON text of its own (an encrypted one is taken to:
 *  it cannot be read without the password, and the render says so itself). */
function hasOwnJson(conn: ConnectionModel): boolean {
  if (conn.connectionString.startsWith('rij')) return true;
  if (conn.connectionString.trim() === '') return false;
  try {
    return parseJsonConnectionString(conn.connectionString).json.trim() !== '';
  } catch {
    return true; // malformed: the render reports it
  }
}

/**
 * The enabled data sources that get rows only from supplied data: the dictionary's own tables
 * (ReferenceName), the tables of connections read by name (SQL and the like), and the tables of
 * JSON connections without JSON text of their own. A CSV connection has its file or stored rows.
 */
export function dataSourcesAwaitingData(dict: DictionaryModel): string[] {
  const names = dict.dataSources.filter((ds) => ds.enabled).map((ds) => ds.name);
  for (const conn of dict.connections) {
    if (conn.type === 'CsvDataConnection') continue;
    if (conn.type === 'JsonDataSourceConnection' && hasOwnJson(conn)) continue;
    const tables = conn.dataSources.filter((ds) => ds.enabled).map((ds) => ds.name);
    names.push(...(tables.length > 0 ? tables : [conn.name]));
  }
  return names;
}
