// GET /api/core/account/list: the account directory a page at a time (for the admin
// console). Paged by offset rather than a cursor: the console shows "page N of M" and jumps to
// any page, which a cursor cannot do, and the total it needs is counted anyway. The order is total
// (it ends in the unique username), so pages neither repeat nor skip an account while the
// directory is unchanged; an account added meanwhile shifts the later pages by one, as in any
// offset paging.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authSecurity, sendEnvelope, standardErrors, EnvelopeOf } from '../http/envelope.js';
import { ROLE_NAME_PATTERN } from '../accounts/roles-repository.js';
import { TEAM_SHORT_PATTERN } from '../teams/team-service.js';
import { ACCOUNT_SORTS, ACCOUNT_STATUSES } from '../accounts/account-directory.js';
import { AccountListItemSchema, Username } from '../accounts/account-shapes.js';
import type { ProfileService } from '../accounts/profile-service.js';
import { DirectoryStatsSchema } from './account-schemas.js';

export const ACCOUNT_PAGE_DEFAULT = 50;
export const ACCOUNT_PAGE_MAX = 200;
/** Deeper than any directory: a bound, so the number stays an ordinary integer in SQL. */
const MAX_OFFSET = 100_000_000;
const MAX_SEARCH = 100;

const literals = <T extends string>(values: readonly T[], opts: { default?: T; description?: string } = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    opts,
  );

const ListQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      maxLength: MAX_SEARCH,
      description: 'a case-insensitive part of the username, first name or last name (empty: every account)',
    }),
  ),
  username: Type.Optional(
    Type.String({ ...Username, description: 'exactly this account (an account page asks for its own item)' }),
  ),
  sort: Type.Optional(
    literals(ACCOUNT_SORTS, {
      default: 'username',
      description:
        'username; name (last name, first name, case-insensitive); created_at; last_activity (as lastActivity ' +
        'shows it); status (active, locked, cancelled). Ties are ordered by username',
    }),
  ),
  order: Type.Optional(literals(['asc', 'desc'] as const, { default: 'asc', description: 'desc reverses the order' })),
  status: Type.Optional(
    literals(ACCOUNT_STATUSES, {
      description: 'cancelled: not active; locked: active and locked now; active: neither',
    }),
  ),
  role: Type.Optional(Type.String({ pattern: ROLE_NAME_PATTERN, description: 'accounts holding this role' })),
  team: Type.Optional(
    Type.String({ pattern: TEAM_SHORT_PATTERN, description: 'accounts in the team with this short name' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ACCOUNT_PAGE_MAX, default: ACCOUNT_PAGE_DEFAULT })),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'accounts to skip (page × limit)' }),
  ),
});

const ListAnswer = EnvelopeOf(
  Type.Object({
    items: Type.Array(AccountListItemSchema),
    total: Type.Integer({ description: 'accounts matching q and the filters (all pages)' }),
    limit: Type.Integer(),
    offset: Type.Integer(),
    stats: DirectoryStatsSchema,
  }),
);

export const accountListRoutes: FastifyPluginAsyncTypebox<{ profiles: ProfileService }> = async (app, { profiles }) => {
  app.get('/api/core/account/list', {
    config: { roles: ['sys_administrator'] },
    schema: {
      tags: ['accounts'],
      security: authSecurity,
      summary: 'The account directory, a page at a time: searched, filtered and sorted (sys_administrator)',
      description:
        'Items are those of GET /api/core/account/browse; `total` counts the matches of `q` and the filters, ' +
        '`stats` the whole directory (as browse). A filter naming a role or team nobody has matches nothing.',
      querystring: ListQuery,
      response: { 200: ListAnswer, ...standardErrors },
    },
    handler: async (request, reply) => {
      const q = request.query;
      const limit = q.limit ?? ACCOUNT_PAGE_DEFAULT;
      const offset = q.offset ?? 0;
      const page = await profiles.page({
        ...(q.q !== undefined ? { q: q.q } : {}),
        ...(q.username !== undefined ? { username: q.username } : {}),
        sort: q.sort ?? 'username',
        order: q.order ?? 'asc',
        ...(q.status !== undefined ? { status: q.status } : {}),
        ...(q.role !== undefined ? { role: q.role } : {}),
        ...(q.team !== undefined ? { team: q.team } : {}),
        limit,
        offset,
      });
      return sendEnvelope(reply, { ...page, limit, offset }, `${page.items.length} of ${page.total} accounts`);
    },
  });
};
