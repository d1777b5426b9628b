// App SQL on PostgreSQL (SRS commands, app seeds) runs as the apps' role (db/app-data.ts): within
// its transaction `SET LOCAL ROLE platform_core_app` and `SET LOCAL search_path = app`, so it
// reads and writes the apps' tables by their plain names and has no right on the platform's.
//
// The connection still belongs to the platform's user, and SQL could step back out: `RESET
// ROLE`, `SET ROLE …`, `set_config('role', …)`, or a `COMMIT` that ends the transaction and with
// it the SET LOCAL. Privileges are checked when a statement starts, so what one statement did
// only matters to the next: after every statement the guard checks that the role is still the
// apps' and the transaction still the one it started in, and otherwise fails the run, before
// another statement can use what was regained (its rows are discarded with the transaction).
import { sql, type Transaction } from 'kysely';
import { APP_ROLE, APP_SCHEMA } from '../db/app-data.js';

/** The SQL left the apps' role or its transaction. */
export class AppRoleEscapeError extends Error {}

export type AppRoleGuard = () => Promise<void>;

interface SessionState {
  who: string;
  started: string;
}

const state = async (trx: Transaction<any>): Promise<SessionState | undefined> =>
  (await sql<SessionState>`select current_user as who, now()::text as started`.execute(trx)).rows[0];

/** Switches the transaction to the apps' role; call the guard after every statement of app SQL. */
export async function enterAppRole(trx: Transaction<any>): Promise<AppRoleGuard> {
  await sql`set local role ${sql.id(APP_ROLE)}`.execute(trx);
  await sql`set local search_path = ${sql.id(APP_SCHEMA)}`.execute(trx);
  const start = await state(trx);
  if (start?.who !== APP_ROLE) throw new AppRoleEscapeError(`cannot switch to the role ${APP_ROLE}`);
  return async () => {
    const now = await state(trx);
    if (now?.who !== APP_ROLE) throw new AppRoleEscapeError(`the SQL switched from the role ${APP_ROLE} to ${now?.who ?? 'another'}`);
    if (now.started !== start.started) throw new AppRoleEscapeError('the SQL ended its transaction');
  };
}

/** Back to the platform's own user and search path, for the platform's writes in the same transaction. */
export async function leaveAppRole(trx: Transaction<any>): Promise<void> {
  await sql`reset role`.execute(trx);
  await sql`reset search_path`.execute(trx);
}
