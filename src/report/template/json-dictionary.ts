// A JSON connection's tables and columns planned from a schema, and written as FastReport stores
// them in a <Dictionary>: a JsonTableDataSource (index, item, array), object properties as child
// Columns of `item`, nested arrays as nested JsonTableDataSources (Name unique in the report,
// Alias = the name used in expressions, PropName = the JSON property read).

import { JSON_TYPE, schemaDataType, type JsonSchemaNode } from '../data/index.js';
import type { XmlNode } from './xml-text.js';

export interface LeafPlan {
  kind: 'leaf';
  /** The JSON property read. */
  key: string;
  /** The name expressions use (`[JSON.item.<alias>]`). */
  alias: string;
  dataType: string;
}

export interface ObjectPlan {
  kind: 'object';
  key: string;
  alias: string;
  props: NodePlan[];
}

export interface TablePlan {
  kind: 'table';
  key: string;
  alias: string;
  /** The data source Name (what a DataBand's DataSource names). */
  name: string;
  /** The `item` column: the elements of the array. */
  item: NodePlan;
}

export type NodePlan = LeafPlan | ObjectPlan | TablePlan;

export interface PlanOptions {
  /** Gives data source names unique in the report (FastReport's base, base1, …). */
  uniqueName(base: string): string;
  /** Aliases made valid identifiers (starter templates) or the JSON keys themselves, as
   *  FastReport's designer and our engine name inferred columns (merged templates). */
  sanitize: boolean;
}

const IDENTIFIER = /^[\p{L}_][\p{L}\p{N}_]*$/u;

/** A JSON property name as an identifier usable in `[JSON.item.…]` paths: characters other than
 *  letters, digits and `_` become `_`, a leading digit gets a `_` before it. */
export function identifierFor(key: string): string {
  if (IDENTIFIER.test(key)) return key;
  let s = key.replace(/[^\p{L}\p{N}_]/gu, '_');
  if (s === '') s = 'field';
  if (!/^[\p{L}_]/u.test(s)) s = `_${s}`;
  return s;
}

/** Plans the table over an array schema (a non-array schema is taken as the array's items). */
export function planTable(
  key: string,
  alias: string,
  name: string,
  schema: JsonSchemaNode,
  opts: PlanOptions,
): TablePlan {
  const items = schema.type === 'array' ? (schema.items ?? { type: undefined }) : schema;
  return { kind: 'table', key, alias, name, item: planNode('item', 'item', items, opts) };
}

function planNode(key: string, alias: string, schema: JsonSchemaNode, opts: PlanOptions): NodePlan {
  if (schema.type === 'array') return planTable(key, alias, opts.uniqueName(alias), schema, opts);
  if (schema.type === 'object') return { kind: 'object', key, alias, props: planProps(schema.properties, opts) };
  return { kind: 'leaf', key, alias, dataType: schemaDataType(schema) };
}

function planProps(props: ReadonlyMap<string, JsonSchemaNode> | undefined, opts: PlanOptions): NodePlan[] {
  const entries = [...(props ?? [])];
  if (!opts.sanitize) return entries.map(([k, s]) => planNode(k, k, s, opts));
  // Keys that already are identifiers keep their names; made-up ones avoid them and each other.
  const taken = new Set(
    entries
      .map(([k]) => k)
      .filter((k) => IDENTIFIER.test(k))
      .map((k) => k.toLowerCase()),
  );
  return entries.map(([k, s]) => {
    let alias = k;
    if (!IDENTIFIER.test(k)) {
      const base = identifierFor(k);
      alias = base;
      for (let i = 1; taken.has(alias.toLowerCase()); i++) alias = `${base}${i}`;
      taken.add(alias.toLowerCase());
    }
    return planNode(k, alias, s, opts);
  });
}

const BOOLEAN_TYPE = 'System.Boolean';

function columnXml(node: NodePlan): XmlNode {
  const propName = node.key !== node.alias ? node.key : undefined;
  if (node.kind === 'table') return tableXml(node, false);
  if (node.kind === 'object') {
    return {
      name: 'Column',
      attrs: [
        ['Name', node.alias],
        ['DataType', JSON_TYPE],
        ['PropName', propName],
      ],
      children: node.props.map(columnXml),
    };
  }
  return {
    name: 'Column',
    attrs: [
      ['Name', node.alias],
      ['DataType', node.dataType],
      ['PropName', propName],
      ['BindableControl', node.dataType === BOOLEAN_TYPE ? 'CheckBox' : undefined],
    ],
  };
}

/** A JsonTableDataSource element: the connection's table (`root`) or a nested one. */
export function tableXml(t: TablePlan, root: boolean): XmlNode {
  return {
    name: 'JsonTableDataSource',
    attrs: [
      ['Name', t.name],
      ['Alias', !root && t.alias !== t.name ? t.alias : undefined],
      ['DataType', JSON_TYPE],
      ['Enabled', true],
      ['TableName', root ? t.key : undefined],
      ['PropName', !root && t.key !== t.name ? t.key : undefined],
    ],
    children: [
      {
        name: 'Column',
        attrs: [
          ['Name', 'index'],
          ['DataType', 'System.Int32'],
        ],
      },
      columnXml(t.item),
      {
        name: 'Column',
        attrs: [
          ['Name', 'array'],
          ['DataType', JSON_TYPE],
        ],
      },
    ],
  };
}

/** A JsonDataSourceConnection element holding its table. */
export function connectionXml(name: string, connectionString: string, table: TablePlan): XmlNode {
  return {
    name: 'JsonDataSourceConnection',
    attrs: [
      ['Name', name],
      ['ConnectionString', connectionString],
    ],
    children: [tableXml(table, true)],
  };
}
