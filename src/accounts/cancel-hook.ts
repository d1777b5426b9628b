// The business hook [app].[user_cancel] (spec §3, §6). It runs inside the cancel's transaction,
// so whatever it writes commits or rolls back together with the cancellation.
//  - PostgreSQL: the function app.user_cancel(text) when it exists, called with the username;
//  - otherwise `hooks/user_cancel.sql` in the data directory, re-read on every cancel, run
//    statement by statement with the named parameters :username, :user_id, :cancelled_by.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { DialectName } from '../db/connect.js';
import { bindNamedParameters, splitStatements } from '../db/sql-text.js';

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

async function readHookFile(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new HookFailedError('sql_file', `cannot read ${path}: ${(err as Error).message}`);
  }
}

async function pgFunctionExists(trx: Transaction<Database>): Promise<boolean> {
  const r = await sql<{ present: boolean }>`select to_regprocedure('app.user_cancel(text)') is not null as present`.execute(trx);
  return r.rows[0]?.present === true;
}

export async function runCancelHook(trx: Transaction<Database>, dialect: DialectName, dataDir: string, params: CancelHookParams): Promise<HookKind> {
  if (dialect === 'postgresql' && (await pgFunctionExists(trx))) {
    try {
      await sql`select app.user_cancel(${params.username})`.execute(trx);
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
