// The tables of a template's CsvDataConnections (FastReport's CsvDataConnection): a table with
// StoreData="true" reads the rows stored in its TableData (base64 of an ADO.NET DataSet's XML,
// the first table) and the connection is never opened; otherwise the table reads the CSV text
// the caller supplies under its name, or the CsvFile the template names, read when the template
// loaded through the caller's resource reader (ConnectionModel.fileData).

import type { ColumnInput, DataTable } from '../data/index.js';
import { csvOptions, csvTable, decodeCsvBytes, loadDataSetXml } from '../data/index.js';
import { TemplateError, type ReportWarnings } from '../errors.js';
import type { ConnectionModel, DataSourceModel } from '../frx/model.js';

/** Most bytes of one stored table's decoded XML. */
const MAX_STORED_TABLE_BYTES = 64 * 1024 * 1024;

const isStored = (ds: DataSourceModel): boolean => (ds.raw.StoreData ?? '').toLowerCase() === 'true';

/** The rows of a stored table (TableDataSource.TableData). */
export function storedTable(ds: DataSourceModel, warnings: ReportWarnings): DataTable | undefined {
  const text = (ds.raw.TableData ?? '').trim();
  const where = `TableDataSource "${ds.name}".TableData`;
  if (text === '') return undefined;
  if (!/^[A-Za-z0-9+/=\s]*$/.test(text)) throw new TemplateError('not base64', where);
  const xml = Buffer.from(text, 'base64');
  const set = loadDataSetXml(xml, { maxBytes: MAX_STORED_TABLE_BYTES, warnings, source: where });
  return set.tables.values().next().value;
}

/** Tables by data source name for the CSV connections: stored, from supplied CSV text, or from
 *  the connection's file. `supplied` is the caller's tables (a string value is CSV text). */
export function csvConnectionTables(
  conn: ConnectionModel,
  columns: (ds: DataSourceModel) => readonly ColumnInput[] | undefined,
  supplied: Readonly<Record<string, unknown>> | undefined,
  warnings: ReportWarnings,
): Record<string, DataTable> {
  const out: Record<string, DataTable> = {};
  for (const ds of conn.dataSources) {
    if (isStored(ds)) {
      const table = storedTable(ds, warnings);
      if (table) out[ds.name] = table;
      continue;
    }
    const key = [ds.name, ds.alias, ds.tableName].find((k) => k !== '' && supplied && typeof supplied[k] === 'string');
    const where = `${conn.name}.ConnectionString`;
    if (key !== undefined) {
      out[ds.name] = csvTable(
        ds.name,
        supplied?.[key] as string,
        csvOptions(conn.connectionString, where),
        columns(ds),
      );
    } else if (conn.fileData) {
      const opts = csvOptions(conn.connectionString, where);
      out[ds.name] = csvTable(ds.name, decodeCsvBytes(conn.fileData, opts.codepage), opts, columns(ds));
    }
  }
  return out;
}
