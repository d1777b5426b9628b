// The report dictionary: connections, data sources (with their columns), relations,
// parameters and totals. Only declarations are read here; data access is the data layer's.

import type {
  ColumnModel,
  ConnectionModel,
  DataSourceModel,
  DictionaryModel,
  ParameterModel,
  RelationModel,
  TotalModel,
} from './model.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

const isDataSource = (name: string): boolean => /DataSource$/.test(name);
const isConnection = (name: string): boolean => /Connection$/.test(name);

function parseColumn(el: XmlElement, ctx: LoadContext): ColumnModel {
  const a = new Attrs(el, ctx);
  const name = a.str('Name');
  const col: ColumnModel = {
    name,
    alias: a.str('Alias', name),
    dataType: a.str('DataType'),
    bindableControl: a.str('BindableControl'),
    enabled: a.bool('Enabled', true),
    calculated: a.bool('Calculated', false),
    expression: a.str('Expression'),
    line: el.line,
    columns: [],
    dataSources: [],
    raw: {},
  };
  for (const child of el.children) {
    if (child.name === 'Column') col.columns.push(parseColumn(child, ctx));
    else if (isDataSource(child.name)) col.dataSources.push(parseDataSource(child, ctx));
    else ctx.warn(`Unknown element ${describe(child)} inside ${describe(el)} is ignored`);
  }
  col.raw = a.rest();
  return col;
}

function parseDataSource(el: XmlElement, ctx: LoadContext): DataSourceModel {
  const a = new Attrs(el, ctx);
  const name = a.str('Name');
  const ds: DataSourceModel = {
    type: el.name,
    name,
    alias: a.str('Alias', name),
    referenceName: a.str('ReferenceName'),
    dataType: a.str('DataType'),
    enabled: a.bool('Enabled', true),
    tableName: a.str('TableName'),
    selectCommand: a.str('SelectCommand'),
    line: el.line,
    columns: [],
    dataSources: [],
    raw: {},
  };
  for (const child of el.children) {
    if (child.name === 'Column') ds.columns.push(parseColumn(child, ctx));
    else if (isDataSource(child.name)) ds.dataSources.push(parseDataSource(child, ctx));
    else ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  }
  ds.raw = a.rest();
  return ds;
}

function parseConnection(el: XmlElement, ctx: LoadContext): ConnectionModel {
  const a = new Attrs(el, ctx);
  const conn: ConnectionModel = {
    type: el.name,
    name: a.str('Name'),
    connectionString: a.str('ConnectionString'),
    connectionStringExpression: a.str('ConnectionStringExpression'),
    line: el.line,
    dataSources: [],
    raw: {},
  };
  for (const child of el.children) {
    if (isDataSource(child.name)) conn.dataSources.push(parseDataSource(child, ctx));
    else ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  }
  conn.raw = a.rest();
  return conn;
}

function parseRelation(el: XmlElement, ctx: LoadContext): RelationModel {
  const a = new Attrs(el, ctx);
  const name = a.str('Name');
  const rel: RelationModel = {
    name,
    alias: a.str('Alias', name),
    referenceName: a.str('ReferenceName'),
    parentDataSource: a.str('ParentDataSource'),
    childDataSource: a.str('ChildDataSource'),
    parentColumns: a.stringList('ParentColumns'),
    childColumns: a.stringList('ChildColumns'),
    enabled: a.bool('Enabled', true),
    line: el.line,
    raw: {},
  };
  if (rel.parentColumns.length !== rel.childColumns.length) {
    ctx.warn(`${describe(el)}: ParentColumns and ChildColumns have different lengths`);
  }
  for (const child of el.children) ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  rel.raw = a.rest();
  return rel;
}

function parseParameter(el: XmlElement, ctx: LoadContext): ParameterModel {
  const a = new Attrs(el, ctx);
  const p: ParameterModel = {
    name: a.str('Name'),
    dataType: a.str('DataType', 'System.String'),
    expression: a.str('Expression'),
    value: a.str('Value'),
    description: a.str('Description'),
    line: el.line,
    parameters: [],
    raw: {},
  };
  for (const child of el.children) {
    if (child.name === 'Parameter') p.parameters.push(parseParameter(child, ctx));
    else ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  }
  p.raw = a.rest();
  return p;
}

function parseTotal(el: XmlElement, ctx: LoadContext): TotalModel {
  const a = new Attrs(el, ctx);
  const t: TotalModel = {
    name: a.str('Name'),
    totalType: a.enumOf('TotalType', ['Sum', 'Min', 'Max', 'Avg', 'Count', 'CountDistinct'] as const, 'Sum'),
    expression: a.str('Expression'),
    evaluator: a.str('Evaluator'),
    printOn: a.str('PrintOn', a.str('Resetter')),
    resetAfterPrint: a.bool('ResetAfterPrint', true),
    resetOnReprint: a.bool('ResetOnReprint', false),
    evaluateCondition: a.str('EvaluateCondition'),
    includeInvisibleRows: a.bool('IncludeInvisibleRows', false),
    line: el.line,
    raw: {},
  };
  if (t.totalType !== 'Count' && t.expression.trim() === '') {
    ctx.warn(`${describe(el)}: a ${t.totalType} total without an expression stays empty`);
  }
  for (const child of el.children) ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  t.raw = a.rest();
  return t;
}

export function emptyDictionary(): DictionaryModel {
  return { connections: [], dataSources: [], relations: [], parameters: [], totals: [], raw: {} };
}

export function parseDictionary(el: XmlElement, ctx: LoadContext): DictionaryModel {
  const a = new Attrs(el, ctx);
  const d = emptyDictionary();
  for (const child of el.children) {
    if (child.name === 'Relation') d.relations.push(parseRelation(child, ctx));
    else if (child.name === 'Parameter') d.parameters.push(parseParameter(child, ctx));
    else if (child.name === 'Total') d.totals.push(parseTotal(child, ctx));
    else if (isConnection(child.name)) d.connections.push(parseConnection(child, ctx));
    else if (isDataSource(child.name)) d.dataSources.push(parseDataSource(child, ctx));
    else ctx.warn(`Unknown element ${describe(child)} in the dictionary is ignored`);
  }
  d.raw = a.rest();
  return d;
}
