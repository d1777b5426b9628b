// The business hook [app].[user_cancel] (docs/identity.md, The cancel hook). It runs inside the cancel's transaction,
// so whatever it writes commits or rolls back together with the cancellation.
//  - PostgreSQL: the function platform_hooks.user_cancel(text) when it exists, called with the
//    username. Its schema is the platform's (migration 008): the apps' SQL, which may create
//    functions in schema `app`, can create nothing there, so only a hook the operator installed
//    runs with the platform's rights. A function named user_cancel in schema `app` is never
//    called, and does not stop the cancellation either: it is ignored with a warning.
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

/** The PostgreSQL schema of the platform's hooks, which only the operator's roles can create in. */
const HOOK_SCHEMA = 'platform_hooks';

export interface CancelHookParams {
  username: string;
  user_id: string;
  cancelled_by: string;
}

export interface CancelHookOutcome {
  hook: HookKind;
  /** Functions found but not run, and why: for the log. */
  ignored: string[];
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
 * Whether platform_hooks.user_cancel(text) exists and may run, and what is ignored. It runs when
 * neither its owner nor its schema's is a role the app role can act as, and the app role may not
 * create in that schema: then report SQL can have neither made it nor added an overload that
 * would be called instead or make the call ambiguous.
 */
async function findPgHook(trx: Transaction<Database>): Promise<{ run: boolean; ignored: string[] }> {
  const r = await sql<{ present: boolean; trusted: boolean | null; in_app: string[] }>`
    with app_role as (select value::json->>'user' as name from instance_settings where key = ${APP_LOGIN_KEY})
    select p.oid is not null as present,
      not pg_catalog.pg_has_role(a.name, p.proowner, 'USAGE')
        and not pg_catalog.pg_has_role(a.name, n.nspowner, 'USAGE')
        and not pg_catalog.has_schema_privilege(a.name, n.oid, 'CREATE') as trusted,
      array(select q.oid::regprocedure::text from pg_catalog.pg_proc q join pg_catalog.pg_namespace m
            on m.oid = q.pronamespace where m.nspname = 'app' and q.proname = 'user_cancel' order by 1) as in_app
    from (select to_regprocedure(${`${HOOK_SCHEMA}.user_cancel(text)`}) as oid) f
    cross join app_role a
    left join pg_catalog.pg_proc p on p.oid = f.oid
    left join pg_catalog.pg_namespace n on n.oid = p.pronamespace`.execute(trx);
  const row = r.rows[0];
  const ignored = (row?.in_app ?? []).map(
    (f) => `${f}: the cancel hook is ${HOOK_SCHEMA}.user_cancel(text); schema app is the apps' to create in`,
  );
  if (row?.present !== true) return { run: false, ignored };
  if (row.trusted !== true) {
    ignored.push(
      `${HOOK_SCHEMA}.user_cancel(text): it or its schema is owned by, or open to, a role that report SQL can ` +
        'act as',
    );
    return { run: false, ignored };
  }
  return { run: true, ignored };
}

export async function runCancelHook(
  trx: Transaction<Database>,
  dialect: DialectName,
  dataDir: string,
  params: CancelHookParams,
): Promise<CancelHookOutcome> {
  const found = dialect === 'postgresql' ? await findPgHook(trx) : { run: false, ignored: [] };
  if (found.run) {
    try {
      await sql`select ${sql.id(HOOK_SCHEMA, 'user_cancel')}(cast(${params.username} as text))`.execute(trx);
    } catch (err) {
      throw new HookFailedError('pg_function', (err as Error).message);
    }
    return { hook: 'pg_function', ignored: found.ignored };
  }
  const script = await readHookFile(hookFilePath(dataDir));
  if (script === null) return { hook: 'none', ignored: found.ignored };
  for (const statement of splitStatements(script)) {
    const bound = bindNamedParameters(statement, { ...params }, { prefixes: [':'] });
    try {
      await bound.query.execute(trx);
    } catch (err) {
      throw new HookFailedError('sql_file', (err as Error).message);
    }
  }
  return { hook: 'sql_file', ignored: found.ignored };
}
