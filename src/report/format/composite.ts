// `value.ToString(format)` for any engine value, and .NET composite formatting
// (String.Format("{0,-10:N2} {1}", …)): the rules of "Composite formatting" on learn.microsoft.com
// as .NET 6+ implements them:
//   - "{{" and "}}" are literal braces; any other "}" outside an item is an error;
//   - an item is {index[,width][:format]}; spaces may follow the index and surround the width;
//   - the format runs to the first "}" and may not contain "{";
//   - index and width are below 1,000,000; an index past the arguments is an error;
//   - a null argument gives ""; a positive width right-aligns, a negative one left-aligns.

import { EN_US, type Culture } from './culture.js';
import { formatDate, isDateValue } from './date.js';
import { classify, decimalText } from './digits.js';
import { FormatError } from './errors.js';
import { formatClassified } from './number.js';
import { formatTimeSpan, isTimeSpanLike } from './timespan.js';

const INDEX_LIMIT = 1_000_000;
const WIDTH_LIMIT = 1_000_000;

/**
 * The text of a value with an optional format, as .NET's composite formatting produces it for one
 * argument (IFormattable.ToString(format, culture), else ToString()):
 *   null/undefined → ""; string → itself (the format is ignored, strings are not IFormattable);
 *   boolean → "True"/"False"; number, bigint, decimal-like → formatNumber (`type`, the value's
 *   .NET type name when known, picks Double/Single/Int16/Decimal… semantics);
 *   Date, DateTimeOffsetLike → formatDate; TimeSpanLike → formatTimeSpan;
 *   Uint8Array → "System.Byte[]"; an array → "System.Object[]" ("System.String[]" when all are
 *   strings); a plain (JSON) object → its JSON text, as FastReport's JSON objects print;
 *   anything else → String(value).
 */
export function formatValue(value: unknown, format?: string | null, culture: Culture = EN_US, type?: string): string {
  if (value === null || value === undefined) return '';
  switch (typeof value) {
    case 'string':
      return value;
    case 'boolean':
      return value ? 'True' : 'False';
    case 'number':
    case 'bigint':
      return formatClassified(classify(value, type), format, culture.number);
    default:
      break;
  }
  if (isDateValue(value)) return formatDate(value, format, culture);
  if (isTimeSpanLike(value)) return formatTimeSpan(value, format, culture);
  if (value instanceof Uint8Array) return 'System.Byte[]';
  if (Array.isArray(value)) return value.every((x) => typeof x === 'string') ? 'System.String[]' : 'System.Object[]';
  if (decimalText(value) !== undefined) return formatClassified(classify(value, type), format, culture.number);
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    const ownText = (value as { toString?: unknown }).toString;
    if (
      (proto === Object.prototype || proto === null) &&
      (ownText === undefined || ownText === Object.prototype.toString)
    ) {
      try {
        return JSON.stringify(value) ?? '';
      } catch {
        // a bigint or a cycle inside: fall through
      }
    }
  }
  try {
    return String(value);
  } catch {
    return '[object Object]'; // no toString at all (Object.create(null) with a bigint inside)
  }
}

/** The text .NET's parameterless ToString() gives (what FastReport's General format shows). */
export function toDisplayString(value: unknown, culture: Culture = EN_US, type?: string): string {
  return formatValue(value, null, culture, type);
}

/**
 * String.Format(culture, format, args…). `types[i]`, when given, is the .NET type name of
 * args[i] (see formatValue). Throws FormatError for a malformed format string.
 */
export function formatComposite(
  format: string,
  args: readonly unknown[],
  culture: Culture = EN_US,
  types?: readonly (string | undefined)[],
): string {
  let out = '';
  let pos = 0;
  const len = format.length;
  const fail = (at: number, what: string): never => {
    throw new FormatError(`composite format "${format}": ${what} at position ${at}`);
  };
  // Reads the character after `pos`; an item may not run off the end of the string.
  const next = (): string => {
    pos++;
    if (pos >= len) fail(pos, 'unclosed format item');
    return format.charAt(pos);
  };

  while (pos < len) {
    const brace = format.slice(pos).search(/[{}]/);
    if (brace < 0) {
      out += format.slice(pos);
      break;
    }
    out += format.slice(pos, pos + brace);
    pos += brace;
    const open = format.charAt(pos);
    let ch = next();
    if (ch === open) {
      out += ch; // "{{" or "}}"
      pos++;
      continue;
    }
    if (open === '}') fail(pos - 1, "unexpected '}'");

    // {index[,width][:format]}
    let index = ch.charCodeAt(0) - 48;
    if (index < 0 || index > 9) fail(pos, 'expected an argument index');
    let width = 0;
    let leftAlign = false;
    let itemFormat: string | null = null;
    ch = next();
    if (ch !== '}') {
      while (ch >= '0' && ch <= '9' && index < INDEX_LIMIT) {
        index = index * 10 + ch.charCodeAt(0) - 48;
        ch = next();
      }
      while (ch === ' ') ch = next();
      if (ch === ',') {
        do ch = next();
        while (ch === ' ');
        if (ch === '-') {
          leftAlign = true;
          ch = next();
        }
        width = ch.charCodeAt(0) - 48;
        if (width < 0 || width > 9) fail(pos, 'expected an alignment width');
        ch = next();
        while (ch >= '0' && ch <= '9' && width < WIDTH_LIMIT) {
          width = width * 10 + ch.charCodeAt(0) - 48;
          ch = next();
        }
        while (ch === ' ') ch = next();
      }
      if (ch !== '}') {
        if (ch !== ':') fail(pos, "expected ',', ':' or '}'");
        const start = pos + 1;
        for (;;) {
          ch = next();
          if (ch === '}') break;
          if (ch === '{') fail(pos, "'{' inside a format item");
        }
        itemFormat = format.slice(start, pos);
      }
    }
    pos++; // past the closing brace
    if (index >= args.length) {
      throw new FormatError(
        `composite format "${format}": argument index ${index} but only ${args.length} argument(s)`,
      );
    }
    const text = formatValue(args[index], itemFormat, culture, types?.[index]);
    if (width > text.length) {
      const padding = ' '.repeat(width - text.length);
      out += leftAlign ? text + padding : padding + text;
    } else {
      out += text;
    }
  }
  return out;
}
