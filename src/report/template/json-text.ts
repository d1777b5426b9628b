// The run's data as the JSON text a template embeds in its JSON connection.

import { inferSchema, parseJsonText, schemaToStored, type JsonSchemaNode, type JsonTextLimits } from '../data/index.js';
import { TemplateError } from '../errors.js';

export interface EmbeddedJson {
  /** Compact JSON text that XML can carry (see `xmlSafeJson`). */
  text: string;
  /** The value that text parses to (plain objects, arrays and JSON scalars). */
  root: unknown;
}

/** JSON text with the characters XML 1.0 cannot hold (U+FFFE, U+FFFF; JSON.stringify already
 *  escapes controls and lone surrogates) written as \u escapes: the same JSON value. */
export function xmlSafeJson(text: string): string {
  return text.replace(/[\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** A JS value as plain JSON data, the way JSON.stringify would write it: Date → ISO text,
 *  Uint8Array → base64 text, bigint → number, NaN/±Infinity → null, undefined properties left
 *  out (undefined array elements become null). Call after inferSchema has checked kinds, depth
 *  and cycles. */
function toPlainJson(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? v : null;
    case 'bigint':
      return Number(v);
    default:
      break;
  }
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  if (Array.isArray(v)) return (v as unknown[]).map(toPlainJson);
  // A prototype-less object keeps a "__proto__" key as an ordinary property.
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) out[k] = toPlainJson(x);
  return out;
}

/** The data to embed: JSON text (parsed and rewritten compactly) or a JS value (an object or an
 *  array at the root, as FastReport's JSON connection requires). Bad data → TemplateError. */
export function embeddedJson(data: unknown, limits: JsonTextLimits = {}, where = 'JSON data'): EmbeddedJson {
  if (data === undefined) throw new TemplateError('there is no JSON data to embed', where);
  const parsed = typeof data === 'string' ? parseJsonText(data, limits, where) : data;
  if (typeof parsed !== 'object' || parsed === null)
    throw new TemplateError('the JSON root must be an object or an array', where);
  inferSchema(parsed, limits, where); // kinds, depth, cycles and size, with clear errors
  const root = toPlainJson(parsed);
  return { text: xmlSafeJson(JSON.stringify(root)), root };
}

/** A schema as the JSON text FastReport stores in JsonSchema. */
export function schemaText(schema: JsonSchemaNode): string {
  return xmlSafeJson(JSON.stringify(schemaToStored(schema)));
}
