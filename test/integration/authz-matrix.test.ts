// Every endpoint × {no credentials, plain user, plain user acting on
// another user, sys_administrator, locked user, cancelled user} → the expected status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import { passwordFor } from '../support/instance.js';

type Caller = 'none' | 'plain' | 'other' | 'admin' | 'locked' | 'cancelled';
const CALLERS: Caller[] = ['none', 'plain', 'other', 'admin', 'locked', 'cancelled'];

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and body for a caller; `self` is the caller's username, `target` another account. */
  request: (caller: Caller, self: string) => { path: string; body?: unknown };
  /** Expected status for plain (acting on self), other (acting on target) and admin (on target). */
  plain: number;
  other: number;
  admin: number;
}

/** A wrong code for the enrolments the matrix makes (a fresh random secret's code near now is
 *  this one 3 times in a million). */
const WRONG_CODE = '000000';

let seq = 0;
const uniq = () => `n${++seq}`;
const target = 'target';
const onUser = (caller: Caller, self: string) => (caller === 'plain' ? self : target);

const CASES: Case[] = [
  {
    name: 'profile (own)',
    method: 'GET',
    request: () => ({ path: '/api/core/account/profile' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'profile/{username}',
    method: 'GET',
    request: (c, s) => ({ path: `/api/core/account/profile/${onUser(c, s)}` }),
    plain: 200,
    other: 403,
    admin: 200,
  },
  {
    name: 'profile-update',
    method: 'POST',
    request: (c, s) => ({
      path: '/api/core/account/profile-update',
      body: { username: onUser(c, s), user_first_name: 'X' },
    }),
    plain: 200,
    other: 403,
    admin: 200,
  },
  {
    name: 'browse',
    method: 'GET',
    request: () => ({ path: '/api/core/account/browse' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'copy',
    method: 'POST',
    request: () => ({ path: `/api/core/account/copy/source/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'lock',
    method: 'POST',
    request: () => ({ path: `/api/core/account/lock/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'unlock',
    method: 'POST',
    request: () => ({ path: `/api/core/account/unlock/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'cancel',
    method: 'POST',
    request: () => ({ path: `/api/core/account/cancel/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'reactivate',
    method: 'POST',
    request: () => ({ path: `/api/core/account/reactivate/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'context (own)',
    method: 'POST',
    request: () => ({ path: '/api/core/account/context/demo' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'context/{username}',
    method: 'POST',
    request: (c, s) => ({ path: `/api/core/account/context/demo/${onUser(c, s)}` }),
    plain: 200,
    other: 403,
    admin: 200,
  },
  {
    name: 'create account',
    method: 'POST',
    request: () => ({ path: '/api/core/account/create', body: { username: uniq(), password: 'long-enough-1' } }),
    plain: 403,
    other: 403,
    admin: 201,
  },
  {
    name: 'password/{username}',
    method: 'POST',
    request: () => ({
      path: `/api/core/account/password/${target}`,
      body: { password: 'a new password for the account' },
    }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'role grant',
    method: 'POST',
    request: () => ({ path: `/api/core/account/role/grant/${target}/app_other` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'role revoke',
    method: 'POST',
    request: () => ({ path: `/api/core/account/role/revoke/${target}/app_other` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'account session',
    method: 'GET',
    request: () => ({ path: '/api/core/account/session' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'account list',
    method: 'GET',
    request: () => ({ path: '/api/core/account/list?q=t&sort=name&limit=10' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'roles',
    method: 'GET',
    request: () => ({ path: '/api/core/roles' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'team members',
    method: 'GET',
    request: () => ({ path: '/api/core/team/members/MX' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'system instance',
    method: 'GET',
    request: () => ({ path: '/api/core/system/instance' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'team browse',
    method: 'GET',
    request: () => ({ path: '/api/core/team/browse' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'team create',
    method: 'POST',
    request: () => ({ path: '/api/core/team/create', body: { team_short: uniq(), team_name: 'T' } }),
    plain: 403,
    other: 403,
    admin: 201,
  },
  {
    name: 'team member add',
    method: 'POST',
    request: () => ({ path: `/api/core/team/member/add/MX/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'team member remove',
    method: 'POST',
    request: () => ({ path: `/api/core/team/member/remove/MX/${target}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'system (obsolete)',
    method: 'GET',
    request: () => ({ path: '/api/core/system' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'token/user',
    method: 'GET',
    request: () => ({ path: '/api/core/token/user' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'token/browse',
    method: 'GET',
    request: () => ({ path: '/api/core/token/browse' }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'token/user/{username}',
    method: 'GET',
    request: (c, s) => ({ path: `/api/core/token/user/${onUser(c, s)}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'token/create/{name}',
    method: 'POST',
    request: () => ({ path: `/api/core/token/create/${uniq()}` }),
    plain: 201,
    other: 201,
    admin: 201,
  },
  {
    name: 'token/create/{name}/{username}',
    method: 'POST',
    request: (c, s) => ({ path: `/api/core/token/create/${uniq()}/${onUser(c, s)}` }),
    plain: 403,
    other: 403,
    admin: 201,
  },
  {
    name: 'token/delete/{name}/{username}',
    method: 'POST',
    request: (c, s) => ({ path: `/api/core/token/delete/victim/${onUser(c, s)}` }),
    plain: 404,
    other: 403,
    admin: 200,
  },
  {
    // The credential of the second step is its mfa_token: none of these callers has a live one.
    name: 'login/mfa (no live mfa_token)',
    method: 'POST',
    request: () => ({ path: '/api/core/account/login/mfa', body: { mfa_token: 'mfa_none', code: WRONG_CODE } }),
    plain: 401,
    other: 401,
    admin: 401,
  },
  {
    name: 'mfa status',
    method: 'GET',
    request: () => ({ path: '/api/core/account/mfa' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'mfa totp enrol',
    method: 'POST',
    request: () => ({ path: '/api/core/account/mfa/totp' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'mfa totp confirm',
    method: 'POST',
    request: () => ({ path: '/api/core/account/mfa/totp/confirm', body: { code: WRONG_CODE } }),
    plain: 400,
    other: 400,
    admin: 400,
  },
  {
    name: 'mfa recovery-codes (no confirmed factor)',
    method: 'POST',
    request: () => ({ path: '/api/core/account/mfa/recovery-codes' }),
    plain: 409,
    other: 409,
    admin: 409,
  },
  {
    // plain and other hold the same credential: plain removes the pending enrolment, other finds none.
    name: 'mfa totp remove',
    method: 'DELETE',
    request: () => ({ path: '/api/core/account/mfa/totp' }),
    plain: 200,
    other: 404,
    admin: 200,
  },
  {
    name: 'mfa reset/{username}',
    method: 'POST',
    request: (c, s) => ({ path: `/api/core/account/mfa/reset/${onUser(c, s)}` }),
    plain: 403,
    other: 403,
    admin: 200,
  },
  {
    name: 'logout',
    method: 'GET',
    request: () => ({ path: '/api/core/account/logout' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
  {
    name: 'ping (no auth needed)',
    method: 'GET',
    request: () => ({ path: '/api/core/system/ping' }),
    plain: 200,
    other: 200,
    admin: 200,
  },
];

describe.each(testDatabaseKinds())('authorization matrix on %s', (kind) => {
  let f: AccountsFixture;
  const tokens: Partial<Record<Caller, string>> = {};
  /** Password sessions of the same accounts. */
  const jwts: Partial<Record<Caller, string>> = {};
  const names: Record<Caller, string> = {
    none: '',
    plain: 'plain',
    other: 'plain',
    admin: 'admin2',
    locked: 'locked',
    cancelled: 'cancelled',
  };

  beforeAll(async () => {
    f = await startAccountsFixture(kind);
    const make = async (username: string, roles: string[]) => {
      await f.user(username, { roles });
      const r = await f.as(f.adminJwt, 'POST', `/api/core/token/create/matrix/${username}`);
      return r.body.data.item.value as string;
    };
    tokens.plain = await make('plain', ['sys_tokens', 'app_demo']);
    tokens.other = tokens.plain;
    tokens.admin = await make('admin2', ['sys_administrator', 'sys_tokens', 'app_administrator']);
    tokens.locked = await make('locked', ['sys_administrator', 'sys_tokens', 'app_demo']);
    tokens.cancelled = await make('cancelled', ['sys_administrator', 'sys_tokens', 'app_demo']);
    await f.user(target, { roles: ['app_demo'] });
    await f.user('source', { roles: ['app_demo'] });
    await f.as(f.adminJwt, 'POST', '/api/core/team/create', { team_short: 'MX', team_name: 'Matrix' });
    expect((await f.as(f.adminJwt, 'POST', '/api/core/account/lock/locked')).status).toBe(200);
    expect((await f.as(f.adminJwt, 'POST', '/api/core/account/cancel/cancelled')).status).toBe(200);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  /** Runs `cases` for every caller with its credential of `kind`; answers the mismatches and the count. */
  async function runCases(cases: Case[], kind: 'token' | 'jwt'): Promise<{ mismatches: string[]; checked: number }> {
    const mismatches: string[] = [];
    let checked = 0;
    const credentials = kind === 'token' ? tokens : jwts;
    const scheme = kind === 'token' ? 'Token' : 'Bearer';
    for (const c of cases) {
      for (const caller of CALLERS) {
        // A victim token for the delete case, owned by whoever the request targets.
        if (c.name.startsWith('token/delete') && (caller === 'other' || caller === 'admin')) {
          await f.as(f.adminJwt, 'POST', `/api/core/token/create/victim/${target}`);
        }
        const { path, body } = c.request(caller, names[caller]);
        const credential = credentials[caller];
        const r = await f.inst.request(path, {
          method: c.method,
          headers: credential ? { Authorization: `${scheme} ${credential}` } : {},
          ...(body !== undefined ? { json: body } : {}),
        });
        const expected =
          caller === 'none' || caller === 'locked' || caller === 'cancelled'
            ? c.name.startsWith('ping')
              ? 200
              : 401
            : c[caller];
        checked++;
        if (r.status !== expected)
          mismatches.push(`${c.name} as ${caller}: expected ${expected}, got ${r.status} ${r.text.slice(0, 160)}`);
        const bare = path === '/api/core/system' && r.status === 200;
        if (!bare && r.body?.success !== r.status < 400)
          mismatches.push(`${c.name} as ${caller} (${kind}): no envelope with success=${r.status < 400}`);
      }
    }
    return { mismatches, checked };
  }

  it('every endpoint answers every kind of caller as expected (zero mismatches)', async () => {
    const { mismatches, checked } = await runCases(CASES, 'token');
    expect(checked).toBe(CASES.length * CALLERS.length);
    expect(mismatches).toEqual([]);
  });

  it('the second-factor routes answer password sessions (JWTs) as they answer API tokens', async () => {
    const cases = CASES.filter((c) => c.name.startsWith('mfa ') || c.name.startsWith('login/mfa'));
    expect(cases.length).toBe(7);
    // Signed in now: the logout case above ended the earlier sessions. The locked and the
    // cancelled account cannot sign in: they present no session (expected 401 all the same).
    jwts.plain = await f.inst.jwtFor('plain', passwordFor('plain'));
    jwts.other = jwts.plain;
    jwts.admin = await f.inst.jwtFor('admin2', passwordFor('admin2'));
    const { mismatches, checked } = await runCases(cases, 'jwt');
    expect(checked).toBe(cases.length * CALLERS.length);
    expect(mismatches).toEqual([]);
  });
});
