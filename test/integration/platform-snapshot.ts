// What report SQL must never read or change: the platform's rows, and the secrets among them.
// Escape tests take a snapshot before and compare after, and scan answers for the secrets.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';

/** Columns that change as the platform itself serves requests (activity, token use). */
const VOLATILE: Record<string, string[]> = { users: ['last_activity'], tokens: ['used_at'] };
const TABLES = [
  'users',
  'teams',
  'team_members',
  'roles',
  'user_roles',
  'tokens',
  'instance_settings',
  'audit_log',
] as const;

/** Every platform table's rows, in a stable order, without the columns the platform updates itself. */
export async function platformSnapshot(db: Kysely<Database>): Promise<Record<string, unknown[]>> {
  const snapshot: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows;
    const drop = VOLATILE[table] ?? [];
    snapshot[table] = rows
      .map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !drop.includes(k))))
      .map((row) => JSON.stringify(row))
      .sort();
  }
  return snapshot;
}

/** The secret values kept in the platform's tables: password hashes, stamps, token hashes, settings. */
export async function platformSecrets(db: Kysely<Database>): Promise<string[]> {
  const users = await db.selectFrom('users').select(['password_hash', 'security_stamp']).execute();
  const tokens = await db.selectFrom('tokens').select('token_hash').execute();
  const settings = await db.selectFrom('instance_settings').select('value').execute();
  return [
    ...users.flatMap((u) => [u.password_hash, u.security_stamp]),
    ...tokens.map((t) => t.token_hash),
    // Seeds' digests and other short values are not secrets worth scanning for.
    ...settings.map((s) => s.value).filter((v) => v.length >= 32 && !/^[0-9a-f]{64}$/.test(v)),
  ].filter((v): v is string => typeof v === 'string' && v.length >= 16);
}
