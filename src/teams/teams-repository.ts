import { isoMicros } from '../lib/time.js';
import { newId } from '../lib/random.js';
import type { Db, TeamRow } from '../db/schema.js';
import { orConflict } from '../db/database-errors.js';
import { conflict } from '../lib/errors.js';

/** The team every account joins when created without one (docs/identity.md, Teams). */
export const DEFAULT_TEAM = { short: 'COM', name: 'Common', type: 'internal' } as const;

export async function findTeamByShort(db: Db, short: string): Promise<TeamRow | undefined> {
  return db.selectFrom('teams').selectAll().where('short', '=', short).executeTakeFirst();
}

export async function findTeamById(db: Db, id: string): Promise<TeamRow | undefined> {
  return db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertTeam(db: Db, short: string, name: string, type = 'internal'): Promise<TeamRow> {
  const team: TeamRow = { id: newId(), short, name, type, created_at: isoMicros() };
  await orConflict(db.insertInto('teams').values(team).execute(), () =>
    conflict('team_exists', `Team ${short} already exists`),
  );
  return team;
}

/** Creates the default team unless present; safe when several instances start at once. */
export async function ensureDefaultTeam(db: Db): Promise<TeamRow> {
  const existing = await findTeamByShort(db, DEFAULT_TEAM.short);
  if (existing) return existing;
  await db
    .insertInto('teams')
    .values({ id: newId(), ...DEFAULT_TEAM, created_at: isoMicros() })
    .onConflict((oc) => oc.column('short').doNothing())
    .execute();
  const team = await findTeamByShort(db, DEFAULT_TEAM.short);
  if (!team) throw new Error('default team could not be created');
  return team;
}

export async function addTeamMember(
  db: Db,
  userId: string,
  teamId: string,
  level: string | null = null,
): Promise<void> {
  await db
    .insertInto('team_members')
    .values({ user_id: userId, team_id: teamId, level })
    .onConflict((oc) => oc.columns(['user_id', 'team_id']).doNothing())
    .execute();
}

/** Every team with its number of members, ordered by short name. */
export async function listTeamsWithMemberCounts(db: Db): Promise<Array<TeamRow & { members: number }>> {
  const rows = await db
    .selectFrom('teams')
    .selectAll('teams')
    .select((eb) =>
      eb
        .selectFrom('team_members')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('team_members.team_id', '=', 'teams.id')
        .as('members'),
    )
    .orderBy('teams.short')
    .execute();
  return rows.map((r) => ({ ...r, members: Number(r.members) }));
}

export async function countMembers(db: Db, teamId: string): Promise<number> {
  const r = await db
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The teams a user belongs to, with the user's level in each. */
export async function membershipsOf(db: Db, userId: string): Promise<Array<{ team_id: string; level: string | null }>> {
  return db.selectFrom('team_members').select(['team_id', 'level']).where('user_id', '=', userId).execute();
}

export async function setMemberLevel(db: Db, userId: string, teamId: string, level: string | null): Promise<void> {
  await db
    .updateTable('team_members')
    .set({ level })
    .where('user_id', '=', userId)
    .where('team_id', '=', teamId)
    .execute();
}

export async function removeTeamMember(db: Db, userId: string, teamId: string): Promise<void> {
  await db.deleteFrom('team_members').where('user_id', '=', userId).where('team_id', '=', teamId).execute();
}

export async function isTeamMember(db: Db, userId: string, teamId: string): Promise<boolean> {
  const row = await db
    .selectFrom('team_members')
    .select('team_id')
    .where('user_id', '=', userId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The members of a team by username, with their level and whether it is their primary team. */
export async function teamMembers(
  db: Db,
  teamId: string,
): Promise<Array<{ username: string; level: string | null; primary: boolean; first_name: string; last_name: string }>> {
  const rows = await db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select(['users.username', 'team_members.level', 'users.team_id', 'users.first_name', 'users.last_name'])
    .where('team_members.team_id', '=', teamId)
    .orderBy('users.normalized_username')
    .execute();
  return rows.map(({ team_id, ...r }) => ({ ...r, primary: team_id === teamId }));
}
