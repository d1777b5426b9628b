// Timestamps are stored and exchanged as fixed-width ISO 8601 UTC strings with six fraction
// digits, so they sort lexicographically in both SQLite and PostgreSQL text columns.

const hrOrigin = performance.timeOrigin;

/** Current time in microseconds since the Unix epoch (ms clock plus the monotonic sub-ms part). */
export function nowMicros(): number {
  return Math.floor((hrOrigin + performance.now()) * 1000);
}

// Every response carries a timestamp: the millisecond part is formatted once per millisecond,
// and the three microsecond digits come from a table.
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
let cachedMs = Number.NaN;
let cachedPrefix = '';

/** `2026-11-22T10:00:00.123456Z` */
export function isoMicros(micros: number = nowMicros()): string {
  const ms = Math.floor(micros / 1000);
  if (ms !== cachedMs) {
    cachedMs = ms;
    cachedPrefix = new Date(ms).toISOString().slice(0, -1);
  }
  return `${cachedPrefix}${THREE_DIGITS[micros - ms * 1000]}Z`;
}

export function isoFromDate(d: Date): string {
  return isoMicros(d.getTime() * 1000);
}

/** Timestamp "without zone" of the token records: UTC, six fraction digits, no suffix. */
export function withoutZone(iso: string | null): string | null {
  return iso === null ? null : iso.replace(/Z$/, '');
}

/** The same instant written with an explicit `+00:00` offset. */
export function withUtcOffset(iso: string | null): string | null {
  return iso === null ? null : iso.replace(/Z$/, '+00:00');
}

export function addSeconds(iso: string, seconds: number): string {
  return isoFromDate(new Date(Date.parse(iso) + seconds * 1000));
}

/** Far-future lockout end used for an administrator's lock (ASP.NET Identity uses DateTimeOffset.MaxValue). */
export const LOCKED_FOREVER = '9999-12-31T23:59:59.999999Z';
