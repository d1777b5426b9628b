// What a database error means for the client, decided by the driver's error code (PostgreSQL's
// SQLSTATE, SQLite's extended result code), never by message text, which changes with versions
// and locales. A lost or unreachable PostgreSQL connection fails with pg's own errors (no code)
// or Node's socket errors (ECONNRESET…, which a client hanging up on the HTTP server raises too):
// the pool that saw them wraps them as CONNECTION_LOST (pg-pool.ts), so only errors that came
// from a database connection are read as one.

/** A row that would duplicate a unique key (a parallel request won the race). */
export function isUniqueViolation(err: unknown): boolean {
  const code = errorCode(err);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * The database cannot serve the request now, through no fault of the request:
 * - `unavailable`: the connection was lost or could not be made, the server is shutting down or
 *   recovering, or a query of the platform's own ran past its time limit (a frozen server);
 * - `storage_full`: SQLite's disk (or the database's size limit) is full;
 * - `busy`: another process held SQLite's write lock longer than the busy timeout.
 * null for anything else (a bug, or a bad request the caller maps itself).
 */
export type DatabaseFault = 'unavailable' | 'storage_full' | 'busy';

/** The code of errors pg-pool.ts raises for a connection lost, refused or timed out. */
export const CONNECTION_LOST = 'PLATFORM_CONNECTION_LOST';

export function databaseFault(err: unknown): DatabaseFault | null {
  const code = errorCode(err);
  if (code === undefined) return null;
  if (code === CONNECTION_LOST) return 'unavailable';
  // SQLSTATE classes: 08 connection exception, 57P0x operator intervention (admin or crash
  // shutdown, cannot connect now, database dropped), 53 insufficient resources (too many
  // connections, out of memory or disk on the server), 57014 a cancelled statement (the
  // platform's statement timeout).
  if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[1-4]$/.test(code) || /^53[0-9A-Z]{3}$/.test(code) || code === '57014')
    return 'unavailable';
  if (code === 'SQLITE_FULL') return 'storage_full';
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED') return 'busy';
  if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN') return 'unavailable';
  return null;
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** `write`, with a unique violation turned into `conflictError()` (the caller's 409). */
export async function orConflict<T>(write: Promise<T>, conflictError: () => Error): Promise<T> {
  try {
    return await write;
  } catch (err) {
    throw isUniqueViolation(err) ? conflictError() : err;
  }
}
