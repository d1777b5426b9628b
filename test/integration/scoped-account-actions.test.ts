// What a scoped credential may do to its owner's own account (src/auth/own-account-actions.ts):
// every account route that acts on the caller's account, with tokens scoped to [], [sys_tokens],
// [app_demo], [sys_administrator] and unscoped, and with a JWT obtained by logging in with each,
// on both databases. Refused changes leave the account as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds, dropTestDatabase } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import { passwordFor } from '../support/instance.js';

const OWNER = 'sam';
const PASSWORD = passwordFor(OWNER);

/** The scopes tried; `unscoped` is a token with all of its owner's roles. */
const SCOPES = {
  unscoped: null,
  none: [],
  sys_tokens: ['sys_tokens'],
  app_demo: ['app_demo'],
  sys_administrator: ['sys_administrator'],
} as const;
type ScopeName = keyof typeof SCOPES;
const ALL_SCOPES = Object.keys(SCOPES) as ScopeName[];
const titled = (scope: ScopeName) => {
  const roles = SCOPES[scope];
  return [roles === null ? 'unscoped' : `scoped to [${roles.join(', ')}]`, scope] as const;
};

interface Case {
  name: string;
  method: 'GET' | 'POST';
  /** `n` makes names unique per attempt. */
  path: (n: number) => string;
  body?: unknown;
  /** The attempt deletes the owner's token `victim-<n>`, made for it by the administrator. */
  deletesVictim?: true;
  /** The scopes that may take the action; every other scope is refused. */
  allowed: readonly ScopeName[];
  status: number;
  /** The error code of a refusal. */
  refused: string;
}

const CASES: Case[] = [
  {
    name: 'read the profile',
    method: 'GET',
    path: () => '/api/core/account/profile',
    allowed: ALL_SCOPES,
    status: 200,
    refused: '',
  },
  {
    name: 'read the profile by username',
    method: 'GET',
    path: () => `/api/core/account/profile/${OWNER}`,
    allowed: ALL_SCOPES,
    status: 200,
    refused: '',
  },
  {
    name: 'read the session',
    method: 'GET',
    path: () => '/api/core/account/session',
    allowed: ALL_SCOPES,
    status: 200,
    refused: '',
  },
  {
    name: 'list the own tokens',
    method: 'GET',
    path: () => '/api/core/token/user',
    allowed: ['unscoped', 'sys_tokens', 'sys_administrator'],
    status: 200,
    refused: 'forbidden',
  },
  {
    name: 'create a token',
    method: 'POST',
    path: (n) => `/api/core/token/create/made-${n}`,
    allowed: ['unscoped', 'sys_tokens'],
    status: 201,
    refused: 'forbidden',
  },
  {
    name: 'delete another token of the owner',
    method: 'POST',
    path: (n) => `/api/core/token/delete/victim-${n}/${OWNER}`,
    deletesVictim: true,
    allowed: ['unscoped', 'sys_tokens', 'sys_administrator'],
    status: 200,
    refused: 'forbidden',
  },
  {
    name: 'set the context',
    method: 'POST',
    path: () => '/api/core/account/context/demo',
    allowed: ['unscoped', 'app_demo', 'sys_administrator'],
    status: 200,
    refused: 'app_not_allowed',
  },
  {
    name: 'set the context by username',
    method: 'POST',
    path: () => `/api/core/account/context/demo/${OWNER}`,
    allowed: ['unscoped', 'app_demo', 'sys_administrator'],
    status: 200,
    refused: 'app_not_allowed',
  },
  {
    name: 'update the profile',
    method: 'POST',
    path: () => '/api/core/account/profile-update',
    body: { user_first_name: 'Changed' },
    allowed: ['unscoped', 'sys_administrator'],
    status: 200,
    refused: 'forbidden',
  },
  {
    name: 'update the profile by username',
    method: 'POST',
    path: () => '/api/core/account/profile-update',
    body: { username: OWNER, user_first_name: 'Changed' },
    allowed: ['unscoped', 'sys_administrator'],
    status: 200,
    refused: 'forbidden',
  },
  // Changes to the same password: allowed, it still ends every session of the owner.
  {
    name: 'change the password',
    method: 'POST',
    path: () => '/api/core/account/password',
    body: { current_password: PASSWORD, new_password: PASSWORD },
    allowed: ['unscoped', 'sys_administrator'],
    status: 200,
    refused: 'forbidden',
  },
];

describe.each(testDatabaseKinds())('scoped credentials on their own account on %s', (kind) => {
  let f: AccountsFixture;
  let seq = 0;

  beforeAll(async () => {
    f = await startAccountsFixture(kind, {
      // Every attempt logs in afresh with its token; the login rate limit is not under test.
      Settings__LoginRateLimitPerUser: '100000',
      Settings__LoginRateLimitPerAddress: '100000',
    });
    await f.user(OWNER, { roles: ['sys_tokens', 'app_demo', 'sys_administrator'] });
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  /** A token of the owner with this scope, made by the administrator. */
  const tokenWith = async (scope: ScopeName): Promise<string> => {
    const roles = SCOPES[scope];
    const r = await f.as(f.adminJwt, 'POST', `/api/core/token/create/t-${++seq}/${OWNER}`, roles ? { roles } : {});
    expect(r.status, r.text).toBe(201);
    return r.body.data.item.value;
  };
  /** The credential to act with: the token itself, or a JWT freshly obtained with it (a change
   *  allowed earlier may have ended the owner's sessions). */
  const credential = async (token: string, via: 'token' | 'jwt'): Promise<string> => {
    if (via === 'token') return token;
    const r = await f.inst.login('api', token);
    expect(r.status, r.text).toBe(200);
    return r.body.data.token;
  };
  /** The owner's context, read from the database. */
  const appOf = async () =>
    (
      await f.inst.services.database.db
        .selectFrom('users')
        .select('app_name')
        .where('username', '=', OWNER)
        .executeTakeFirstOrThrow()
    ).app_name;

  describe.each(['token', 'jwt'] as const)('acting with a %s', (via) => {
    it.each(ALL_SCOPES.map(titled))('%s: takes exactly the actions its scope governs', async (_title, scope) => {
      const token = await tokenWith(scope);
      for (const c of CASES) {
        const n = ++seq;
        if (c.deletesVictim) {
          const victim = await f.as(f.adminJwt, 'POST', `/api/core/token/create/victim-${n}/${OWNER}`);
          expect(victim.status, victim.text).toBe(201);
        }
        const r = await f.as(await credential(token, via), c.method, c.path(n), c.body);
        const label = `${c.name} (${c.method} ${c.path(n)})`;
        if (c.allowed.includes(scope)) {
          expect(r.status, `${label}: ${r.text}`).toBe(c.status);
        } else {
          expect(r.status, `${label}: ${r.text}`).toBe(403);
          expect(r.body.data.code, label).toBe(c.refused);
        }
      }
      // Logout answers everyone; only a credential that may end the sessions ends them.
      const owner = await f.inst.jwtFor(OWNER, PASSWORD);
      const out = await f.as(await credential(token, via), 'POST', '/api/core/account/logout');
      expect(out.status, out.text).toBe(200);
      const ends = scope === 'unscoped' || scope === 'sys_administrator';
      expect(out.body.data).toEqual({ username: OWNER, sessions_ended: ends });
      expect((await f.as(owner, 'GET', '/api/core/account/session')).status).toBe(ends ? 401 : 200);
    });
  });

  it('refused changes leave the account as it was', async () => {
    // No context yet, so a refused "set the context to demo" would show.
    await f.inst.services.database.db
      .updateTable('users')
      .set({ app_name: '' })
      .where('username', '=', OWNER)
      .execute();
    const owner = await f.inst.jwtFor(OWNER, PASSWORD);
    const keep = await f.as(f.adminJwt, 'POST', `/api/core/token/create/keep/${OWNER}`);
    expect(keep.status, keep.text).toBe(201);
    for (const scope of ['none', 'sys_tokens'] as const) {
      const cred = await credential(await tokenWith(scope), 'jwt');
      expect(
        (await f.as(cred, 'POST', '/api/core/account/profile-update', { user_first_name: 'Mallory' })).status,
      ).toBe(403);
      expect((await f.as(cred, 'POST', '/api/core/account/logout')).body.data.sessions_ended).toBe(false);
      expect((await f.as(cred, 'POST', '/api/core/account/context/demo')).status).toBe(403);
    }
    const none = await credential(await tokenWith('none'), 'token');
    expect((await f.as(none, 'POST', `/api/core/token/delete/keep/${OWNER}`)).status).toBe(403);
    expect(
      (
        await f.as(none, 'POST', '/api/core/account/password', {
          current_password: 'wrong-guess-1',
          new_password: 'x'.repeat(12),
        })
      ).body.data.code,
    ).toBe('forbidden');

    // The owner's session lives on, the token is still there, the profile and context unchanged.
    expect((await f.as(owner, 'GET', '/api/core/account/session')).status).toBe(200);
    const names = (await f.as(owner, 'GET', '/api/core/token/user')).body.data.items.map((t: any) => t.name);
    expect(names).toContain('keep');
    const profile = await f.as(owner, 'GET', '/api/core/account/profile?pscope=user');
    expect(JSON.stringify(profile.body.data.user)).not.toContain('Mallory');
    expect(await appOf()).toBe('');
  });

  it('a console signed in with a scoped token signs out: the cookie is cleared, the sessions stay', async () => {
    const token = await tokenWith('app_demo');
    const login = await f.inst.login('api', token, { createCookie: true });
    expect(login.status, login.text).toBe(200);
    const cookie = `ptoken=${login.body.data.token}`;
    const owner = await f.inst.jwtFor(OWNER, PASSWORD);
    const out = await f.inst.request('/api/core/account/logout', {
      method: 'POST',
      headers: { Cookie: cookie, Origin: f.inst.url },
    });
    expect(out.status, out.text).toBe(200);
    expect(out.body.data.sessions_ended).toBe(false);
    expect(out.headers.get('set-cookie') ?? '').toMatch(/^ptoken=;/);
    expect((await f.as(owner, 'GET', '/api/core/account/session')).status).toBe(200);
  });
});
