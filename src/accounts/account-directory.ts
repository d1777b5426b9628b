// The paged account directory (for the admin console): search, filters, sorts and paging
// done by the database, so a page of 100,000 accounts costs what a page of 100 does. The sorts
// follow the indexes of migration 007-console-indexes (same expressions, or the index is not
// used); every sort ends in the unique normalized_username, so the order is total and paging by
// offset shows every account exactly once while nothing changes. `desc` reverses it entirely.
import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database, Db } from '../db/schema.js';
import { isoFromDate } from '../lib/time.js';
import { findAccountListRows } from './account-queries.js';
import { findTeamByShort } from '../teams/teams-repository.js';
import { accountListItem } from './account-views.js';
import { normalizeUsername } from '../identity/usernames.js';
import type { AccountListItem } from './account-shapes.js';

export const ACCOUNT_SORTS = ['username', 'name', 'created_at', 'last_activity', 'status'] as const;
export type AccountSort = (typeof ACCOUNT_SORTS)[number];
export const ACCOUNT_STATUSES = ['active', 'locked', 'cancelled'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export interface AccountPageQuery {
  /** Case-insensitive substring of the username, first name or last name. */
  q?: string;
  /** Exactly this account (compared as usernames are: case-insensitively). */
  username?: string;
  sort: AccountSort;
  order: 'asc' | 'desc';
  status?: AccountStatus;
  /** Accounts holding this role. */
  role?: string;
  /** Accounts in the team with this short name. */
  team?: string;
  limit: number;
  offset: number;
}

export interface DirectoryStats {
  count: number;
  locked: number;
  last_week: number;
  today: number;
}

export interface AccountPage {
  items: AccountListItem[];
  total: number;
  stats: DirectoryStats;
}

type UsersEb = ExpressionBuilder<Database, 'users'>;

/** LIKE's own characters taken literally (escape character `!`, the same on both databases). */
const likeContaining = (text: string) => `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;

function conditions(eb: UsersEb, q: AccountPageQuery, teamId: string | undefined, now: string): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  const text = q.q?.trim() ?? '';
  if (text !== '') {
    // normalized_username is the upper-cased username; the names are compared lower-cased (on
    // SQLite lower() and LIKE fold ASCII letters only, on PostgreSQL every letter).
    const upper = likeContaining(text.toUpperCase());
    const lower = likeContaining(text.toLowerCase());
    out.push(
      eb.or([
        sql<SqlBool>`users.normalized_username like ${upper} escape '!'`,
        sql<SqlBool>`lower(users.first_name) like ${lower} escape '!'`,
        sql<SqlBool>`lower(users.last_name) like ${lower} escape '!'`,
      ]),
    );
  }
  if (q.username !== undefined) out.push(eb('users.normalized_username', '=', normalizeUsername(q.username)));
  if (q.status === 'cancelled') out.push(eb('users.is_active', '=', 0));
  if (q.status === 'locked') out.push(eb.and([eb('users.is_active', '=', 1), eb('users.lockout_end', '>', now)]));
  if (q.status === 'active')
    out.push(
      eb.and([
        eb('users.is_active', '=', 1),
        eb.or([eb('users.lockout_end', 'is', null), eb('users.lockout_end', '<=', now)]),
      ]),
    );
  if (q.role !== undefined)
    out.push(
      eb.exists(
        eb
          .selectFrom('user_roles')
          .select('user_roles.role_name')
          .whereRef('user_roles.user_id', '=', 'users.id')
          .where('user_roles.role_name', '=', q.role),
      ),
    );
  if (teamId !== undefined)
    // The team's id, not its short name: each test is then one primary-key probe per account.
    out.push(
      eb.exists(
        eb
          .selectFrom('team_members')
          .select('team_members.team_id')
          .whereRef('team_members.user_id', '=', 'users.id')
          .where('team_members.team_id', '=', teamId),
      ),
    );
  return out;
}

/** The sort keys, most significant first; the last is always the unique normalized_username. */
function sortKeys(sort: AccountSort, now: string): Expression<unknown>[] {
  const username = sql`users.normalized_username`;
  switch (sort) {
    case 'username':
      return [username];
    case 'name':
      return [sql`lower(users.last_name)`, sql`lower(users.first_name)`, username];
    case 'created_at':
      return [sql`users.created_at`, username];
    case 'last_activity':
      // As shown (lastActivity): an account that never authenticated counts from its creation.
      return [sql`coalesce(users.last_activity, users.created_at)`, username];
    case 'status':
      // active, then locked, then cancelled (a cancelled account that is also locked is cancelled).
      return [sql`case when users.is_active = 0 then 2 when users.lockout_end > ${now} then 1 else 0 end`, username];
  }
}

/** Counts of the whole directory (not of a filter), as the spec's browse answers them. */
export async function directoryStats(db: Db, now: string): Promise<DirectoryStats> {
  const weekAgo = isoFromDate(new Date(Date.parse(now) - 7 * 86_400_000));
  const midnight = `${now.slice(0, 10)}T00:00:00.000000Z`;
  const count = async (where?: (eb: UsersEb) => Expression<SqlBool>) => {
    let query = db.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n'));
    if (where) query = query.where(where);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  // Activity counts use the recorded activity only (not the creation-time fallback of items).
  const [all, locked, lastWeek, today] = await Promise.all([
    count(),
    count((eb) => eb('users.lockout_end', '>', now)),
    count((eb) => eb('users.last_activity', '>=', weekAgo)),
    count((eb) => eb('users.last_activity', '>=', midnight)),
  ]);
  return { count: all, locked, last_week: lastWeek, today };
}

/** One page of the directory, its filter's total, and the directory's stats. */
export async function accountPage(db: Db, q: AccountPageQuery, now: string): Promise<AccountPage> {
  let teamId: string | undefined;
  if (q.team !== undefined) {
    const team = await findTeamByShort(db, q.team);
    if (!team) return { items: [], total: 0, stats: await directoryStats(db, now) };
    teamId = team.id;
  }
  const where = conditions(expressionBuilder<Database, 'users'>(), q, teamId, now);
  const filtered = db.selectFrom('users').where((eb) => eb.and(where));
  // The sort key's last column, not the id: every sort index ends in it, so skipping rows reads
  // the index alone (no table row per skipped account, however deep the offset).
  let page = filtered.select('users.normalized_username');
  for (const key of sortKeys(q.sort, now)) page = page.orderBy(key, q.order);
  const count = async () =>
    Number((await filtered.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  const filteredAtAll = where.length > 0;
  const [keys, stats, filteredTotal] = await Promise.all([
    page.limit(q.limit).offset(q.offset).execute(),
    directoryStats(db, now),
    // Without a filter the total is the directory's count, counted for the stats anyway.
    filteredAtAll ? count() : null,
  ]);
  // Then the list rows of that page only: the counts per account are never computed for skipped rows.
  const listed = await findAccountListRows(
    db,
    keys.map((k) => k.normalized_username),
  );
  const rows = new Map(listed.map((r) => [r.normalized_username, r]));
  const items = keys.flatMap(({ normalized_username }) => {
    const row = rows.get(normalized_username);
    // An account deleted between the two queries is left out rather than failing the page.
    return row ? [accountListItem(row, now)] : [];
  });
  return { items, total: filteredTotal ?? stats.count, stats };
}
