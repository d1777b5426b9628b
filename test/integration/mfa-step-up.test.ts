// Step-up: for an account with a second factor, creating a token, changing the password or a
// factor need a session that passed it within Settings:MfaFreshMinutes. Enforcement: a password
// session of an account holding a role of Settings:MfaRequiredRoles without a factor may only enrol one.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import { passwordFor } from '../support/instance.js';
import { callerOf, enrolTotp, nextCode, type Caller } from '../support/mfa.js';
import { totpCode } from '../../src/auth/totp.js';
import { createAccount } from '../../src/accounts/account-service.js';
import { CLI_ACTOR } from '../../src/audit/audit-actions.js';

describe.each(testDatabaseKinds())('step-up and required second factors on %s', (kind) => {
  let f: AccountsFixture;
  let as: Caller;
  beforeAll(async () => {
    f = await startAccountsFixture(kind, { Settings__MfaFreshMinutes: '5', Settings__MfaRequiredRoles: 'app_demo' });
    as = callerOf(f.inst);
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });
  const db = () => f.inst.services.database.db;
  const forgetSteps = () => db().updateTable('mfa_totp').set({ last_step: null }).execute();
  const mfaLogin = async (username: string, code: string) => {
    const first = await f.inst.login(username, passwordFor(username));
    const second = await f.inst.request('/api/core/account/login/mfa', {
      method: 'POST',
      json: { mfa_token: first.body.data.mfa_token, code },
    });
    expect(second.status, second.text).toBe(200);
    return second.body.data.token as string;
  };

  it('a session that did not pass the second factor cannot create tokens, change the password or factors', async () => {
    const old = await f.user('pia', { roles: ['sys_tokens'] });
    // Before a factor: nothing is asked.
    expect((await as(old, 'POST', '/api/core/token/create/before')).status).toBe(201);
    const { secret } = await enrolTotp(as, old);
    const refused = [
      await as(old, 'POST', '/api/core/token/create/after'),
      await as(old, 'POST', '/api/core/account/password', {
        current_password: passwordFor('pia'),
        new_password: 'a brand new passphrase 7',
      }),
      await as(old, 'DELETE', '/api/core/account/mfa/totp'),
      await as(old, 'POST', '/api/core/account/mfa/recovery-codes'),
    ];
    for (const r of refused) {
      expect(r.status, r.text).toBe(401);
      expect(r.body.data.code).toBe('mfa_step_up_required');
    }
    // Everything else goes on as before.
    expect((await as(old, 'GET', '/api/core/account/profile')).status).toBe(200);
    const session = await as(old, 'GET', '/api/core/account/session');
    expect(session.body.data).toMatchObject({ second_factor: true, mfa_at: null, mfa_enrolment_required: false });

    const fresh = await mfaLogin('pia', nextCode(secret));
    expect((await as(fresh, 'GET', '/api/core/account/session')).body.data.mfa_at).toEqual(expect.any(String));
    const token = await as(fresh, 'POST', '/api/core/token/create/after');
    expect(token.status).toBe(201);
    expect((await as(fresh, 'POST', '/api/core/account/mfa/recovery-codes')).status).toBe(200);
    // An API token never passed a factor: it cannot make another.
    const viaToken = await f.inst.request('/api/core/token/create/from-token', {
      method: 'POST',
      headers: { Authorization: `Token ${token.body.data.item.value}` },
    });
    expect(viaToken.body.data.code).toBe('mfa_step_up_required');

    // Past Settings:MfaFreshMinutes the same session must sign in again.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 6 * 60_000 });
    const stale = await as(fresh, 'POST', '/api/core/token/create/later');
    expect(stale.body.data.code).toBe('mfa_step_up_required');
    expect((await as(fresh, 'GET', '/api/core/account/profile')).status).toBe(200);
  });

  it('a holder of a required role without a factor may only enrol one after a password sign-in', async () => {
    await createAccount(db(), { username: 'olaf', password: passwordFor('olaf'), roles: ['app_demo'] }, CLI_ACTOR);
    const login = await f.inst.login('olaf', passwordFor('olaf'));
    expect(login.status).toBe(200);
    expect(login.body.data.mfa_enrolment_required).toBe(true);
    const jwt = login.body.data.token as string;
    const profile = await as(jwt, 'GET', '/api/core/account/profile');
    expect(profile.status).toBe(403);
    expect(profile.body.data.code).toBe('mfa_enrolment_required');
    expect((await as(jwt, 'GET', '/api/core/account/session')).body.data.mfa_enrolment_required).toBe(true);
    // An API token of the account is a machine credential: not held to the enrolment.
    const token = await as(f.adminJwt, 'POST', '/api/core/token/create/olaf-bot/olaf');
    const byToken = await f.inst.request('/api/core/account/profile', {
      headers: { Authorization: `Token ${token.body.data.item.value}` },
    });
    expect(byToken.status).toBe(200);

    const { secret } = await enrolTotp(as, jwt);
    expect((await as(jwt, 'GET', '/api/core/account/profile')).status).toBe(200);
    await forgetSteps();
    const first = await f.inst.login('olaf', passwordFor('olaf'));
    expect(first.body.data.code).toBe('mfa_required');
    const done = await f.inst.request('/api/core/account/login/mfa', {
      method: 'POST',
      json: { mfa_token: first.body.data.mfa_token, code: totpCode(secret) },
    });
    expect(done.body.data.mfa_enrolment_required).toBe(false);

    // An administrator's reset brings the enrolment back.
    expect((await as(f.adminJwt, 'POST', '/api/core/account/mfa/reset/olaf')).status).toBe(200);
    const again = await f.inst.login('olaf', passwordFor('olaf'));
    expect(again.body.data.mfa_enrolment_required).toBe(true);
  });
});
