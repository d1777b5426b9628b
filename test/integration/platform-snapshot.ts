// What report SQL must never read or change, for the escape corpora: the platform's rows as they
// are now, and every secret the platform keeps. Through the platform's own connection (Kysely),
// so the same helpers serve SQLite and PostgreSQL.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';

/** The platform's rows, one JSON text per table, in a stable order. Left out: last_activity,
 *  which the platform itself stamps as the test's own requests come in. */
export async function platformSnapshot(db: Kysely<Database>): Promise<Record<string, string>> {
  const users = await db.selectFrom('users').selectAll().orderBy('id').execute();
  const tables = {
    users: users.map(({ last_activity: _, ...rest }) => rest),
    teams: await db.selectFrom('teams').selectAll().orderBy('id').execute(),
    team_members: await db.selectFrom('team_members').selectAll().orderBy('user_id').orderBy('team_id').execute(),
    roles: await db.selectFrom('roles').selectAll().orderBy('name').execute(),
    user_roles: await db.selectFrom('user_roles').selectAll().orderBy('user_id').orderBy('role_name').execute(),
    tokens: await db.selectFrom('tokens').selectAll().orderBy('id').execute(),
    instance_settings: await db.selectFrom('instance_settings').selectAll().orderBy('key').execute(),
    audit_log: await db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .execute(),
  };
  return Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, JSON.stringify(rows)]));
}

/** Every secret the platform keeps: password hashes, security stamps, token hashes, the settings'
 *  values (the signing key, the app role's login) and the parts of the JSON ones. */
export async function platformSecrets(db: Kysely<Database>): Promise<string[]> {
  const users = await db.selectFrom('users').select(['password_hash', 'security_stamp']).execute();
  const tokens = await db.selectFrom('tokens').select('token_hash').execute();
  const settings = await db.selectFrom('instance_settings').select(['key', 'value']).execute();
  const secrets = [
    ...users.flatMap((u) => [u.password_hash ?? '', u.security_stamp]),
    ...tokens.map((t) => t.token_hash),
    // Seeds' hashes are digests of files in the apps directory, not secrets.
    ...settings.filter((s) => !s.key.startsWith('app_seed:')).flatMap((s) => [s.value, ...jsonStrings(s.value)]),
  ];
  // Long enough to be a secret rather than a common word (a user name inside a JSON value).
  return [...new Set(secrets.filter((s) => s.length >= 16))];
}

/** The secret fields of a JSON setting (the app role's password, not its name). */
function jsonStrings(text: string): string[] {
  try {
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== 'object') return [];
    return Object.entries(value)
      .filter(([k, v]) => /pass|secret|key/i.test(k) && typeof v === 'string')
      .map(([, v]) => v as string);
  } catch {
    return [];
  }
}

/** Every file under `dir` with its size and mtime: a file written or changed shows up. */
export function fileListing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(`${path} ${statSync(path).size} ${statSync(path).mtimeMs}`);
    }
  };
  walk(dir);
  return out.sort();
}

/** The cause a failed SRS command was logged with (its SQLSTATE as `code`), found by request id. */
export function commandFailureCause(logs: string, requestId: string | null): { code?: string; message?: string } {
  for (const line of logs.split('\n')) {
    if (!requestId || !line.includes(requestId)) continue;
    const entry = JSON.parse(line) as {
      requestId?: string;
      command?: string;
      err?: { code?: string; message?: string };
    };
    if (entry.requestId === requestId && entry.command !== undefined) return entry.err ?? {};
  }
  return {};
}
