// Teams and memberships (administration beyond the spec, CONTRACT.md "Accounts": every account
// belongs to at least one team and has a primary team among them).
import type { Kysely } from 'kysely';
import type { Database, TeamRow } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../lib/errors.js';
import { findUserByUsername } from '../identity/users-repository.js';
import { addTeamMember, findTeamByShort, insertTeam } from './teams-repository.js';

export const TEAM_SHORT_PATTERN = '^[A-Za-z0-9_.-]{1,32}$';
export const TEAM_TYPES = ['internal', 'external'] as const;

export interface TeamItem {
  team_id: string;
  team_short: string;
  team_name: string;
  team_type: string;
  members: number;
}

const toItem = (t: TeamRow, members: number): TeamItem => ({
  team_id: t.id,
  team_short: t.short,
  team_name: t.name,
  team_type: t.type,
  members,
});

export class TeamService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly invalidate: (userId: string) => void,
  ) {}

  async list(): Promise<TeamItem[]> {
    const rows = await this.db
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
    return rows.map(({ members, ...t }) => toItem(t, Number(members)));
  }

  async create(short: string, name: string, type: string): Promise<TeamItem> {
    if (await findTeamByShort(this.db, short)) throw conflict('team_exists', `Team ${short} already exists`);
    return toItem(await insertTeam(this.db, short, name, type), 0);
  }

  private async members(teamId: string): Promise<number> {
    const r = await this.db
      .selectFrom('team_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', teamId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async addMember(short: string, username: string, level: string | null): Promise<TeamItem> {
    const team = await this.requireTeam(short);
    const user = await findUserByUsername(this.db, username);
    if (!user) throw notFound('user_not_found', `User ${username} not found`);
    await this.db.transaction().execute(async (trx) => {
      await addTeamMember(trx, user.id, team.id, level);
      if (level !== null)
        await trx
          .updateTable('team_members')
          .set({ level })
          .where('user_id', '=', user.id)
          .where('team_id', '=', team.id)
          .execute();
    });
    this.invalidate(user.id);
    return toItem(team, await this.members(team.id));
  }

  /** Removing the primary team moves the primary to another team; the last team stays. */
  async removeMember(short: string, username: string): Promise<TeamItem> {
    const team = await this.requireTeam(short);
    const user = await findUserByUsername(this.db, username);
    if (!user) throw notFound('user_not_found', `User ${username} not found`);
    await this.db.transaction().execute(async (trx) => {
      const memberships = await trx
        .selectFrom('team_members')
        .select('team_id')
        .where('user_id', '=', user.id)
        .execute();
      if (!memberships.some((m) => m.team_id === team.id))
        throw notFound('not_a_member', `${user.username} is not a member of ${team.short}`);
      const others = memberships.filter((m) => m.team_id !== team.id);
      if (others.length === 0)
        throw badRequest('last_team', 'Every account belongs to at least one team; add another team first');
      const current = await trx
        .selectFrom('users')
        .select('team_id')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      if (current.team_id === team.id)
        await trx.updateTable('users').set({ team_id: others[0]!.team_id }).where('id', '=', user.id).execute();
      await trx.deleteFrom('team_members').where('user_id', '=', user.id).where('team_id', '=', team.id).execute();
    });
    this.invalidate(user.id);
    return toItem(team, await this.members(team.id));
  }

  private async requireTeam(short: string): Promise<TeamRow> {
    const team = await findTeamByShort(this.db, short);
    if (!team) throw notFound('team_not_found', `Team ${short} not found`);
    return team;
  }
}
