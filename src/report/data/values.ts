// Turning source text (XSD lexical forms) and caller-supplied JS values into cell values of a
// given .NET type. Errors are plain `Error`s with a short reason; callers wrap them in a
// TemplateError that says which table, row and column.

import type { CellValue, DotNetType } from './table.js';

/** What a converted value carries into a row: the value and, for Decimal/DateTime, its sidecar. */
export interface Converted {
  value: CellValue;
  /** Decimal: the original text (or undefined); DateTime: the offset in minutes or null. */
  extra?: string | number | null;
}

/** Types whose rows keep a sidecar slot (see table.ts). */
export function hasSidecar(type: DotNetType): boolean {
  return type === 'System.Decimal' || type === 'System.DateTime';
}

// How ADO.NET maps XSD built-in types to .NET types when it reads a DataSet schema.
const XSD_TYPES: Readonly<Record<string, DotNetType>> = {
  string: 'System.String',
  normalizedString: 'System.String',
  token: 'System.String',
  anyURI: 'System.Uri',
  QName: 'System.Xml.XmlQualifiedName',
  int: 'System.Int32',
  short: 'System.Int16',
  long: 'System.Int64',
  integer: 'System.Int64',
  byte: 'System.SByte',
  unsignedByte: 'System.Byte',
  unsignedShort: 'System.UInt16',
  unsignedInt: 'System.UInt32',
  unsignedLong: 'System.UInt64',
  decimal: 'System.Decimal',
  float: 'System.Single',
  double: 'System.Double',
  boolean: 'System.Boolean',
  dateTime: 'System.DateTime',
  date: 'System.DateTime',
  time: 'System.DateTime',
  duration: 'System.TimeSpan',
  base64Binary: 'System.Byte[]',
  hexBinary: 'System.Byte[]',
};

/** .NET type of an XSD type's local name (`int` → System.Int32); unknown types read as text. */
export function xsdToDotNet(localName: string): DotNetType {
  return XSD_TYPES[localName] ?? 'System.String';
}

const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  'System.Byte': [0, 255],
  'System.SByte': [-128, 127],
  'System.Int16': [-32768, 32767],
  'System.UInt16': [0, 65535],
  'System.Int32': [-2147483648, 2147483647],
  'System.UInt32': [0, 4294967295],
  // Int64.MaxValue and UInt64.MaxValue are not doubles: these are the doubles their literals round to.
  'System.Int64': [-(2 ** 63), 2 ** 63],
  'System.UInt64': [0, 2 ** 64],
};

const INTEGER_RE = /^\s*[+-]?\d+\s*$/;
const DECIMAL_RE = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;
const FLOAT_RE = /^\s*([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?INF|NaN|[+-]?Infinity)\s*$/;

function parseInteger(text: string, type: DotNetType): number {
  if (!INTEGER_RE.test(text)) throw new Error(`"${clip(text)}" is not a valid ${type}`);
  const n = Number(text.trim());
  const range = INTEGER_RANGES[type];
  if (range && (n < range[0] || n > range[1])) throw new Error(`${clip(text)} is out of range for ${type}`);
  return n;
}

function parseFloatText(text: string, type: DotNetType): number {
  if (!FLOAT_RE.test(text)) throw new Error(`"${clip(text)}" is not a valid ${type}`);
  const t = text.trim();
  if (t === 'INF' || t === '+INF' || t === 'Infinity' || t === '+Infinity') return Infinity;
  if (t === '-INF' || t === '-Infinity') return -Infinity;
  if (t === 'NaN') return NaN;
  return Number(t);
}

function parseBoolean(text: string): boolean {
  const t = text.trim().toLowerCase();
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  throw new Error(`"${clip(text)}" is not a valid System.Boolean`);
}

const DATETIME_RE =
  /^\s*(-?\d{4,})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?\s*$/;
const TIME_RE = /^\s*(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?\s*(Z|[+-]\d{2}:?\d{2})?\s*$/;

/** Parses xs:dateTime / xs:date / xs:time (and the ISO forms with a space separator).
 *  Returns the instant and the written offset (null when none: the wall time is taken as UTC).
 *  Sub-millisecond digits are truncated. */
export function parseDateTime(text: string): { date: Date; offsetMinutes: number | null } | undefined {
  let y = 1,
    mo = 1,
    d = 1,
    h = 0,
    mi = 0,
    s = 0,
    frac: string | undefined,
    zone: string | undefined;
  const m = DATETIME_RE.exec(text);
  if (m) {
    y = Number(m[1]);
    mo = Number(m[2]);
    d = Number(m[3]);
    h = Number(m[4] ?? 0);
    mi = Number(m[5] ?? 0);
    s = Number(m[6] ?? 0);
    frac = m[7];
    zone = m[8];
  } else {
    const t = TIME_RE.exec(text);
    if (!t) return undefined;
    h = Number(t[1]);
    mi = Number(t[2]);
    s = Number(t[3]);
    frac = t[4];
    zone = t[5];
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, ms));
  date.setUTCFullYear(y);
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined; // 31 Feb…
  let offsetMinutes: number | null = null;
  if (zone !== undefined) {
    if (zone === 'Z') offsetMinutes = 0;
    else {
      const z = zone.replace(':', '');
      const oh = Number(z.slice(1, 3)),
        om = Number(z.slice(3, 5));
      if (oh > 14 || om > 59) return undefined;
      offsetMinutes = (z[0] === '-' ? -1 : 1) * (oh * 60 + om);
    }
    date.setTime(date.getTime() - offsetMinutes * 60_000);
  }
  if (Number.isNaN(date.getTime())) return undefined;
  return { date, offsetMinutes };
}

const BASE64_RE = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

function parseBase64(text: string): Uint8Array {
  if (!BASE64_RE.test(text)) throw new Error('invalid base64 data');
  const buf = Buffer.from(text, 'base64');
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** Converts the lexical text of a DataSet XML element into a value of `type`. An empty element
 *  is an empty string for text columns and null for every other type. */
export function fromText(text: string, type: DotNetType, xsdType?: string): Converted {
  switch (type) {
    case 'System.String':
    case 'System.Uri':
    case 'System.Guid':
    case 'System.TimeSpan':
    case 'System.Object':
      return { value: text };
  }
  if (text.trim() === '') return hasSidecar(type) ? { value: null, extra: null } : { value: null };
  switch (type) {
    case 'System.Decimal':
      if (!DECIMAL_RE.test(text)) throw new Error(`"${clip(text)}" is not a valid System.Decimal`);
      return { value: Number(text.trim()), extra: text.trim() };
    case 'System.Single':
    case 'System.Double':
      return { value: parseFloatText(text, type) };
    case 'System.Boolean':
      return { value: parseBoolean(text) };
    case 'System.DateTime': {
      const dt = parseDateTime(text);
      if (!dt) throw new Error(`"${clip(text)}" is not a valid System.DateTime`);
      return { value: dt.date, extra: dt.offsetMinutes };
    }
    case 'System.Byte[]':
      if (xsdType === 'hexBinary') {
        const t = text.trim();
        if (!/^([0-9A-Fa-f]{2})*$/.test(t)) throw new Error('invalid hexBinary data');
        const buf = Buffer.from(t, 'hex');
        return { value: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) };
      }
      return { value: parseBase64(text) };
  }
  if (type in INTEGER_RANGES) return { value: parseInteger(text, type) };
  return { value: text };
}

function isPlainContainer(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Converts a caller-supplied JS value to the declared `type` (plain-object tables). Strings are
 *  read with the same lexical rules as DataSet XML; numbers, booleans, Dates and byte arrays
 *  pass where they fit. `undefined` is null. */
export function fromJs(v: unknown, type: DotNetType): Converted {
  if (v === null || v === undefined) return hasSidecar(type) ? { value: null, extra: null } : { value: null };
  if (typeof v === 'string') {
    if (type === 'System.Byte[]') return { value: parseBase64(v) };
    return fromText(v, type);
  }
  if (typeof v === 'bigint') {
    if (type === 'System.String') return { value: v.toString() };
    return fromText(v.toString(), type);
  }
  if (typeof v === 'number') {
    if (type === 'System.String') return { value: String(v) };
    if (type === 'System.Boolean') return { value: v !== 0 };
    if (type === 'System.DateTime') throw new Error(`a number (${v}) is not a System.DateTime`);
    if (type in INTEGER_RANGES) {
      if (!Number.isInteger(v)) throw new Error(`${v} is not a valid ${type}`);
      return { value: v };
    }
    return { value: v };
  }
  if (typeof v === 'boolean') {
    if (type === 'System.String') return { value: v ? 'True' : 'False' };
    if (type === 'System.Boolean' || type === 'System.Object') return { value: v };
    if (NUMERIC.has(type)) return { value: v ? 1 : 0 };
    throw new Error(`a boolean is not a ${type}`);
  }
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw new Error('invalid Date');
    if (type === 'System.String') return { value: v.toISOString() };
    if (type === 'System.DateTime') return { value: v, extra: null };
    if (type === 'System.Object') return { value: v };
    throw new Error(`a Date is not a ${type}`);
  }
  if (v instanceof Uint8Array) return { value: v };
  if (v instanceof ArrayBuffer) return { value: new Uint8Array(v) };
  if (typeof v === 'object' && isPlainContainer(v)) {
    if (type === 'System.Object' || type.startsWith('FastReport.')) return { value: v as CellValue };
  }
  throw new Error(`a ${describe(v)} cannot be a ${type}`);
}

const NUMERIC = new Set(Object.keys(INTEGER_RANGES).concat('System.Single', 'System.Double', 'System.Decimal'));

/** The type a plain JS value suggests when a table has no declared columns. */
export function jsTypeOf(v: unknown): DotNetType | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return 'System.String';
  if (typeof v === 'number' || typeof v === 'bigint') return 'System.Double';
  if (typeof v === 'boolean') return 'System.Boolean';
  if (v instanceof Date) return 'System.DateTime';
  if (v instanceof Uint8Array || v instanceof ArrayBuffer) return 'System.Byte[]';
  return 'System.Object';
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object')
    return (Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null)?.constructor?.name ?? 'object';
  return typeof v;
}

export function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
