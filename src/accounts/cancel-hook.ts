// The business hook [app].[user_cancel] (spec §3, §6). It runs inside the cancel's transaction,
// so whatever it writes commits or rolls back together with the cancellation.
//  - PostgreSQL: the function app.user_cancel(text) when it exists, called with the username;
//  - otherwise `hooks/user_cancel.sql` in the data directory, re-read on every cancel, run
//    statement by statement with the named parameters :username, :user_id, :cancelled_by.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { DialectName } from '../db/connect.js';
import { bindNamedParameters, splitStatements } from '../db/sql-text.js';
import { APP_LOGIN_KEY } from '../db/app-data.js';

export type HookKind = 'none' | 'sql_file' | 'pg_function';

export interface CancelHookParams {
  username: string;
  user_id: string;
  cancelled_by: string;
}

export class HookFailedError extends Error {
  constructor(
    readonly hook: HookKind,
    message: string,
  ) {
    super(message);
  }
}

export const hookFilePath = (dataDir: string): string => join(dataDir, 'hooks', 'user_cancel.sql');

/** Whether the operator installed the hook file (on SQLite the only hook there is). */
export const cancelHookInstalled = (dataDir: string): boolean => existsSync(hookFilePath(dataDir));

async function readHookFile(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new HookFailedError('sql_file', `cannot read ${path}: ${(err as Error).message}`);
  }
}

/**
 * Whether app.user_cancel(text) exists, and may run. Schema `app` is the apps' (db/app-data.ts):
 * their SQL may create functions there, so a function the app role could have made or replaced
 * would run app SQL with the platform's rights. Only one owned by a role the app role cannot act
 * as is called; another is a failed hook.
 */
async function pgFunctionExists(trx: Transaction<Database>): Promise<boolean> {
  const r = await sql<{ present: boolean; trusted: boolean | null }>`
    select p.oid is not null as present,
      not pg_has_role((select value::json->>'user' from instance_settings where key = ${APP_LOGIN_KEY}),
                      p.proowner, 'USAGE') as trusted
    from (select to_regprocedure('app.user_cancel(text)') as oid) f
    left join pg_proc p on p.oid = f.oid`.execute(trx);
  const row = r.rows[0];
  if (row?.present !== true) return false;
  if (row.trusted !== true)
    throw new HookFailedError(
      'pg_function',
      'app.user_cancel(text) is owned by a role that report SQL can act as; it is not run',
    );
  return true;
}

export async function runCancelHook(
  trx: Transaction<Database>,
  dialect: DialectName,
  dataDir: string,
  params: CancelHookParams,
): Promise<HookKind> {
  if (dialect === 'postgresql' && (await pgFunctionExists(trx))) {
    try {
      await sql`select app.user_cancel(cast(${params.username} as text))`.execute(trx);
    } catch (err) {
      throw new HookFailedError('pg_function', (err as Error).message);
    }
    return 'pg_function';
  }
  const script = await readHookFile(hookFilePath(dataDir));
  if (script === null) return 'none';
  for (const statement of splitStatements(script)) {
    const bound = bindNamedParameters(statement, { ...params }, { prefixes: [':'] });
    try {
      await bound.query.execute(trx);
    } catch (err) {
      throw new HookFailedError('sql_file', (err as Error).message);
    }
  }
  return 'sql_file';
}
