// FastReport's JSON connection as data sources: one table (Name "JSON" by default) over the
// root array (a root that is not an array is wrapped in one). In the default (non-simple) mode a
// table has the columns `index` (System.Int32), `item` (the element; an object's properties are
// its child columns) and `array` (the whole array). An array inside an element is a nested table
// (Name unique among the data sources, Alias = the property name) whose rows are read from the
// parent table's current row, so `[JSON.item.orders.item.total]` reads the current row of the
// nested table "orders". With SimpleStructure=true, a table of objects has the objects'
// properties as its columns instead.

import { TemplateError } from '../errors.js';
import { parseJsonConnectionString, isJsonText } from './connection-string.js';
import { DataSourceCursor, NestedCursor } from './cursor.js';
import type { ColumnInput, JsonConnectionInput, TableDataSourceInput } from './dictionary.js';
import {
  extendSchema,
  inferSchema,
  isPlainObject,
  schemaDataType,
  schemaFromStored,
  type JsonLimits,
  type JsonSchemaNode,
} from './json-schema.js';
import { jsonNestingExceeds } from '../../lib/json-nesting.js';
import { JSON_TYPE, type CellValue, type ColumnDef, type Row } from './table.js';

export const JSON_TABLE_NAME = 'JSON';

export interface JsonTextLimits extends JsonLimits {
  /** Largest JSON text accepted, in UTF-16 code units (default 64 Mi). */
  maxBytes?: number;
}

/** Parses JSON text with a size limit and a nesting pre-check (so hostile input fails fast and
 *  clearly). FastReport accepts only an object or an array at the root. */
export function parseJsonText(text: string, limits: JsonTextLimits = {}, where = 'JSON'): unknown {
  const maxBytes = limits.maxBytes ?? 64 * 1024 * 1024;
  const maxDepth = limits.maxDepth ?? 128;
  if (text.length > maxBytes)
    throw new TemplateError(`JSON text is too large (${text.length} characters; the limit is ${maxBytes})`, where);
  if (jsonNestingExceeds(text, maxDepth))
    throw new TemplateError(`JSON text is nested too deeply (more than ${maxDepth} levels)`, where);
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw new TemplateError(`malformed JSON: ${(e as Error).message}`, where);
  }
  if (typeof value !== 'object' || value === null)
    throw new TemplateError('the JSON root must be an object or an array', where);
  return value;
}

// Rows of a table over one array; cached per array so a row keeps its identity.
const nonSimpleRows = new WeakMap<readonly unknown[], Row[]>();
const simpleRows = new WeakMap<readonly ColumnDef[], WeakMap<readonly unknown[], Row[]>>();

function materialize(arr: unknown, columns: readonly ColumnDef[], simple: boolean): Row[] {
  if (!Array.isArray(arr)) return [];
  const a = arr as readonly unknown[];
  if (!simple) {
    let rows = nonSimpleRows.get(a);
    if (!rows) {
      rows = a.map((el, i) => [i, (el ?? null) as CellValue, a as CellValue]);
      nonSimpleRows.set(a, rows);
    }
    return rows;
  }
  let byArray = simpleRows.get(columns);
  if (!byArray) simpleRows.set(columns, (byArray = new WeakMap()));
  let rows = byArray.get(a);
  if (!rows) {
    rows = a.map((el) =>
      columns.map((c) => (isPlainObject(el) && Object.hasOwn(el, c.name) ? ((el[c.name] ?? null) as CellValue) : null)),
    );
    byArray.set(a, rows);
  }
  return rows;
}

interface Namer {
  unique(base: string): string;
}

/** FastReport's unique names: base, base1, base2, … (case-insensitive). */
export function makeNamer(taken: Iterable<string>): Namer & { taken: Set<string> } {
  const set = new Set([...taken].map((n) => n.toLowerCase()));
  return {
    taken: set,
    unique(base: string): string {
      let name = base;
      for (let i = 1; set.has(name.toLowerCase()); i++) name = `${base}${i}`;
      set.add(name.toLowerCase());
      return name;
    },
  };
}

interface TableSpec {
  name: string;
  alias: string;
  columns: ColumnDef[];
  simple: boolean;
}

const prop = (c: ColumnInput): string => c.propName ?? c.name;
const enabledInputs = (cols: readonly ColumnInput[] | undefined): ColumnInput[] =>
  (cols ?? []).filter((c) => c.enabled !== false);
function takeDeclared(declared: ColumnInput[], key: string): ColumnInput | undefined {
  const i = declared.findIndex((d) => prop(d) === key);
  return i < 0 ? undefined : declared.splice(i, 1)[0];
}

/** Builds column trees from a schema (as FastReport's InitSchema does), overlaid with the
 *  columns a template declares: declared names, aliases and types win, declared columns the
 *  data lacks are kept (they read null), calculated columns carry their expression. */
class ColumnBuilder {
  readonly nestedTables: { column: ColumnDef; spec: TableSpec }[] = [];
  constructor(
    private readonly namer: Namer,
    private readonly simpleStructure: boolean,
  ) {}

  table(
    schema: JsonSchemaNode,
    declared: readonly ColumnInput[] | undefined,
  ): { columns: ColumnDef[]; simple: boolean } {
    const items = schema.items ?? { type: undefined };
    const rest = enabledInputs(declared);
    if (this.simpleStructure && items.type === 'object') {
      return { columns: this.properties(items, rest), simple: true };
    }
    const out: ColumnDef[] = [];
    out.push(this.leaf('index', 'System.Int32', takeDeclared(rest, 'index')));
    const itemDecl = takeDeclared(rest, 'item');
    if (items.type === 'array' || itemDecl?.table) out.push(this.nested('item', items, itemDecl));
    else if (items.type === 'object' || itemDecl?.columns?.length) {
      out.push(this.object('item', items, itemDecl));
    } else out.push(this.leaf('item', schemaDataType(items), itemDecl));
    out.push(this.leaf('array', JSON_TYPE, takeDeclared(rest, 'array')));
    for (const d of rest) out.push(this.declaredOnly(d));
    return { columns: out, simple: false };
  }

  properties(schema: JsonSchemaNode, declared: ColumnInput[]): ColumnDef[] {
    const out: ColumnDef[] = [];
    for (const [key, sub] of schema.properties ?? []) {
      const d = takeDeclared(declared, key);
      if (sub.type === 'array' || d?.table) out.push(this.nested(key, sub, d));
      else if (sub.type === 'object' || d?.columns?.length) out.push(this.object(key, sub, d));
      else out.push(this.leaf(key, schemaDataType(sub), d));
    }
    for (const d of declared) out.push(this.declaredOnly(d));
    return out;
  }

  private leaf(key: string, type: string, d: ColumnInput | undefined): ColumnDef {
    const col: ColumnDef = { name: key, alias: d?.alias ?? d?.name ?? key, type: d?.dataType ?? type };
    return d?.calculated && d.expression !== undefined ? { ...col, expression: d.expression } : col;
  }

  private object(key: string, schema: JsonSchemaNode, d: ColumnInput | undefined): ColumnDef {
    const children = this.properties(
      schema.type === 'object' ? schema : { type: undefined },
      enabledInputs(d?.columns),
    );
    return { name: key, alias: d?.alias ?? d?.name ?? key, type: d?.dataType ?? JSON_TYPE, columns: children };
  }

  private nested(key: string, schema: JsonSchemaNode, d: ColumnInput | undefined): ColumnDef {
    const name = d ? d.name : this.namer.unique(key);
    // A declared table without an Alias has its Name as alias (FastReport's DataComponentBase);
    // the JSON property it reads is its PropName.
    const alias = d?.alias ?? d?.name ?? key;
    const t = this.table(schema.type === 'array' ? schema : { type: 'array', items: { type: undefined } }, d?.columns);
    const column: ColumnDef = { name: key, alias, type: JSON_TYPE, columns: t.columns, nested: { name, alias } };
    this.nestedTables.push({ column, spec: { name, alias, columns: t.columns, simple: t.simple } });
    return column;
  }

  private declaredOnly(d: ColumnInput): ColumnDef {
    if (d.table) return this.nested(prop(d), { type: 'array', items: { type: undefined } }, d);
    if (d.columns?.length) return this.object(prop(d), { type: undefined }, d);
    return this.leaf(prop(d), d.dataType ?? 'System.Object', d);
  }
}

export interface JsonSourceOptions {
  limits?: JsonTextLimits;
  /** Data source names already used (nested table names avoid them). */
  reservedNames?: Iterable<string>;
  /** Crypter password for `rij` connection strings. */
  password?: string;
}

export interface JsonSource {
  /** The connection's table ("JSON") first, then its nested tables. */
  readonly cursors: readonly DataSourceCursor[];
  readonly root: DataSourceCursor;
  readonly schema: JsonSchemaNode;
}

/** The schema a JSON connection's tables are built from: the stored JsonSchema (when there is
 *  one) extended with what the data holds, else the schema inferred from the data; always an
 *  array schema. A schema or root that is not an array is taken as the items of one (FastReport
 *  wraps both), so an object schema stored for an array root still extends its items. Writing the
 *  result back as the JsonSchema of a connection holding the same data gives the same schema. */
export function resolveJsonSchema(
  storedSchema: string,
  root: unknown,
  limits: JsonTextLimits | undefined,
  where: string,
): JsonSchemaNode {
  const asArray = (s: JsonSchemaNode): JsonSchemaNode => (s.type === 'array' ? s : { type: 'array', items: s });
  const inferred = root === undefined ? undefined : asArray(inferSchema(root, limits, where));
  if (storedSchema.trim() === '') return inferred ?? { type: 'array', items: { type: undefined } };
  const schema = asArray(schemaFromStored(parseJsonText(storedSchema, limits, `${where} JsonSchema`)));
  if (inferred) extendSchema(schema, inferred);
  return schema;
}

/** Builds the data sources of one JSON connection. `data` is the root (a JS value, or JSON text);
 *  when undefined the connection string's Json is used. */
export function buildJsonSource(conn: JsonConnectionInput, data: unknown, opts: JsonSourceOptions = {}): JsonSource {
  const where = `JsonDataSourceConnection "${conn.name}"`;
  const fields = conn.connectionString
    ? parseJsonConnectionString(conn.connectionString, {
        where,
        ...(opts.password !== undefined ? { password: opts.password } : {}),
      })
    : undefined;
  let root: unknown = data;
  if (typeof root === 'string') root = root.trim() === '' ? undefined : parseJsonText(root, opts.limits, where);
  else if (root !== undefined && root !== null && typeof root !== 'object')
    throw new TemplateError('the JSON root must be an object or an array', where);
  if (root === undefined && fields) {
    if (!isJsonText(fields.json)) throw new TemplateError('JSON from a URL is not supported; supply the data', where);
    if (fields.json.trim() !== '') root = parseJsonText(fields.json, opts.limits, where);
  }
  const schema = resolveJsonSchema(fields?.jsonSchema ?? '', root, opts.limits, where);
  const rows: readonly unknown[] = root === undefined || root === null ? [] : Array.isArray(root) ? root : [root];

  const declared: TableDataSourceInput | undefined = conn.tables?.find((t) => t.enabled !== false);
  const namer = makeNamer(opts.reservedNames ?? []);
  const tableName = declared ? namer.unique(declared.name) : namer.unique(JSON_TABLE_NAME);
  // Declared nested table names are taken before new ones are made up.
  const reserveDeclared = (cols: readonly ColumnInput[] | undefined): void => {
    for (const c of cols ?? []) {
      if (c.table) namer.unique(c.name);
      reserveDeclared(c.columns);
    }
  };
  reserveDeclared(declared?.columns);
  const builder = new ColumnBuilder(namer, fields?.simpleStructure ?? false);
  const t = builder.table(schema, declared?.columns);
  const rootCursor = new DataSourceCursor(
    { name: tableName, alias: declared?.alias ?? tableName, columns: t.columns },
    materialize(rows, t.columns, t.simple),
  );

  // Wire nested tables: each is owned by a column list of some table; find that table's cursor.
  const cursorOf = new Map<readonly ColumnDef[], DataSourceCursor>([[t.columns, rootCursor]]);
  const cursors: DataSourceCursor[] = [rootCursor];
  const pending = [...builder.nestedTables];
  for (let guard = 0; pending.length > 0 && guard < 100_000; guard++) {
    const n = pending.shift();
    if (!n) break;
    const located = locate(cursorOf, n.column);
    if (!located) {
      pending.push(n);
      continue;
    }
    const { columns, simple } = n.spec;
    const cursor = new NestedCursor(n.spec, located.cursor, located.path, (arr) => materialize(arr, columns, simple));
    located.cursor.linkNested(n.column, cursor);
    cursorOf.set(n.spec.columns, cursor);
    cursors.push(cursor);
  }
  return { cursors, root: rootCursor, schema };
}

/** Finds the table whose columns contain `column` (at any object depth) and the alias path to it. */
function locate(
  cursorOf: Map<readonly ColumnDef[], DataSourceCursor>,
  column: ColumnDef,
): { cursor: DataSourceCursor; path: string[] } | undefined {
  for (const [cols, cursor] of cursorOf) {
    const path = pathTo(cols, column);
    if (path) return { cursor, path };
  }
  return undefined;
}

function pathTo(cols: readonly ColumnDef[], target: ColumnDef): string[] | undefined {
  for (const c of cols) {
    if (c === target) return [c.alias];
    if (c.columns && !c.nested) {
      const sub = pathTo(c.columns, target);
      if (sub) return [c.alias, ...sub];
    }
  }
  return undefined;
}
