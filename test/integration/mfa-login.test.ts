// The second step of a password login: mfa_required with a single-use, short-lived mfa_token;
// login/mfa with a TOTP code (taken once, also across instances) or a recovery code (single-use
// under a race); what it refuses; API-token logins unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import { passwordFor, startInstance, type Instance } from '../support/instance.js';
import { callerOf, enrolTotp, nextCode, type Caller } from '../support/mfa.js';
import { totpCode } from '../../src/auth/totp.js';

describe.each(testDatabaseKinds())('signing in with a second factor on %s', (kind) => {
  let f: AccountsFixture;
  let other: Instance;
  let as: Caller;
  let secret: string;
  let recoveryCodes: string[];
  const env = { Settings__LockoutMaxFailedAttempts: '20' };
  beforeAll(async () => {
    f = await startAccountsFixture(kind, env);
    other = await startInstance(f.db, { APPS_DIR: f.appsDir, ...env });
    as = callerOf(f.inst);
    ({ secret, recoveryCodes } = await enrolTotp(as, await f.user('mona', { roles: ['sys_tokens'] })));
  });
  afterAll(async () => {
    await other?.stop();
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });
  const db = () => f.inst.services.database.db;
  const mfaToken = async (inst: Instance = f.inst, username = 'mona') => {
    const r = await inst.login(username, passwordFor(username));
    expect(r.status, r.text).toBe(401);
    return r.body.data.mfa_token as string;
  };
  const second = (body: unknown, inst: Instance = f.inst) =>
    inst.request('/api/core/account/login/mfa', { method: 'POST', json: body });
  /** Test setup: forgets the last step used, so the current codes may be used again. */
  const forgetSteps = () => db().updateTable('mfa_totp').set({ last_step: null }).execute();

  it('a password login answers mfa_required; the second step answers what a login answers', async () => {
    const before = (await db().selectFrom('audit_log').select('id').execute()).map((r) => r.id);
    const first = await f.inst.login('mona', passwordFor('mona'));
    expect(first.status).toBe(401);
    expect(first.body.success).toBe(false);
    expect(first.body.data).toMatchObject({
      code: 'mfa_required',
      methods: ['totp', 'recovery_code'],
      expires_in: 300,
    });
    expect(first.body.data.mfa_token).toMatch(/^mfa_[A-Za-z0-9_-]{43}$/);
    expect(first.headers.get('set-cookie')).toBeNull();

    const done = await second({ mfa_token: first.body.data.mfa_token, code: nextCode(secret), createCookie: true });
    expect(done.status, done.text).toBe(200);
    const plain = await f.inst.login('root.admin', 'correct horse battery staple');
    expect(Object.keys(done.body.data).sort()).toEqual(Object.keys(plain.body.data).sort());
    expect(done.body.data).toMatchObject({ token_type: 'Bearer', username: 'mona', password_change_required: false });
    expect(done.headers.get('set-cookie')).toMatch(/^ptoken=/);
    const session = await as(done.body.data.token, 'GET', '/api/core/account/session');
    expect(session.status).toBe(200);

    const logins = await db()
      .selectFrom('audit_log')
      .select(['action', 'data'])
      .where('subject', '=', 'mona')
      .where('action', 'in', ['login', 'mfa_success'])
      .where('id', 'not in', before)
      .execute();
    expect(logins.map((r) => r.action).sort()).toEqual(['login', 'mfa_success']);
    expect(JSON.parse(logins.find((r) => r.action === 'login')!.data)).toEqual({ mfa: 'totp' });
  });

  it('an mfa_token completes one login: used, expired, malformed or unknown ones are refused', async () => {
    await forgetSteps();
    const token = await mfaToken();
    expect((await second({ mfa_token: token, code: totpCode(secret) })).status).toBe(200);
    await forgetSteps();
    const reused = await second({ mfa_token: token, code: totpCode(secret) });
    expect(reused.status).toBe(401);
    expect(reused.body.data.code).toBe('invalid_mfa_token');

    const expiring = await mfaToken();
    await db().updateTable('mfa_challenges').set({ expires_at: '2000-01-01T00:00:00.000000Z' }).execute();
    expect((await second({ mfa_token: expiring, code: totpCode(secret) })).body.data.code).toBe('invalid_mfa_token');
    for (const bogus of ['mfa_nothing-like-this', 'not-a-token', `mfa_${'x'.repeat(120)}`])
      expect((await second({ mfa_token: bogus, code: totpCode(secret) })).body.data.code).toBe('invalid_mfa_token');

    const live = await mfaToken();
    const bad = [
      { mfa_token: live },
      { mfa_token: live, code: totpCode(secret), recovery_code: recoveryCodes[0] },
      { mfa_token: live, code: '12345' },
      { mfa_token: 'x'.repeat(129), code: totpCode(secret) },
      { mfa_token: live, code: totpCode(secret), extra: 1 },
    ];
    for (const body of bad) {
      const r = await second(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.success).toBe(false);
    }
    // None of those signed anyone in.
    expect((await second({ mfa_token: live, code: totpCode(secret) })).status).toBe(200);
  });

  it('a code taken on one instance is refused on another', async () => {
    await forgetSteps();
    const code = totpCode(secret);
    expect((await second({ mfa_token: await mfaToken(), code })).status).toBe(200);
    const replay = await second({ mfa_token: await mfaToken(other), code }, other);
    expect(replay.status).toBe(401);
    expect(replay.body.data.code).toBe('invalid_mfa_code');
  });

  it("a code of another account's factor is wrong for this account's token", async () => {
    const nora = await f.user('nora');
    const { secret: noraSecret } = await enrolTotp(as, nora);
    await forgetSteps();
    const r = await second({ mfa_token: await mfaToken(), code: totpCode(noraSecret) });
    // Their codes could coincide (one in a million): then the answer is a login of mona, never of nora.
    if (r.status === 200) expect(r.body.data.username).toBe('mona');
    else expect(r.body.data.code).toBe('invalid_mfa_code');
    const noraToken = await mfaToken(f.inst, 'nora');
    const done = await second({ mfa_token: noraToken, code: totpCode(noraSecret) });
    expect(done.body.data.username).toBe('nora');
  });

  it('a recovery code is single-use under a race of 10, audited with how many are left', async () => {
    const tokens = await Promise.all(Array.from({ length: 10 }, () => mfaToken()));
    const code = recoveryCodes[1]!;
    const answers = await Promise.all(tokens.map((t) => second({ mfa_token: t, recovery_code: code.toUpperCase() })));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.body.data.recovery_codes_left).toBe(9);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body.data.code).toBe('invalid_mfa_code');
    const used = await db()
      .selectFrom('audit_log')
      .select('data')
      .where('action', '=', 'mfa_recovery_code_used')
      .where('subject', '=', 'mona')
      .execute();
    expect(used.map((u) => JSON.parse(u.data))).toEqual([{ remaining: 9 }]);
    // A spaced, dashless spelling of another code works; the spent one stays spent.
    const next = recoveryCodes[2]!.replace('-', ' ');
    expect((await second({ mfa_token: await mfaToken(), recovery_code: next })).body.data.recovery_codes_left).toBe(8);
    expect((await second({ mfa_token: await mfaToken(), recovery_code: code })).body.data.code).toBe(
      'invalid_mfa_code',
    );
  });

  it('an API-token login of the account is unchanged', async () => {
    await forgetSteps();
    const done = await second({ mfa_token: await mfaToken(), code: totpCode(secret) });
    const token = await as(done.body.data.token, 'POST', '/api/core/token/create/mona-bot');
    expect(token.status, token.text).toBe(201);
    const viaToken = await f.inst.login('api', token.body.data.item.value);
    expect(viaToken.status).toBe(200);
    expect(viaToken.body.data.username).toBe('mona');
  });
});
