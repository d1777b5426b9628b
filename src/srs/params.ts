// The values of an SRS run's params: from the query string and the JSON body (the query wins),
// else the definition's default, else NULL. Typed params are checked here, so a bad value is a
// 400 naming the param instead of a database error.
import { invalid, type ErrorDetail } from '../lib/errors.js';
import type { ParamType, SrsParam } from './definition/model.js';

/** A param value as it is bound: typed params arrive converted (see toBindValue). */
export type ParamValue = string | number | boolean | null;

const INT = /^[+-]?\d{1,18}$/;
const DECIMAL = /^[+-]?(\d{1,38}(\.\d{0,38})?|\.\d{1,38})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];
/** Longest text accepted for one param value. */
export const MAX_PARAM_LENGTH = 4000;

function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(2000, mo - 1, d));
  date.setUTCFullYear(y);
  return y >= 1 && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Why `text` is not a value of `type` (a phrase to follow the value), or null when it is. */
export function checkParamValue(type: ParamType, text: string): string | null {
  if (text.length > MAX_PARAM_LENGTH) return `is longer than ${MAX_PARAM_LENGTH} characters`;
  // PostgreSQL cannot hold U+0000 in text; refuse it on both databases alike.
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  switch (type) {
    case 'string':
      return null;
    case 'int':
      return INT.test(text) && Number.isSafeInteger(Number(text))
        ? null
        : 'is not an integer (digits, optional sign, at most 2^53 - 1)';
    case 'decimal':
      return DECIMAL.test(text) ? null : 'is not a decimal number (digits with an optional sign and "." fraction)';
    case 'bool':
      return TRUE.includes(text.toLowerCase()) || FALSE.includes(text.toLowerCase())
        ? null
        : 'is not a boolean (true/false, 1/0, yes/no, on/off)';
    case 'date':
      return isCalendarDate(text) ? null : 'is not a date (YYYY-MM-DD)';
  }
}

/** Text (already checked) → the value bound for the param's type. */
function convert(type: ParamType, text: string): ParamValue {
  switch (type) {
    case 'string':
    case 'date':
      return text;
    case 'int':
      return Number(text);
    case 'decimal':
      // Kept as text: exact on PostgreSQL (bound as numeric); SQLite converts it on use.
      return text.startsWith('+') ? text.slice(1) : text;
    case 'bool':
      return TRUE.includes(text.toLowerCase());
  }
}

export interface ParamInput {
  /** The parsed query string (values may be arrays when a key is repeated). */
  query: Record<string, unknown>;
  /** The JSON body (an object of scalars), or undefined. */
  body: Record<string, unknown> | undefined;
}

/** Finds the value for a param: exact key first, then any key equal ignoring case. */
function lookup(source: Record<string, unknown> | undefined, name: string): { found: boolean; value: unknown } {
  if (!source) return { found: false, value: undefined };
  if (Object.hasOwn(source, name)) return { found: true, value: source[name] };
  const key = Object.keys(source).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? { found: false, value: undefined } : { found: true, value: source[key] };
}

/**
 * Resolves every declared param. Names a request sends that the definition does not declare are
 * ignored (the query also carries ptoken, app_name, cache busters…).
 */
export function resolveParams(params: readonly SrsParam[], input: ParamInput): Record<string, ParamValue> {
  const values: Record<string, ParamValue> = {};
  const problems: ErrorDetail[] = [];
  const problem = (p: SrsParam, rule: string, message: string) =>
    problems.push({ field: p.name, rule, message: `param ${p.name} ${message}` });
  for (const p of params) {
    const q = lookup(input.query, p.name);
    const b = lookup(input.body, p.name);
    let raw: unknown;
    if (q.found) {
      if (Array.isArray(q.value)) {
        problem(p, 'single', 'is given more than once in the query string');
        continue;
      }
      raw = q.value;
    } else if (b.found) raw = b.value;
    else raw = p.defaultValue;

    if (raw === null || raw === undefined) {
      values[p.name] = null;
      continue;
    }
    let text: string;
    if (typeof raw === 'string') text = raw;
    else if (typeof raw === 'number' && Number.isFinite(raw)) text = String(raw);
    else if (typeof raw === 'boolean') text = String(raw);
    else {
      problem(p, 'type', 'must be a string, number, boolean or null');
      continue;
    }
    // An empty field of a typed param (an HTML form left blank) means "no value".
    if (text === '' && p.type !== 'string') {
      values[p.name] = null;
      continue;
    }
    const why = checkParamValue(p.type, text);
    if (why) {
      problem(
        p,
        why.startsWith('is longer') ? 'maxLength' : why.includes('NUL') ? 'no_nul' : p.type,
        `${why} (got ${JSON.stringify(text.slice(0, 40))}${text.length > 40 ? '…' : ''})`,
      );
      continue;
    }
    values[p.name] = convert(p.type, text);
  }
  if (problems.length > 0) throw invalid('invalid_param', problems[0]!.message, problems);
  return values;
}
