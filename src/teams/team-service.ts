// Teams and memberships (docs/identity.md, Teams: every account
// belongs to at least one team and has a primary team among them).
import type { Kysely } from 'kysely';
import type { Database, TeamRow } from '../db/schema.js';
import { invalid, conflict, notFound } from '../lib/errors.js';
import { findUserByUsername, primaryTeamId, setPrimaryTeam } from '../identity/users-repository.js';
import {
  addTeamMember,
  countMembers,
  findTeamByShort,
  insertTeam,
  listTeamsWithMemberCounts,
  membershipsOf,
  removeTeamMember,
  setMemberLevel,
  teamMembers,
} from './teams-repository.js';
import { recordAudit } from '../audit/audit-repository.js';
import type { AuditActor } from '../audit/audit-actions.js';

export const TEAM_SHORT_PATTERN = '^[A-Za-z0-9_.-]{1,32}$';
export const TEAM_TYPES = ['internal', 'external'] as const;

export interface TeamItem {
  team_id: string;
  team_short: string;
  team_name: string;
  team_type: string;
  members: number;
}

export interface TeamMemberItem {
  username: string;
  teamuser_lvl: string | null;
  /** Whether this team is the member's primary team. */
  primary: boolean;
  user_first_name: string;
  user_last_name: string;
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
    const rows = await listTeamsWithMemberCounts(this.db);
    return rows.map(({ members, ...t }) => toItem(t, members));
  }

  /** The team and its members, by username. */
  async members(short: string): Promise<{ team: TeamItem; items: TeamMemberItem[] }> {
    const team = await this.requireTeam(short);
    const items = (await teamMembers(this.db, team.id)).map((m) => ({
      username: m.username,
      teamuser_lvl: m.level,
      primary: m.primary,
      user_first_name: m.first_name,
      user_last_name: m.last_name,
    }));
    return { team: toItem(team, items.length), items };
  }

  async create(by: AuditActor, short: string, name: string, type: string): Promise<TeamItem> {
    if (await findTeamByShort(this.db, short)) throw conflict('team_exists', `Team ${short} already exists`);
    const team = await this.db.transaction().execute(async (trx) => {
      const created = await insertTeam(trx, short, name, type);
      await recordAudit(trx, { action: 'team_create', by, subject: created.short, data: { name, type } });
      return created;
    });
    return toItem(team, 0);
  }

  async addMember(by: AuditActor, short: string, username: string, level: string | null): Promise<TeamItem> {
    const team = await this.requireTeam(short);
    const user = await findUserByUsername(this.db, username);
    if (!user) throw notFound('user_not_found', `User ${username} not found`);
    await this.db.transaction().execute(async (trx) => {
      await addTeamMember(trx, user.id, team.id, level);
      if (level !== null) await setMemberLevel(trx, user.id, team.id, level);
      await recordAudit(trx, {
        action: 'team_member_add',
        by,
        subject: user.username,
        subjectId: user.id,
        data: { team: team.short, level },
      });
    });
    this.invalidate(user.id);
    return toItem(team, await countMembers(this.db, team.id));
  }

  /** Removing the primary team moves the primary to another team; the last team stays. */
  async removeMember(by: AuditActor, short: string, username: string): Promise<TeamItem> {
    const team = await this.requireTeam(short);
    const user = await findUserByUsername(this.db, username);
    if (!user) throw notFound('user_not_found', `User ${username} not found`);
    await this.db.transaction().execute(async (trx) => {
      const memberships = await membershipsOf(trx, user.id);
      if (!memberships.some((m) => m.team_id === team.id))
        throw notFound('not_a_member', `${user.username} is not a member of ${team.short}`);
      const others = memberships.filter((m) => m.team_id !== team.id);
      if (others.length === 0)
        throw invalid('last_team', 'Every account belongs to at least one team; add another team first');
      if ((await primaryTeamId(trx, user.id)) === team.id) await setPrimaryTeam(trx, user.id, others[0]!.team_id);
      await removeTeamMember(trx, user.id, team.id);
      await recordAudit(trx, {
        action: 'team_member_remove',
        by,
        subject: user.username,
        subjectId: user.id,
        data: { team: team.short },
      });
    });
    this.invalidate(user.id);
    return toItem(team, await countMembers(this.db, team.id));
  }

  private async requireTeam(short: string): Promise<TeamRow> {
    const team = await findTeamByShort(this.db, short);
    if (!team) throw notFound('team_not_found', `Team ${short} not found`);
    return team;
  }
}
