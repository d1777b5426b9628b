// Public API of the data layer. See table.ts for the value representation.

export {
  JSON_TYPE,
  OBJECT_TYPE,
  NUMERIC_TYPES,
  column,
  decodeXmlName,
  findByAlias,
  wallClock,
  type CellValue,
  type ColumnDef,
  type ColumnValue,
  type DataSet,
  type DataTable,
  type DotNetType,
  type JsonArray,
  type JsonObject,
  type Row,
} from './table.js';
export { fromJs, fromText, parseDateTime, xsdToDotNet, type Converted } from './values.js';
export { loadDataSetXml, type DataSetXmlOptions } from './dataset-xml.js';
export { tableFromObjects, type PlainTableOptions } from './plain-table.js';
export {
  formatConnectionString,
  formatJsonConnectionString,
  isJsonText,
  parseConnectionString,
  parseJsonConnectionString,
  type JsonConnectionFields,
} from './connection-string.js';
export {
  FASTREPORT_DEFAULT_PASSWORD,
  decryptConnectionString,
  encryptConnectionString,
  isEncrypted,
} from './crypter.js';
export {
  inferSchema,
  isPlainObject,
  schemaDataType,
  schemaFromStored,
  schemaToStored,
  type JsonLimits,
  type JsonSchemaNode,
} from './json-schema.js';
export {
  JSON_TABLE_NAME,
  buildJsonSource,
  makeNamer,
  parseJsonText,
  resolveJsonSchema,
  type JsonSource,
  type JsonSourceOptions,
  type JsonTextLimits,
} from './json-source.js';
export { DataSourceCursor, NestedCursor, type SourceDef } from './cursor.js';
export { DataContext, Relation, type ResolvedReference } from './context.js';
export { bindDictionary, bindJson, type BindData, type BindOptions } from './datasources.js';
export type {
  ColumnInput,
  DictionaryInput,
  JsonConnectionInput,
  RelationInput,
  TableDataSourceInput,
} from './dictionary.js';
export {
  csvOptions,
  csvTable,
  decodeCsvBytes,
  parseCsv,
  DEFAULT_CSV_LIMITS,
  type CsvLimits,
  type CsvOptions,
} from './csv.js';
