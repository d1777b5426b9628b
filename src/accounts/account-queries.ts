// Read queries behind the profile and the account directory.
import type { AccountListRow } from './account-views.js';
import type { Db, TeamRow } from '../db/schema.js';

function listQuery(db: Db) {
  return db
    .selectFrom('users')
    .innerJoin('teams', 'teams.id', 'users.team_id')
    .selectAll('users')
    .select((eb) => [
      'teams.name as team_name',
      eb
        .selectFrom('team_members')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('team_members.user_id', '=', 'users.id')
        .as('team_count'),
      eb
        .selectFrom('user_roles')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('user_roles.user_id', '=', 'users.id')
        .as('role_count'),
    ]);
}

export async function listAccounts(db: Db): Promise<AccountListRow[]> {
  return (await listQuery(db).orderBy('users.normalized_username').execute()) as AccountListRow[];
}

/** The list rows of the accounts with these normalized usernames (in no particular order). */
export async function findAccountListRows(db: Db, normalizedUsernames: readonly string[]): Promise<AccountListRow[]> {
  if (normalizedUsernames.length === 0) return [];
  const query = listQuery(db).where('users.normalized_username', 'in', normalizedUsernames);
  return (await query.execute()) as AccountListRow[];
}

export async function findAccountListRow(db: Db, userId: string): Promise<AccountListRow | undefined> {
  return (await listQuery(db).where('users.id', '=', userId).executeTakeFirst()) as AccountListRow | undefined;
}

export async function teamsOfUser(db: Db, userId: string): Promise<Array<{ team: TeamRow; level: string | null }>> {
  const rows = await db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['teams.id', 'teams.short', 'teams.name', 'teams.type', 'teams.created_at', 'team_members.level'])
    .where('team_members.user_id', '=', userId)
    .orderBy('teams.short')
    .execute();
  return rows.map(({ level, ...team }) => ({ team, level }));
}
