// .NET type names: canonical names by every spelling a template or a scope may use, the value
// ConvertNulls gives a null of a type, the type name of an internal value and a short name for
// messages.

import { DATETIME_MIN_MS } from './date-time.js';
import { Decimal } from './decimal.js';
import { TimeSpan } from './time-span.js';
import { ArrayVal, Chr, Dbl, EnumVal, Flt, HostObject, NullOf, type Value } from './values.js';

/** Canonical .NET type names, by every spelling a template or a scope may use. */
const TYPE_ALIASES: ReadonlyMap<string, string> = new Map([
  ...['Int32', 'int'].map((n) => [n, 'System.Int32'] as const),
  ...['Int16', 'short'].map((n) => [n, 'System.Int16'] as const),
  ...['Int64', 'long'].map((n) => [n, 'System.Int64'] as const),
  ...['UInt16', 'ushort'].map((n) => [n, 'System.UInt16'] as const),
  ...['UInt32', 'uint'].map((n) => [n, 'System.UInt32'] as const),
  ...['UInt64', 'ulong'].map((n) => [n, 'System.UInt64'] as const),
  ...['Byte', 'byte'].map((n) => [n, 'System.Byte'] as const),
  ...['SByte', 'sbyte'].map((n) => [n, 'System.SByte'] as const),
  ...['Single', 'float'].map((n) => [n, 'System.Single'] as const),
  ...['Double', 'double'].map((n) => [n, 'System.Double'] as const),
  ...['Decimal', 'decimal'].map((n) => [n, 'System.Decimal'] as const),
  ...['String', 'string'].map((n) => [n, 'System.String'] as const),
  ...['Boolean', 'bool'].map((n) => [n, 'System.Boolean'] as const),
  ...['Char', 'char'].map((n) => [n, 'System.Char'] as const),
  ...['Object', 'object'].map((n) => [n, 'System.Object'] as const),
  ['DateTime', 'System.DateTime'],
  ['TimeSpan', 'System.TimeSpan'],
  ['Guid', 'System.Guid'],
  ['Byte[]', 'System.Byte[]'],
  ['byte[]', 'System.Byte[]'],
]);

const canonicalTypes = new Map<string, string>();

/** 'System.Int32', 'Int32', 'int', 'System.Nullable`1[System.Int32]', 'int?' → 'System.Int32'.
 *  Other names are returned as they are; undefined stays undefined. */
export function canonicalType(type: string | undefined): string | undefined {
  if (type === undefined || type === '') return undefined;
  // Every value read from data passes here with its column's type: remember the few names seen.
  let c = canonicalTypes.get(type);
  if (c === undefined) {
    c = canonicalTypeOf(type);
    if (canonicalTypes.size >= 1024) canonicalTypes.clear();
    canonicalTypes.set(type, c);
  }
  return c;
}

function canonicalTypeOf(type: string): string {
  let t = type.trim();
  const nullable = /^System\.Nullable`1\[\[?([^,\]]+)/.exec(t);
  if (nullable) t = nullable[1]!;
  if (t.endsWith('?')) t = t.slice(0, -1);
  const alias = TYPE_ALIASES.get(t.startsWith('System.') ? t.slice(7) : t);
  return alias ?? t;
}

export const INT_TYPES = new Set(['System.Int32', 'System.Int16', 'System.Byte', 'System.SByte', 'System.UInt16']);
export const LONG_TYPES = new Set(['System.Int64', 'System.UInt32', 'System.UInt64']);
/** Every integral type but char: the int-valued and the long-valued ones. */
export const INTEGER_TYPES: ReadonlySet<string> = new Set([...INT_TYPES, ...LONG_TYPES]);

/** The value ConvertNulls gives a null of this type (FastReport's Converter.ConvertNull):
 *  "" for strings, ' ' for chars, false, 0 of the numeric type, DateTime.MinValue,
 *  TimeSpan.Zero, the empty Guid; null for everything else. */
export function defaultOf(type: string | undefined): Value {
  if (type === undefined) return null;
  if (INT_TYPES.has(type)) return 0;
  if (LONG_TYPES.has(type)) return 0n;
  switch (type) {
    case 'System.String':
      return '';
    case 'System.Char':
      return new Chr(32);
    case 'System.Boolean':
      return false;
    case 'System.Double':
      return new Dbl(0);
    case 'System.Single':
      return new Flt(0);
    case 'System.Decimal':
      return Decimal.Zero;
    case 'System.DateTime':
      return new Date(DATETIME_MIN_MS);
    case 'System.TimeSpan':
      return TimeSpan.Zero;
    case 'System.Guid':
      return '00000000-0000-0000-0000-000000000000';
  }
  return null;
}

/** The .NET type name of an internal value. */
export function typeNameOf(v: Value): string {
  if (v === null) return 'System.Object';
  switch (typeof v) {
    case 'string':
      return 'System.String';
    case 'boolean':
      return 'System.Boolean';
    case 'number':
      return 'System.Int32';
    case 'bigint':
      return 'System.Int64';
  }
  if (v instanceof Dbl) return 'System.Double';
  if (v instanceof Flt) return 'System.Single';
  if (v instanceof Decimal) return 'System.Decimal';
  if (v instanceof Chr) return 'System.Char';
  if (v instanceof Date) return 'System.DateTime';
  if (v instanceof TimeSpan) return 'System.TimeSpan';
  if (v instanceof Uint8Array) return 'System.Byte[]';
  if (v instanceof ArrayVal) return `${v.elementType}[]`;
  if (v instanceof EnumVal) return v.type;
  if (v instanceof NullOf) return v.type ?? 'System.Object';
  if (v instanceof HostObject) return v.typeName;
  return 'System.Object';
}

/** A short name for messages: "int", "string", "DateTime"… */
export function kindName(v: Value): string {
  if (v === null || v instanceof NullOf) return 'null';
  const t = typeNameOf(v);
  const short: Record<string, string> = {
    'System.Int32': 'int',
    'System.Int64': 'long',
    'System.Double': 'double',
    'System.Single': 'float',
    'System.Decimal': 'decimal',
    'System.String': 'string',
    'System.Boolean': 'bool',
    'System.Char': 'char',
    'System.Object': 'object',
  };
  return short[t] ?? t.replace(/^System\./, '');
}
