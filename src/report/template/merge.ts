// A template with the run's data embedded: the `.frx` export of an SRS run. Every
// JsonDataSourceConnection gets a plain connection string `Json=<the data as raw JSON
// text>;JsonSchema=<schema>;Encoding=…` (a `rij`-encrypted one is replaced by a plain one), so the
// file opens in FastReport's designer with its data and renders again without a data file.
// The rest of the template is kept byte for byte: only that attribute is rewritten in place.

import {
  formatJsonConnectionString,
  makeNamer,
  parseJsonConnectionString,
  resolveJsonSchema,
  type JsonSchemaNode,
  type JsonTextLimits,
} from '../data/index.js';
import { loadFrx, readXmlText } from '../frx/index.js';
import type { ReportModel } from '../frx/model.js';
import { connectionXml, planTable } from './json-dictionary.js';
import { embeddedJson, schemaText, type EmbeddedJson } from './json-text.js';
import { applyEdits, lineIndent, scanElements, type ElementSpan, type TextEdit } from './xml-scan.js';
import { escapeXmlAttribute, writeXml } from './xml-text.js';

export interface MergeOptions {
  /** Crypter password of `rij` connection strings (FastReport's default when omitted). */
  password?: string;
  /** Limits for JSON text data (size, depth). */
  limits?: JsonTextLimits;
}

/** Name of the connection added to a template that has none (FastReport's default name). */
export const DEFAULT_CONNECTION_NAME = 'Connection';
const JSON_CONNECTION = 'JsonDataSourceConnection';

/**
 * Returns the template (bytes or text; UTF-8/UTF-16, optionally gzip) as .frx text with `json`
 * (the root of the run's data: a JS value or JSON text) embedded in its JSON connection(s).
 *
 * - Each JsonDataSourceConnection's ConnectionString becomes Json (raw JSON text, compact),
 *   JsonSchema (the template's stored schema extended with the data's, or the data's — what our
 *   engine binds), the template's Encoding (utf-8 by default) and SimpleStructure. URL headers
 *   are dropped (the data is in the file; headers may hold credentials), and a
 *   ConnectionStringExpression is removed (FastReport would evaluate it instead of the data).
 * - A template without a JSON connection gets one named "Connection" (unique in the dictionary)
 *   with a table "JSON" and its columns, first in the <Dictionary> (created when missing), so
 *   `[JSON.item.cmd.item.prop]` binds in FastReport as it does in our engine.
 * - The result is text to be written as UTF-8: a byte-order mark is kept, an XML declaration
 *   naming another encoding is changed to utf-8, and gzip input comes back uncompressed.
 * - JS values are embedded as JSON.stringify writes them (Dates as ISO text, bytes as base64
 *   text, NaN/Infinity as null), so render the merged file and the original with the same
 *   JSON data to compare them.
 */
export function mergeDataIntoTemplate(template: Buffer | string, json: unknown, opts: MergeOptions = {}): string {
  const { text } = readXmlText(template);
  const { report } = loadFrx(text); // refuses unusable templates with a TemplateError
  const data = embeddedJson(json, opts.limits);
  const root = scanElements(text);
  // Our loader reads the last <Dictionary> when there are several.
  const dictionary = root.children.filter((c) => c.name === 'Dictionary').at(-1);
  const elements = dictionary?.children.filter((c) => c.name === JSON_CONNECTION) ?? [];
  const models = report.dictionary.connections.filter((c) => c.type === JSON_CONNECTION);
  if (elements.length !== models.length) throw new Error('template scan and model disagree on the JSON connections');

  const edits: TextEdit[] = [];
  elements.forEach((el, i) => {
    const model = models[i];
    if (model)
      edits.push(...connectionEdits(text, el, connectionString(model.name, model.connectionString, data, opts)));
  });
  if (elements.length === 0) edits.push(addConnection(text, root, dictionary, report, data, opts));
  const prolog = prologEdit(text);
  if (prolog) edits.push(prolog);

  // Inserted lines follow the template's line ends (attribute values hold no raw line breaks).
  const nl = text.includes('\r\n') ? '\r\n' : '\n';
  const out = applyEdits(text, nl === '\n' ? edits : edits.map((e) => ({ ...e, text: e.text.replace(/\n/g, nl) })));
  return hadByteOrderMark(template) ? `\ufeff${out}` : out;
}

/** The plain connection string holding the data, keeping what the template's string says about
 *  the schema, encoding and structure. */
function connectionString(name: string, stored: string, data: EmbeddedJson, opts: MergeOptions): string {
  const where = `JsonDataSourceConnection "${name}"`;
  const fields = stored
    ? parseJsonConnectionString(stored, { where, ...(opts.password !== undefined ? { password: opts.password } : {}) })
    : undefined;
  const storedSchema = fields?.jsonSchema ?? '';
  const schema = resolveJsonSchema(storedSchema, data.root, opts.limits, where);
  return formatJsonConnectionString({
    json: data.text,
    jsonSchema: schemaText(asWritten(schema, storedSchema, data.root)),
    ...(fields?.encoding ? { encoding: fields.encoding } : {}),
    ...(fields?.simpleStructure ? { simpleStructure: true } : {}),
  });
}

/** FastReport's designer stores the schema of an object root as an object schema; both engines
 *  wrap it in an array schema when reading, so the wrapper is left out unless the template's own
 *  schema is an array schema. */
function asWritten(schema: JsonSchemaNode, storedSchema: string, root: unknown): JsonSchemaNode {
  if (Array.isArray(root) || !schema.items) return schema;
  return storedSchemaType(storedSchema) === 'array' ? schema : schema.items;
}

function storedSchemaType(storedSchema: string): unknown {
  if (storedSchema.trim() === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(storedSchema);
    return typeof parsed === 'object' && parsed !== null ? (parsed as { type?: unknown }).type : undefined;
  } catch {
    return undefined; // resolveJsonSchema has already reported unreadable schemas
  }
}

function attributeText(name: string, value: string): string {
  return `${name}="${escapeXmlAttribute(value)}"`;
}

/** Start of the whitespace before an attribute (so removing it leaves no gap). */
function spaceBefore(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && /\s/.test(text[i - 1] as string)) i--;
  return i;
}

function connectionEdits(text: string, el: ElementSpan, cs: string): TextEdit[] {
  const edits: TextEdit[] = [];
  const current = el.attrs.find((a) => a.name === 'ConnectionString');
  if (current) edits.push({ start: current.start, end: current.end, text: attributeText('ConnectionString', cs) });
  else {
    const after = el.attrs.find((a) => a.name === 'Name')?.end ?? el.start + 1 + el.name.length;
    edits.push({ start: after, end: after, text: ` ${attributeText('ConnectionString', cs)}` });
  }
  const expression = el.attrs.find((a) => a.name === 'ConnectionStringExpression');
  if (expression) edits.push({ start: spaceBefore(text, expression.start), end: expression.end, text: '' });
  return edits;
}

/** A new JSON connection (named as FastReport names a new one), its table named as our engine
 *  names the implicit SRS connection's table, so the template's expressions bind the same. */
function addConnection(
  text: string,
  root: ElementSpan,
  dictionary: ElementSpan | undefined,
  report: ReportModel,
  data: EmbeddedJson,
  opts: MergeOptions,
): TextEdit {
  const dataSourceNames = [
    ...report.dictionary.dataSources,
    ...report.dictionary.connections.flatMap((c) => c.dataSources),
  ].map((d) => d.name);
  const namer = makeNamer(dataSourceNames);
  const tableName = namer.unique('JSON');
  const connectionName = makeNamer(report.dictionary.connections.map((c) => c.name)).unique(DEFAULT_CONNECTION_NAME);
  const schema = resolveJsonSchema('', data.root, opts.limits, `JsonDataSourceConnection "${connectionName}"`);
  const table = planTable('JSON', tableName, tableName, schema, {
    uniqueName: (b) => namer.unique(b),
    sanitize: false,
  });
  const cs = formatJsonConnectionString({ json: data.text, jsonSchema: schemaText(asWritten(schema, '', data.root)) });
  const node = connectionXml(connectionName, cs, table);

  if (dictionary) {
    const indent = lineIndent(text, dictionary.start);
    const first = dictionary.children[0];
    const childIndent = first ? lineIndent(text, first.start) : `${indent}  `;
    if (!dictionary.selfClosing)
      return { start: dictionary.openEnd, end: dictionary.openEnd, text: `\n${writeXml(node, childIndent)}` };
    const openTag = text.slice(dictionary.start, dictionary.openEnd - 2).trimEnd();
    return {
      start: dictionary.start,
      end: dictionary.openEnd,
      text: `${openTag}>\n${writeXml(node, childIndent)}\n${indent}</Dictionary>`,
    };
  }
  // No dictionary: one goes where FastReport writes it, after ScriptText and Styles.
  const before = root.children.find((c) => c.name !== 'ScriptText' && c.name !== 'Styles');
  const rootIndent = lineIndent(text, root.start);
  const indent = before ? lineIndent(text, before.start) : `${rootIndent}  `;
  const dict = writeXml({ name: 'Dictionary', attrs: [], children: [node] }, indent);
  if (before) return { start: before.start, end: before.start, text: `${dict.slice(indent.length)}\n${indent}` };
  if (!root.selfClosing)
    return { start: root.closeStart, end: root.closeStart, text: `${dict.slice(rootIndent.length)}\n${rootIndent}` };
  const openTag = text.slice(root.start, root.openEnd - 2).trimEnd();
  return { start: root.start, end: root.openEnd, text: `${openTag}>\n${dict}\n${rootIndent}</${root.name}>` };
}

/** The XML declaration's encoding, when it names something other than UTF-8. */
function prologEdit(text: string): TextEdit | undefined {
  const m = /^<\?xml\s[^?]*?encoding\s*=\s*(["'])([^"']*)\1/.exec(text);
  if (!m || /^utf-?8$/i.test(m[2] as string)) return undefined;
  const valueStart = m.index + m[0].length - 1 - (m[2] as string).length;
  return { start: valueStart, end: valueStart + (m[2] as string).length, text: 'utf-8' };
}

function hadByteOrderMark(template: Buffer | string): boolean {
  if (typeof template === 'string') return template.charCodeAt(0) === 0xfeff;
  const b = template;
  return (
    (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) ||
    (b[0] === 0xff && b[1] === 0xfe) ||
    (b[0] === 0xfe && b[1] === 0xff)
  );
}
