// Changes that authentication caches must forget at once on every instance: an account's stamp,
// lock, activity or roles, or a deleted token. On PostgreSQL the change announces itself with a
// NOTIFY sent inside its own transaction, so it is delivered only on commit and only then (an
// instance evicting before the commit would reload and cache the old state); every instance
// listens (auth-change-listener.ts). SQLite has no NOTIFY: the server polls the database file's
// change counter instead (sqlite-change-poller.ts), so announcing is a no-op there.
//
// This module owns the channel, the payload and the sending; call announceAuthChange with the
// transaction that makes the change.
import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';

export const AUTH_CHANGES_CHANNEL = 'platform_core_auth_changes';

/** What to evict: accounts by user id, tokens by token id; `all` when the list would not fit. */
export interface AuthChange {
  users: string[];
  tokens: string[];
  all?: boolean;
}

/** NOTIFY payloads must stay under 8000 bytes; a larger change evicts everything instead. */
const MAX_PAYLOAD_BYTES = 7000;

export function encodeAuthChange(change: { users?: readonly string[]; tokens?: readonly string[] }): string {
  const text = JSON.stringify({ u: change.users ?? [], t: change.tokens ?? [] });
  return Buffer.byteLength(text) <= MAX_PAYLOAD_BYTES ? text : JSON.stringify({ all: true });
}

/** Parses a payload; anything unreadable means "evict everything" (never trust a partial read). */
export function decodeAuthChange(payload: string | undefined): AuthChange {
  try {
    const v = JSON.parse(payload ?? '') as { u?: unknown; t?: unknown; all?: unknown };
    const ids = (x: unknown): string[] | null =>
      Array.isArray(x) && x.every((s) => typeof s === 'string') ? (x as string[]) : null;
    const users = ids(v.u);
    const tokens = ids(v.t);
    if (v.all !== true && users && tokens) return { users, tokens };
  } catch {
    // fall through
  }
  return { users: [], tokens: [], all: true };
}

type Db = Kysely<any> | Transaction<any>;

const isPostgres = (db: Db): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Tells every instance to evict these accounts and tokens, when `db`'s transaction commits
 * (PostgreSQL). A no-op on SQLite, whose server sees commits of other processes by polling.
 */
export async function announceAuthChange(
  db: Db,
  change: { users?: readonly string[]; tokens?: readonly string[] },
): Promise<void> {
  if ((change.users?.length ?? 0) + (change.tokens?.length ?? 0) === 0 || !isPostgres(db)) return;
  await sql`select pg_notify(${AUTH_CHANGES_CHANNEL}, ${encodeAuthChange(change)})`.execute(db);
}
