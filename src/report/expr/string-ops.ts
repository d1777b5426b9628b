// .NET string helpers (trim, case mapping, search, split, compare with .NET semantics) and
// composite formatting, used by the standard functions, the static members and the string
// instance members.

import { charge, checkLength, concat, type Ctx, format, outOfRange, str } from './context.js';
import { argString } from './convert.js';
import { kindName } from './type-names.js';
import { ValueError } from './value-error.js';
import { ArrayVal, Chr, EnumVal, NullOf, type Value } from './values.js';

// ---------------------------------------------------------------------------------------------
// Strings (.NET semantics)

const WS = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const TRIM_START = new RegExp(`^[${WS}]+`);
const TRIM_END = new RegExp(`[${WS}]+$`);
export const IS_WS = new RegExp(`^[${WS}]$`);

export function trimChars(s: string, chars: readonly number[] | null, start: boolean, end: boolean): string {
  if (chars === null || chars.length === 0) {
    let r = s;
    if (start) r = r.replace(TRIM_START, '');
    if (end) r = r.replace(TRIM_END, '');
    return r;
  }
  const set = new Set(chars);
  let i = 0,
    j = s.length;
  if (start) while (i < j && set.has(s.charCodeAt(i))) i++;
  if (end) while (j > i && set.has(s.charCodeAt(j - 1))) j--;
  return s.slice(i, j);
}

/** Case mapping that keeps the length, as .NET's char-by-char ToUpper/ToLower does. */
export function mapCase(s: string, upper: boolean): string {
  const r = upper ? s.toUpperCase() : s.toLowerCase();
  if (r.length === s.length) return r;
  let out = '';
  for (const ch of s) {
    const m = upper ? ch.toUpperCase() : ch.toLowerCase();
    out += m.length === ch.length ? m : ch;
  }
  return out;
}

export function substring(s: string, start: number, len?: number): string {
  if (start < 0 || start > s.length) throw outOfRange('startIndex cannot be larger than length of string');
  if (len === undefined) return s.slice(start);
  if (len < 0 || start + len > s.length)
    throw outOfRange('Index and length must refer to a location within the string');
  return s.slice(start, start + len);
}

export function remove(s: string, start: number, count?: number): string {
  if (count === undefined) {
    if (start < 0 || start >= s.length) throw outOfRange('startIndex must be less than length of string');
    return s.slice(0, start);
  }
  if (start < 0 || count < 0 || start + count > s.length)
    throw outOfRange('Index and count must refer to a location within the string');
  return s.slice(0, start) + s.slice(start + count);
}

export function insert(ctx: Ctx, s: string, start: number, value: Value): string {
  if (value === null) throw new ValueError('ArgumentNullException', 'Value cannot be null');
  const v = argString(value, 'value');
  if (start < 0 || start > s.length) throw outOfRange('startIndex cannot be larger than length of string');
  checkLength(ctx, s.length + v.length);
  return s.slice(0, start) + v + s.slice(start);
}

export function replace(ctx: Ctx, s: string, oldV: Value, newV: Value): string {
  if (oldV === null) throw new ValueError('ArgumentNullException', 'Value cannot be null (oldValue)');
  const o = argString(oldV, 'oldValue');
  if (o === '') throw new ValueError('ArgumentException', 'String cannot be of zero length (oldValue)');
  const n = newV === null ? '' : argString(newV, 'newValue');
  let count = 0;
  for (let i = s.indexOf(o); i >= 0; i = s.indexOf(o, i + o.length)) if ((++count & 1023) === 0) charge(ctx, 1);
  if (count === 0) return s;
  checkLength(ctx, s.length + count * (n.length - o.length));
  return s.replaceAll(o, () => n);
}

export function pad(ctx: Ctx, s: string, width: number, ch: number, left: boolean): string {
  if (width < 0) throw outOfRange('totalWidth cannot be negative');
  if (width <= s.length) return s;
  checkLength(ctx, width);
  const fill = String.fromCharCode(ch).repeat(width - s.length);
  return left ? fill + s : s + fill;
}

export function ignoreCaseOf(v: Value | undefined): boolean {
  if (typeof v === 'boolean') return v;
  if (v instanceof EnumVal && v.type === 'System.StringComparison') return v.name.endsWith('IgnoreCase');
  return false;
}

export function searchText(v: Value, what: string): string {
  if (v === null) throw new ValueError('ArgumentNullException', `Value cannot be null (${what})`);
  if (v instanceof Chr) return v.toString();
  return argString(v, what);
}

export function indexOf(s: string, args: readonly Value[], last: boolean): number {
  let value = searchText(args[0]!, 'value');
  let i = 1;
  let start: number | undefined;
  let count: number | undefined;
  if (typeof args[i] === 'number') start = args[i++] as number;
  if (typeof args[i] === 'number') count = args[i++] as number;
  let hay = s;
  if (ignoreCaseOf(args[i])) {
    hay = s.toLowerCase().length === s.length ? s.toLowerCase() : s;
    value = value.toLowerCase();
  }
  if (!last) {
    const from = start ?? 0;
    if (from < 0 || from > s.length) throw outOfRange('Index was out of range');
    const to = count === undefined ? s.length : from + count;
    if (count !== undefined && (count < 0 || to > s.length))
      throw outOfRange('Count must be positive and count must refer to a location within the string');
    const r = hay.slice(0, to).indexOf(value, from);
    return r;
  }
  const from = start ?? s.length - 1;
  if (s.length === 0) return value === '' ? 0 : -1;
  if (from < 0 || from >= s.length) throw outOfRange('Index was out of range');
  const lo = count === undefined ? 0 : from - count + 1;
  if (lo < 0) throw outOfRange('Count must be positive and count must refer to a location within the string');
  const r = hay.lastIndexOf(value, from - value.length + 1);
  return r >= lo ? r : -1;
}

export function startsEnds(s: string, args: readonly Value[], ends: boolean): boolean {
  let value = searchText(args[0]!, 'value');
  let hay = s;
  if (ignoreCaseOf(args[1])) {
    hay = s.toLowerCase();
    value = value.toLowerCase();
  }
  return ends ? hay.endsWith(value) : hay.startsWith(value);
}

export function split(ctx: Ctx, s: string, args: readonly Value[]): ArrayVal {
  const seps: string[] = [];
  let count = 2147483647;
  let options = 0;
  for (const a of args) {
    if (a instanceof Chr) seps.push(a.toString());
    else if (typeof a === 'string') seps.push(a);
    else if (typeof a === 'number') count = a;
    else if (a instanceof EnumVal && a.type === 'System.StringSplitOptions') options |= a.value;
    else if (a instanceof ArrayVal) for (let i = 0; i < a.length; i++) seps.push(str(ctx, a.get(i)));
    else if (a !== null) throw new ValueError('ArgumentException', `Split does not take a ${kindName(a)}`);
  }
  if (count < 0) throw outOfRange('Count cannot be less than zero');
  const parts: string[] = [];
  const useWs = seps.length === 0 || seps.every((x) => x === '');
  let from = 0;
  let i = 0;
  while (i <= s.length && parts.length < count - 1) {
    let len = -1;
    if (i < s.length) {
      if (useWs) {
        if (IS_WS.test(s[i]!)) len = 1;
      } else {
        for (const sep of seps) {
          if (sep !== '' && s.startsWith(sep, i)) {
            len = sep.length;
            break;
          }
        }
      }
    }
    if (len > 0) {
      parts.push(s.slice(from, i));
      if ((parts.length & 1023) === 0) charge(ctx, 1024);
      i += len;
      from = i;
    } else i++;
  }
  if (count > 0) parts.push(s.slice(from));
  let out = parts;
  if (options & 2) out = out.map((p) => trimChars(p, null, true, true));
  if (options & 1) out = out.filter((p) => p !== '');
  return ArrayVal.of(out, 'System.String');
}

/** TextInfo.ToTitleCase (en-US): each word's first letter upper, the rest lower, words written
 *  all in capitals left alone. Letters and apostrophes make words. */
export function titleCase(s: string): string {
  let out = '';
  let i = 0;
  while (i < s.length) {
    if (!/\p{L}/u.test(s[i]!)) {
      out += s[i++];
      continue;
    }
    let j = i;
    while (
      j < s.length &&
      (/[\p{L}\p{M}]/u.test(s[j]!) || ((s[j] === "'" || s[j] === '’') && /\p{L}/u.test(s[j + 1] ?? '')))
    )
      j++;
    const word = s.slice(i, j);
    const letters = word.replace(/[^\p{L}]/gu, '');
    if (letters.length > 1 && letters === letters.toUpperCase() && letters !== letters.toLowerCase()) out += word;
    else out += mapCase(word[0]!, true) + mapCase(word.slice(1), false);
    i = j;
  }
  return out;
}

export function stringCompare(a: Value, b: Value, ignoreCase: boolean): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  const x = argString(a),
    y = argString(b);
  const c = x.localeCompare(y, 'en-US', { sensitivity: ignoreCase ? 'accent' : 'variant' });
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Composite formatting: String.Format("{0:N2} of {1,8}", …)

export function formatItem(ctx: Ctx, v: Value, fmt: string): string {
  if (v === null || v instanceof NullOf) return '';
  if (fmt === '' || typeof v === 'string' || typeof v === 'boolean' || v instanceof Chr) return str(ctx, v);
  if (v instanceof EnumVal) return /^[dDxX]$/.test(fmt) ? String(v.value) : v.name;
  return format(ctx, v, fmt);
}

export function composite(ctx: Ctx, fmt: string, args: readonly Value[]): string {
  const bad = () => new ValueError('FormatException', 'Input string was not in a correct format');
  let out = '';
  let i = 0;
  while (i < fmt.length) {
    const c = fmt[i]!;
    if (c === '}') {
      if (fmt[i + 1] !== '}') throw bad();
      out += '}';
      i += 2;
      continue;
    }
    if (c !== '{') {
      const next = fmt.slice(i).search(/[{}]/);
      const chunk = next < 0 ? fmt.slice(i) : fmt.slice(i, i + next);
      out += chunk;
      i += chunk.length;
      continue;
    }
    if (fmt[i + 1] === '{') {
      out += '{';
      i += 2;
      continue;
    }
    i++;
    const idx = /^\s*(\d{1,6})\s*/.exec(fmt.slice(i, i + 40));
    if (!idx) throw bad();
    i += idx[0].length;
    let align = 0;
    if (fmt[i] === ',') {
      const m = /^,\s*(-?\d{1,6})\s*/.exec(fmt.slice(i, i + 40));
      if (!m) throw bad();
      align = Number(m[1]);
      i += m[0].length;
    }
    let itemFmt = '';
    if (fmt[i] === ':') {
      i++;
      for (;;) {
        const ch = fmt[i];
        if (ch === undefined) throw bad();
        if (ch === '}') {
          if (fmt[i + 1] === '}') {
            itemFmt += '}';
            i += 2;
            continue;
          }
          break;
        }
        if (ch === '{') {
          if (fmt[i + 1] === '{') {
            itemFmt += '{';
            i += 2;
            continue;
          }
          throw bad();
        }
        itemFmt += ch;
        i++;
      }
    }
    if (fmt[i] !== '}') throw bad();
    i++;
    const n = Number(idx[1]);
    if (n >= args.length)
      throw new ValueError(
        'FormatException',
        'Index (zero based) must be greater than or equal to zero and less than the size of the argument list',
      );
    let s = formatItem(ctx, args[n]!, itemFmt);
    const width = Math.abs(align);
    if (s.length < width) {
      checkLength(ctx, out.length + width);
      s = align > 0 ? s.padStart(width) : s.padEnd(width);
    }
    out = concat(ctx, out, s);
  }
  return out;
}
