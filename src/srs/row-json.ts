// SRS row values as JSON, the shape templates receive: used where the rows are read, on the
// main thread (PostgreSQL) or in an SQLite command process (sqlite-commands/), so the data
// looks the same whichever path ran the commands.

/** A row value as JSON: blobs as base64, big integers as numbers when exact, Dates as ISO text. */
export function jsonValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Array.isArray(v)) return v.map(jsonValue);
  if (typeof v === 'object')
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, jsonValue(x)]));
  return v;
}

/** Values JSON takes as they are. */
const isPlain = (v: unknown): boolean =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** A row as JSON. Rows of only plain values (the usual case) are kept as they are: copying each
 *  row cost about 2 µs, as much as reading it from SQLite. */
export function jsonRow(row: unknown): Record<string, unknown> {
  if (row !== null && typeof row === 'object' && Object.getPrototypeOf(row) === Object.prototype) {
    const r = row as Record<string, unknown>;
    let plain = true;
    for (const k in r) {
      if (!isPlain(r[k])) {
        plain = false;
        break;
      }
    }
    if (plain) return r;
  }
  return jsonValue(row) as Record<string, unknown>;
}

/** What a command contributes to the data: its rows, or with dtsingle the first row (null without rows). */
export function commandData(rows: readonly unknown[], single: boolean): unknown {
  return single ? (rows.length > 0 ? jsonRow(rows[0]) : null) : rows.map(jsonRow);
}
