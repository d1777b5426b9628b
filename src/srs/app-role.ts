// App SQL on PostgreSQL (SRS commands, app seeds) runs on connections that log in as the
// database's app role (db/app-data.ts): no right on the platform's tables, and no role to step
// back to. Each of its transactions names the apps' schema as its search path, so the apps'
// tables are found by their plain names whatever an earlier run left set on the connection.
import { CompiledQuery, Kysely, PostgresDialect, sql, type PostgresPool } from 'kysely';
import type { Database } from '../db/schema.js';
import { APP_LOGIN_KEY, APP_SCHEMA } from '../db/app-data.js';
import { srsPgTypes } from './pg-types.js';
import { createPgPool, type PoolUse } from '../db/pg-pool.js';

export interface AppLogin {
  user: string;
  password: string;
}

/** The app role's login, made by migration 003. */
export async function loadAppLogin(db: Kysely<Database>): Promise<AppLogin> {
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', APP_LOGIN_KEY)
    .executeTakeFirst();
  const login = row ? (JSON.parse(row.value) as Partial<AppLogin>) : {};
  if (typeof login.user !== 'string' || typeof login.password !== 'string')
    throw new Error(`the app role's login (${APP_LOGIN_KEY}) is missing: run the migrations`);
  return { user: login.user, password: login.password };
}

/** The platform's database URL with the app role's user and password. */
export function appDatabaseUrl(databaseUrl: string, login: AppLogin): string {
  const url = new URL(databaseUrl);
  url.username = encodeURIComponent(login.user);
  url.password = encodeURIComponent(login.password);
  return url.toString();
}

export interface AppPoolLimits {
  size: number;
  connectTimeoutMs: number;
  /** The SRS statement limit; each transaction also sets it (connection-commands.ts). */
  statementTimeoutMs: number;
}

/** SQLSTATE of a login refused for its password. */
const INVALID_PASSWORD = '28P01';

/** A pool of app-role connections (SRS commands and seeds), with the SRS row types (pg-types.ts),
 *  and its use now (metrics). `restoreLogin` (restoreAppLogin) runs when a login is refused for
 *  its password, before one more try. */
export function openAppDatabase(
  databaseUrl: string,
  login: AppLogin,
  limits: AppPoolLimits,
  restoreLogin?: () => Promise<void>,
  // biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
): { db: Kysely<any>; use: () => PoolUse } {
  const { pool, use } = createPgPool({
    connectionString: appDatabaseUrl(databaseUrl, login),
    max: limits.size,
    connectTimeoutMs: limits.connectTimeoutMs,
    statementTimeoutMs: limits.statementTimeoutMs,
    // Past the server's own cancel and the platform's terminate (backend-watchdog.ts): for a
    // server that does not answer at all.
    queryTimeoutMs: limits.statementTimeoutMs + 5_000,
    applicationName: 'platform-core-reports',
    types: srsPgTypes,
  });
  const healing: PostgresPool = {
    async connect() {
      try {
        return await pool.connect();
      } catch (err) {
        if (!restoreLogin || (err as { code?: unknown }).code !== INVALID_PASSWORD) throw err;
        await restoreLogin();
        return pool.connect();
      }
    },
    end: () => pool.end(),
  };
  // biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
  return { db: new Kysely<any>({ dialect: new PostgresDialect({ pool: healing }) }), use };
}

/**
 * Puts the app role's kept password back. PostgreSQL lets every role change its own password,
 * report SQL included (`ALTER ROLE CURRENT_USER PASSWORD …`); new connections of the pool would
 * then be refused until an administrator stepped in. Runs on a platform connection acting as the
 * app role for the one statement (the platform's role is its member), so it needs no CREATEROLE.
 */
export async function restoreAppLogin(db: Kysely<Database>, login: AppLogin): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_catalog.set_config('role', ${login.user}, true)`.execute(trx);
    // ALTER ROLE takes no bound parameters: the server quotes them.
    const { rows } = await sql<{ stmt: string }>`
      select pg_catalog.format('alter role %I password %L', cast(${login.user} as text),
                               cast(${login.password} as text)) as stmt`.execute(trx);
    await sql.raw(rows[0]!.stmt).execute(trx);
  });
}

/** First thing in each app transaction (`trx`: the transaction, or the connection it runs on). */
// biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
export async function useAppSchema(trx: Kysely<any>): Promise<void> {
  await trx.executeQuery(CompiledQuery.raw(`set local search_path = ${APP_SCHEMA}`));
}
