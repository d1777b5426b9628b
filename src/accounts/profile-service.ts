// The profile, its update (docs/api.md, Accounts: the field rules) and the account directory.
import type { Kysely } from 'kysely';
import type { Database, UserUpdate } from '../db/schema.js';
import { invalid, notFound } from '../lib/errors.js';
import { isoMicros } from '../lib/time.js';
import { VERSION } from '../lib/version.js';
import { appsForRoles, listApps } from '../apps/apps-directory.js';
import type { AccountListItem, ProfileTeam, ProfileUpdate, ProfileUser } from './account-shapes.js';
import { findUserByUsername, updateUser, userRoleNames } from '../identity/users-repository.js';
import { findTeamById, isTeamMember } from '../teams/teams-repository.js';
import { listAccounts, teamsOfUser } from './account-queries.js';
import { accountListItem, profileTeam, profileUser } from './account-views.js';
import {
  accountPage,
  directoryStats,
  type AccountPage,
  type AccountPageQuery,
  type DirectoryStats,
} from './account-directory.js';
import { recordAudit } from '../audit/audit-repository.js';
import type { AuditActor } from '../audit/audit-actions.js';

export const PROFILE_DATASETS = ['user', 'teams', 'roles', 'apps'] as const;

export interface ProfileData {
  instance?: Record<string, string>;
  user: ProfileUser;
  teams?: ProfileTeam[];
  roles?: string[];
  apps?: string[];
}

export const MAX_PROPERTIES_BYTES = 64 * 1024;

/** `pscope`: omitted or naming teams/roles/apps → every dataset; `user` alone → only data.user. */
export function parseScope(pscope: string | undefined): 'all' | 'user' {
  if (pscope === undefined || pscope.trim() === '') return 'all';
  const names = pscope
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((n) => !(PROFILE_DATASETS as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw invalid(
      'invalid_input',
      `pscope: unknown dataset ${unknown.join(', ')} (known: ${PROFILE_DATASETS.join(', ')})`,
      [{ field: 'pscope', rule: 'enum', message: `unknown dataset ${unknown.join(', ')}` }],
    );
  }
  return names.every((n) => n === 'user') ? 'user' : 'all';
}

/** An avatar is an https URL or a path on this server; nothing that could run script. */
export function isAcceptableAvatar(v: string): boolean {
  if (/[\s\u0000-\u001f\u007f]/.test(v)) return false;
  if (v.startsWith('/') && !v.startsWith('//')) return true;
  try {
    return new URL(v).protocol === 'https:';
  } catch {
    return false;
  }
}

export class ProfileService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly opts: {
      appsDir: string;
      ownerName: string;
      publicUrl: string | null;
      invalidate: (userId: string) => void;
    },
  ) {}

  async profile(username: string, scope: 'all' | 'user', requestOrigin: string): Promise<ProfileData> {
    const user = await findUserByUsername(this.db, username);
    if (!user) throw notFound('user_not_found', `User ${username} not found`);
    const primary = await findTeamById(this.db, user.team_id);
    if (!primary) throw notFound('team_not_found', 'The primary team of the user is missing');
    const data: ProfileData = { user: profileUser(user, primary) };
    if (scope === 'user') return data;
    const roles = await userRoleNames(this.db, user.id);
    return {
      instance: {
        'kv.v.api.version': VERSION,
        'kv.v.api.url': this.opts.publicUrl ?? requestOrigin,
        'kv.v.owner.name': this.opts.ownerName,
      },
      user: data.user,
      teams: (await teamsOfUser(this.db, user.id)).map(({ team, level }) => profileTeam(team, level)),
      roles,
      apps: appsForRoles(listApps(this.opts.appsDir), roles),
    };
  }

  /** Applies every field or none. Shape rules are checked by the route schema before this. */
  /** `by` another account than the user's own (an administrator) is recorded in the audit trail. */
  async update(by: AuditActor, username: string, input: ProfileUpdate): Promise<ProfileUser> {
    if (
      input.user_properties !== undefined &&
      Buffer.byteLength(JSON.stringify(input.user_properties)) > MAX_PROPERTIES_BYTES
    ) {
      throw invalid('invalid_input', 'user_properties must be at most 64 KiB of JSON', [
        { field: 'user_properties', rule: 'maxBytes', message: 'user_properties is larger than 64 KiB' },
      ]);
    }
    if (input.user_avatar !== undefined && input.user_avatar !== null && !isAcceptableAvatar(input.user_avatar)) {
      throw invalid('invalid_input', 'user_avatar must be an https URL or a relative URL', [
        { field: 'user_avatar', rule: 'url', message: 'user_avatar must be an https or relative URL' },
      ]);
    }
    const changes: UserUpdate = {};
    if (input.phonenumber !== undefined) changes.phone_number = input.phonenumber;
    if (input.user_currency !== undefined) changes.currency = input.user_currency;
    if (input.user_first_name !== undefined) changes.first_name = input.user_first_name;
    if (input.user_last_name !== undefined) changes.last_name = input.user_last_name;
    if (input.user_color !== undefined) changes.color = input.user_color.toUpperCase();
    if (input.user_short !== undefined) changes.short = input.user_short;
    if (input.user_properties !== undefined) changes.properties = JSON.stringify(input.user_properties);
    if (input.user_avatar !== undefined) changes.avatar = input.user_avatar;
    if (input.user_home !== undefined) changes.home = input.user_home;

    const userId = await this.db.transaction().execute(async (trx) => {
      const user = await findUserByUsername(trx, username);
      if (!user) throw notFound('user_not_found', `User ${username} not found`);
      if (input.team_id !== undefined) {
        if (!(await isTeamMember(trx, user.id, input.team_id)))
          throw invalid('invalid_input', 'team_id must be a team the user belongs to', [
            { field: 'team_id', rule: 'membership', message: 'team_id is not a team of the user' },
          ]);
        changes.team_id = input.team_id;
      }
      if (Object.keys(changes).length > 0) await updateUser(trx, user.id, changes);
      if (by.userId !== user.id)
        await recordAudit(trx, {
          action: 'profile_update',
          by,
          subject: user.username,
          subjectId: user.id,
          data: { fields: Object.keys(changes) },
        });
      return user.id;
    });
    this.opts.invalidate(userId);
    const updated = await this.profile(username, 'user', '');
    return updated.user;
  }

  async directory(): Promise<{ items: AccountListItem[]; stats: DirectoryStats }> {
    const now = isoMicros();
    const [rows, stats] = await Promise.all([listAccounts(this.db), directoryStats(this.db, now)]);
    return { items: rows.map((r) => accountListItem(r, now)), stats };
  }

  /** One page of the directory (account-directory.ts): searched, filtered, sorted, with its total. */
  async page(query: AccountPageQuery): Promise<AccountPage> {
    return accountPage(this.db, query, isoMicros());
  }
}
