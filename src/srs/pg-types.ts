// How PostgreSQL values arrive in SRS data. node-postgres returns numeric and bigint as strings
// and dates as JS Dates in the server's local zone; SRS data is JSON handed to templates, and it
// should look the same on SQLite and PostgreSQL. So, for the SRS connections only:
//  - numeric and bigint → numbers when that is exact (≤ 15 significant digits / safe integers),
//    else the exact text;
//  - date → "YYYY-MM-DD"; timestamp → "YYYY-MM-DDTHH:MM:SS[.ffffff]"; timestamptz → the same
//    with its offset ("+02:00"): the wall-clock text, never shifted into another zone.
import pg from 'pg';

const OID = { int8: 20, numeric: 1700, date: 1082, timestamp: 1114, timestamptz: 1184 } as const;

/** True when the decimal text converts to a double without changing its value's digits:
 *  at most 15 significant digits and 15 integer digits. */
function fitsDouble(text: string): boolean {
  const unsigned = text.replace(/^[+-]/, '');
  const intDigits = (unsigned.split('.')[0] ?? '').replace(/^0+/, '');
  const significant = unsigned.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return intDigits.length <= 15 && significant.length <= 15;
}

export function parseNumeric(text: string): number | string {
  if (!/^[+-]?\d+(\.\d+)?$/.test(text)) return text; // NaN, Infinity
  return fitsDouble(text) ? Number(text) : text;
}

export function parseInt8(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

export function parseTimestamp(text: string): string {
  const m = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})?(?::?(\d{2}))?(?::?(\d{2}))?( BC)?$/.exec(
    text,
  );
  if (!m) return text;
  const [, date, time, offH, offM, offS, bc] = m;
  if (bc) return text;
  const offset = offH === undefined ? '' : `${offH}:${offM ?? '00'}${offS ? `:${offS}` : ''}`;
  return `${date}T${time}${offset === '+00:00' ? 'Z' : offset}`;
}

const identity = (text: string): string => text;

/** Type parsers for a pg.Pool serving SRS commands. */
export const srsPgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    if (format === undefined || format === 'text') {
      switch (oid) {
        case OID.int8:
          return parseInt8;
        case OID.numeric:
          return parseNumeric;
        case OID.date:
          return identity;
        case OID.timestamp:
        case OID.timestamptz:
          return parseTimestamp;
      }
    }
    return pg.types.getTypeParser(oid, format as 'text') as (value: string) => unknown;
  },
};
