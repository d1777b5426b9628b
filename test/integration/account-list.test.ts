// GET /api/core/account/list, the paged account directory, on both databases. A few
// hundred accounts of every kind are written straight into the tables (argon2 for each would
// take minutes); the expected answer of every query is worked out here from the raw rows, by
// the documented rules, and compared with what the server pages out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import { ACCOUNT_ITEM_SHAPE, expectShape } from '../support/shapes.js';
import { ADMIN } from '../support/instance.js';
import { ensureRole } from '../../src/accounts/roles-repository.js';
import { ensureDefaultTeam, insertTeam } from '../../src/teams/teams-repository.js';

const N = 300;
const FIRST = ['anna', 'Bert', 'carla', 'DIRK', 'eva', 'Finn', 'gus_t', 'hugo'];
const LAST = ['Adler', 'becker', 'Cohen', 'de Vries', 'EBERT', 'fox', 'Gray', 'o%neil', ''];
const FUTURE = '2999-01-01T00:00:00.000000Z';
const PAST = '2001-01-01T00:00:00.000000Z';

interface Account {
  username: string;
  first: string;
  last: string;
  createdAt: string;
  lastActivity: string | null;
  isActive: boolean;
  lockoutEnd: string | null;
  roles: string[];
  teams: string[];
}

const iso = (day: number, sec: number) =>
  new Date(Date.UTC(2026, 0, 1 + day, 0, 0, sec)).toISOString().replace('Z', '000Z');

/** The oracle's rules, written from the README rather than from the implementation. */
const statusOf = (a: Account, now: string) =>
  !a.isActive ? 'cancelled' : a.lockoutEnd !== null && a.lockoutEnd > now ? 'locked' : 'active';
const STATUS_RANK = { active: 0, locked: 1, cancelled: 2 } as const;
const cmp = (x: string | number, y: string | number) => (x < y ? -1 : x > y ? 1 : 0);
type Key = (a: Account, now: string) => Array<string | number>;
const KEYS: Record<string, Key> = {
  username: (a) => [a.username.toUpperCase()],
  name: (a) => [a.last.toLowerCase(), a.first.toLowerCase(), a.username.toUpperCase()],
  created_at: (a) => [a.createdAt, a.username.toUpperCase()],
  last_activity: (a) => [a.lastActivity ?? a.createdAt, a.username.toUpperCase()],
  status: (a, now) => [STATUS_RANK[statusOf(a, now)], a.username.toUpperCase()],
};
function expectedOrder(accounts: Account[], sort: string, order: 'asc' | 'desc', now: string): string[] {
  const key = KEYS[sort]!;
  const sorted = [...accounts].sort((a, b) => {
    const ka = key(a, now);
    const kb = key(b, now);
    for (let i = 0; i < ka.length; i++) {
      const c = cmp(ka[i]!, kb[i]!);
      if (c !== 0) return c;
    }
    return 0;
  });
  return (order === 'desc' ? sorted.reverse() : sorted).map((a) => a.username);
}

describe.each(testDatabaseKinds())('GET /api/core/account/list on %s', (kind) => {
  let f: AccountsFixture;
  let plainJwt: string;
  let accounts: Account[];
  const list = (query: string, jwt: string | null = f.adminJwt) => f.as(jwt, 'GET', `/api/core/account/list?${query}`);

  /** Every page of a query, `limit` at a time, as the console walks them. */
  async function allPages(query: string, limit: number): Promise<{ usernames: string[]; totals: Set<number> }> {
    const usernames: string[] = [];
    const totals = new Set<number>();
    for (let offset = 0; ; offset += limit) {
      const r = await list(`${query}&limit=${limit}&offset=${offset}`);
      expect(r.status, r.text).toBe(200);
      totals.add(r.body.data.total);
      expect(r.body.data.limit).toBe(limit);
      expect(r.body.data.offset).toBe(offset);
      usernames.push(...r.body.data.items.map((i: { username: string }) => i.username));
      if (r.body.data.items.length < limit) break;
    }
    return { usernames, totals };
  }

  beforeAll(async () => {
    f = await startAccountsFixture(kind);
    plainJwt = await f.user('plain.user', { roles: ['sys_tokens'], firstName: 'Plain', lastName: 'User' });
    const db = f.inst.services.database.db;
    const com = await ensureDefaultTeam(db);
    const sales = await insertTeam(db, 'SALES', 'Sales');
    await ensureRole(db, 'app_demo');
    const hash = (await db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow()).password_hash;
    const rows = [];
    const members = [];
    const roles = [];
    for (let i = 0; i < N; i++) {
      const id = crypto.randomUUID();
      // Mixed case and the characters LIKE treats specially, so search and sort see them.
      const username = `${i % 3 === 0 ? 'User' : 'user'}${i % 7 === 0 ? '_' : '.'}${String(i).padStart(3, '0')}`;
      const state = i % 10;
      rows.push({
        id,
        username,
        normalized_username: username.toUpperCase(),
        password_hash: hash,
        security_stamp: 'seed',
        email_confirmed: 0,
        phone_number: '',
        lockout_enabled: 1,
        // 1: locked, 2: lock expired (active), 3: cancelled, 4: cancelled and locked
        lockout_end: state === 1 || state === 4 ? FUTURE : state === 2 ? PAST : null,
        is_active: state === 3 || state === 4 ? 0 : 1,
        // Ties on purpose: the order must then fall back to the username.
        created_at: iso(i % 40, i % 5),
        last_activity: i % 4 === 0 ? null : iso(i % 60, 0),
        team_id: i % 5 === 0 ? sales.id : com.id,
        app_name: '',
        first_name: FIRST[i % FIRST.length]!,
        last_name: LAST[i % LAST.length]!,
        home: null,
        color: null,
        short: null,
        currency: 'EUR',
        avatar: null,
        properties: '{}',
      });
      members.push({ user_id: id, team_id: com.id, level: null });
      if (i % 5 === 0) members.push({ user_id: id, team_id: sales.id, level: null });
      if (i % 6 === 0) roles.push({ user_id: id, role_name: 'app_demo' });
    }
    await db.insertInto('users').values(rows).execute();
    await db.insertInto('team_members').values(members).execute();
    await db.insertInto('user_roles').values(roles).execute();

    // The oracle's view: every account as stored, read with plain queries.
    const users = await db.selectFrom('users').selectAll().execute();
    const held = await db.selectFrom('user_roles').selectAll().execute();
    const teamRows = await db
      .selectFrom('team_members')
      .innerJoin('teams', 'teams.id', 'team_members.team_id')
      .select(['team_members.user_id', 'teams.short'])
      .execute();
    accounts = users.map((u) => ({
      username: u.username,
      first: u.first_name,
      last: u.last_name,
      createdAt: u.created_at,
      lastActivity: u.last_activity,
      isActive: u.is_active === 1,
      lockoutEnd: u.lockout_end,
      roles: held.filter((r) => r.user_id === u.id).map((r) => r.role_name),
      teams: teamRows.filter((t) => t.user_id === u.id).map((t) => t.short),
    }));
    expect(accounts.length).toBe(N + 2);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it('pages through every account exactly once, in the order of each sort, both ways', async () => {
    const now = new Date().toISOString();
    // The two accounts in use have a last activity of "now", written in the background at most
    // once a minute: their place in that sort is checked by set only.
    const live = new Set([ADMIN.username, 'plain.user']);
    for (const sort of Object.keys(KEYS))
      for (const order of ['asc', 'desc'] as const) {
        const { usernames, totals } = await allPages(`sort=${sort}&order=${order}`, 37);
        const expected = expectedOrder(accounts, sort, order, now);
        expect([...totals], `${sort} ${order}`).toEqual([accounts.length]);
        expect([...usernames].sort(), `${sort} ${order}: each once`).toEqual([...expected].sort());
        const settled = (names: string[]) => (sort === 'last_activity' ? names.filter((n) => !live.has(n)) : names);
        expect(settled(usernames), `${sort} ${order}`).toEqual(settled(expected));
      }
  });

  it('defaults: sort by username ascending, 50 a page, from the first', async () => {
    const r = await list('');
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.limit).toBe(50);
    expect(r.body.data.offset).toBe(0);
    expect(r.body.data.items.map((i: { username: string }) => i.username)).toEqual(
      expectedOrder(accounts, 'username', 'asc', new Date().toISOString()).slice(0, 50),
    );
    expect(r.body.message).toBe(`50 of ${accounts.length} accounts`);
  });

  it('filters by status, role and team, alone and together, with search', async () => {
    const now = new Date().toISOString();
    const q = (a: Account, text: string) =>
      [a.username, a.first, a.last].some((s) => s.toLowerCase().includes(text.toLowerCase()));
    const cases: Array<[string, (a: Account) => boolean]> = [
      ['status=active', (a) => statusOf(a, now) === 'active'],
      ['status=locked', (a) => statusOf(a, now) === 'locked'],
      ['status=cancelled', (a) => statusOf(a, now) === 'cancelled'],
      ['role=app_demo', (a) => a.roles.includes('app_demo')],
      ['role=sys_tokens', (a) => a.roles.includes('sys_tokens')],
      ['team=SALES', (a) => a.teams.includes('SALES')],
      [
        'team=SALES&role=app_demo&status=active',
        (a) => a.teams.includes('SALES') && a.roles.includes('app_demo') && statusOf(a, now) === 'active',
      ],
      ['q=USER.01', (a) => q(a, 'user.01')],
      ['q=bEr', (a) => q(a, 'ber')],
      ['q=de%20v', (a) => q(a, 'de v')],
      // LIKE's wildcards are plain characters in a search.
      ['q=_', (a) => q(a, '_')],
      ['q=%25', (a) => q(a, '%')],
      ['q=o%25n', (a) => q(a, 'o%n')],
      ['q=%20%20', () => true],
      ['q=bert&status=locked', (a) => q(a, 'bert') && statusOf(a, now) === 'locked'],
      ['q=gus_&sort=name&order=desc', (a) => q(a, 'gus_')],
      ['role=no_such_role', () => false],
      ['team=NOPE', () => false],
    ];
    for (const [query, keep] of cases) {
      const sort = /sort=(\w+)/.exec(query)?.[1] ?? 'username';
      const order = query.includes('order=desc') ? 'desc' : 'asc';
      const expected = expectedOrder(accounts.filter(keep), sort, order, now);
      expect(expected.length > 0 || query.includes('NOPE') || query.includes('no_such')).toBe(true);
      const { usernames, totals } = await allPages(query, 40);
      expect([...totals], query).toEqual([expected.length]);
      expect(usernames, query).toEqual(expected);
    }
  });

  it('items are those of browse, and stats those of the whole directory (as browse)', async () => {
    const browse = await f.as(f.adminJwt, 'GET', '/api/core/account/browse');
    const page = await list('q=user_&status=active&limit=200');
    expect(page.body.data.stats).toEqual(browse.body.data.stats);
    expect(page.body.data.stats.count).toBe(accounts.length);
    expect(page.body.data.stats.locked).toBe(accounts.filter((a) => a.lockoutEnd === FUTURE).length);
    expect(page.body.data.items.length).toBeGreaterThan(0);
    for (const item of page.body.data.items) {
      expectShape(item, ACCOUNT_ITEM_SHAPE);
      expect(item).toEqual(browse.body.data.items.find((b: { id: string }) => b.id === item.id));
    }
  });

  it('username: exactly one account, whatever the case; none for a name that is only a part', async () => {
    const some = accounts[7]!.username;
    const r = await list(`username=${encodeURIComponent(some.toUpperCase())}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.items.map((i: { username: string }) => i.username)).toEqual([some]);
    expect(r.body.data.total).toBe(1);
    const part = await list(`username=${encodeURIComponent(some.slice(0, -1))}`);
    expect(part.body.data.items.map((i: { username: string }) => i.username)).not.toContain(some);
    expect((await list('username=not%20a%20name')).status).toBe(400);
  });

  it('an offset past the end is an empty page with the total', async () => {
    const r = await list('offset=100000');
    expect(r.status).toBe(200);
    expect(r.body.data.items).toEqual([]);
    expect(r.body.data.total).toBe(accounts.length);
  });

  it('refuses bad parameters with 400 and anyone but an administrator', async () => {
    for (const bad of [
      'limit=0',
      'limit=201',
      'limit=ten',
      'offset=-1',
      'offset=1.5',
      'offset=100000001',
      'sort=password_hash',
      'sort=',
      'order=up',
      'status=deleted',
      'role=a%20b',
      'team=a/b',
      `q=${'x'.repeat(101)}`,
      'q=a&q=b',
    ]) {
      const r = await list(bad);
      expect(r.status, `${bad}: ${r.text}`).toBe(400);
      expect(r.body.success).toBe(false);
    }
    expect((await list(`q=${'x'.repeat(100)}`)).status).toBe(200);
    expect((await list('', plainJwt)).status).toBe(403);
    expect((await list('', null)).status).toBe(401);
    // The seeded administrator is in the directory like everyone else.
    expect((await list(`q=${ADMIN.username}`)).body.data.items.map((i: { username: string }) => i.username)).toEqual([
      ADMIN.username,
    ]);
  });
});
