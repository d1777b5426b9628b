// Connection strings as .NET's DbConnectionStringBuilder reads and writes them
// (`Key=value;Key2="quoted; value";…`), and the fields of FastReport's JSON connection.

import { TemplateError } from '../errors.js';
import { decryptConnectionString } from './crypter.js';

/** Parses `key=value` pairs. Keys are case-insensitive (returned lower-cased); the last
 *  occurrence wins. Values may be quoted with " or ' (a doubled quote is a literal quote);
 *  unquoted values run to the next `;` and are trimmed. `==` in a key is a literal `=`. */
export function parseConnectionString(text: string, where = 'ConnectionString'): Map<string, string> {
  const out = new Map<string, string>();
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && (text[i] === ';' || /\s/.test(text[i] as string))) i++;
    if (i >= n) break;
    let key = '';
    for (;;) {
      if (i >= n) throw new TemplateError(`key "${key.trim()}" has no value`, where);
      const c = text[i] as string;
      if (c === '=') {
        if (text[i + 1] === '=') {
          key += '=';
          i += 2;
          continue;
        }
        i++;
        break;
      }
      if (c === ';') throw new TemplateError(`key "${key.trim()}" has no value`, where);
      key += c;
      i++;
    }
    key = key.trim().toLowerCase();
    if (key === '') throw new TemplateError('empty key', where);
    while (i < n && text[i] !== ';' && /\s/.test(text[i] as string)) i++;
    let value = '';
    const q = text[i];
    if (q === '"' || q === "'") {
      i++;
      for (;;) {
        if (i >= n) throw new TemplateError(`unterminated quoted value for "${key}"`, where);
        const c = text[i] as string;
        if (c === q) {
          if (text[i + 1] === q) {
            value += q;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += c;
        i++;
      }
      while (i < n && text[i] !== ';') {
        if (!/\s/.test(text[i] as string))
          throw new TemplateError(`unexpected text after the quoted value of "${key}"`, where);
        i++;
      }
    } else {
      const end = text.indexOf(';', i);
      value = (end < 0 ? text.slice(i) : text.slice(i, end)).trim();
      i = end < 0 ? n : end;
    }
    out.set(key, value);
  }
  return out;
}

/** Writes pairs the way DbConnectionStringBuilder does: values that need it are quoted with ",
 *  or with ' when they contain " (JSON text usually does), doubling the quote otherwise. */
export function formatConnectionString(pairs: Iterable<readonly [string, string]>): string {
  const parts: string[] = [];
  for (const [k, v] of pairs) {
    const key = k.replaceAll('=', '==');
    let value = v;
    // Quoted unless made only of characters that cannot be misread (as .NET decides).
    if (v !== '' && /["'=;\s\p{Cc}]/u.test(v)) {
      if (!v.includes('"')) value = `"${v}"`;
      else if (!v.includes("'")) value = `'${v}'`;
      else value = `"${v.replaceAll('"', '""')}"`;
    }
    parts.push(`${key}=${value}`);
  }
  return parts.join(';');
}

export interface JsonConnectionFields {
  /** The JSON text (or, in FastReport, a URL: see `isJsonText`). */
  json: string;
  /** A JSON schema text, or '' when FastReport should infer it from the data. */
  jsonSchema: string;
  encoding: string;
  simpleStructure: boolean;
  /** HTTP headers for URL sources (Header0, Header1, … = "name:value"). */
  headers: Record<string, string>;
}

// FastReport stores Json and JsonSchema either as raw text or base64 of UTF-8; a value that is
// well-formed base64 is decoded.
const BASE64_RE = /^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)?$/;

function maybeBase64(v: string, key: string, where: string): string {
  if (!BASE64_RE.test(v)) return v;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(v, 'base64'));
  } catch {
    throw new TemplateError(`${key} is base64 but not UTF-8 text`, where);
  }
}

/** Reads a JsonDataSourceConnection's connection string, decrypting a `rij…` string first. */
export function parseJsonConnectionString(
  connectionString: string,
  opts: { password?: string; where?: string } = {},
): JsonConnectionFields {
  const where = opts.where ?? 'JsonDataSourceConnection';
  const plain = decryptConnectionString(connectionString, opts.password, where);
  const map = parseConnectionString(plain, where);
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let i = 0; map.has(`header${i}`); i++) {
    const h = map.get(`header${i}`) as string;
    if (h.trim() === '') continue;
    const colon = h.indexOf(':');
    if (colon < 0) continue;
    headers[maybeBase64(h.slice(0, colon), 'Header', where)] = maybeBase64(h.slice(colon + 1), 'Header', where);
  }
  return {
    json: maybeBase64(map.get('json') ?? '', 'Json', where),
    jsonSchema: maybeBase64(map.get('jsonschema') ?? '', 'JsonSchema', where),
    encoding: map.get('encoding') ?? '',
    simpleStructure: (map.get('simplestructure') ?? '').toLowerCase() === 'true',
    headers,
  };
}

/** Writes a JsonDataSourceConnection's connection string with Json and JsonSchema as raw text
 *  (FastReport's builder reads raw or base64; raw text stays readable in the designer's
 *  connection editor), in FastReport's key order: Json, JsonSchema, Encoding, then
 *  SimpleStructure when set. Headers are not written: they only matter for URL sources. */
export function formatJsonConnectionString(fields: {
  json: string;
  jsonSchema: string;
  encoding?: string;
  simpleStructure?: boolean;
}): string {
  const pairs: [string, string][] = [
    ['Json', fields.json],
    ['JsonSchema', fields.jsonSchema],
    ['Encoding', fields.encoding === undefined || fields.encoding === '' ? 'utf-8' : fields.encoding],
  ];
  if (fields.simpleStructure) pairs.push(['SimpleStructure', 'true']);
  return formatConnectionString(pairs);
}

/** FastReport treats a Json value that does not start with `{` or `[` as a URL to download. */
export function isJsonText(json: string): boolean {
  const t = json.trimStart();
  return t === '' || t[0] === '{' || t[0] === '[';
}
