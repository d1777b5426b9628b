// App SQL on PostgreSQL (SRS commands, app seeds) runs on connections that log in as the
// database's app role (db/app-data.ts): no right on the platform's tables, and no role to step
// back to. Each of its transactions names the apps' schema as its search path, so the apps'
// tables are found by their plain names whatever an earlier run left set on the connection.
import { CompiledQuery, Kysely, PostgresDialect, type Transaction } from 'kysely';
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

/** A pool of app-role connections (SRS commands and seeds), with the SRS row types (pg-types.ts),
 *  and its use now (metrics). */
export function openAppDatabase(
  databaseUrl: string,
  login: AppLogin,
  limits: AppPoolLimits,
  // biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
): { db: Kysely<any>; use: () => PoolUse } {
  const { pool, use } = createPgPool({
    connectionString: appDatabaseUrl(databaseUrl, login),
    max: limits.size,
    connectTimeoutMs: limits.connectTimeoutMs,
    statementTimeoutMs: limits.statementTimeoutMs,
    // A margin over the server's own cancel, which answers with the command's own message.
    queryTimeoutMs: limits.statementTimeoutMs + 5_000,
    applicationName: 'platform-core-reports',
    types: srsPgTypes,
  });
  // biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
  return { db: new Kysely<any>({ dialect: new PostgresDialect({ pool }) }), use };
}

/** First thing in each app transaction. */
// biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
export async function useAppSchema(trx: Transaction<any>): Promise<void> {
  await trx.executeQuery(CompiledQuery.raw(`set local search_path = ${APP_SCHEMA}`));
}
