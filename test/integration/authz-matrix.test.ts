// Every endpoint × {no credentials, plain user, plain user acting on
// another user, sys_administrator, locked user, cancelled user} → the expected status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import { passwordFor } from '../support/instance.js';
import { CALLERS, CASES, target, type Case, type Caller } from './authz-matrix-cases.js';

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
