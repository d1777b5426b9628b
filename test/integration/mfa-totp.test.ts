// TOTP as a second factor: enrolment with a QR code a real reader decodes, confirmation by a
// first code (recovery codes answered), the secret encrypted at rest, the lockout of wrong codes
// under parallel attempts, removal, and an administrator's reset; every step audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import { zxingRead } from '../support/barcode-readers.js';
import { callerOf, enrolTotp, mfaSession, secretOf, svgQrToGray, type Caller } from '../support/mfa.js';
import { totpCode } from '../../src/auth/totp.js';
import { runCli, said } from '../support/cli-child.js';
import { ADMIN, passwordFor, startInstance } from '../support/instance.js';

const LOCKOUT_ATTEMPTS = 5;

describe.each(testDatabaseKinds())('TOTP on %s', (kind) => {
  let f: AccountsFixture;
  let as: Caller;
  beforeAll(async () => {
    f = await startAccountsFixture(kind, { Settings__LockoutMaxFailedAttempts: String(LOCKOUT_ATTEMPTS) });
    as = callerOf(f.inst);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });
  const db = () => f.inst.services.database.db;
  const actions = async (username: string) =>
    (await db().selectFrom('audit_log').select('action').where('subject', '=', username).orderBy('at').execute()).map(
      (r) => r.action,
    );

  it('enrols with an otpauth URI and a QR code of it, confirmed by a first code', async () => {
    const jwt = await f.user('tess');
    const enrol = await as(jwt, 'POST', '/api/core/account/mfa/totp');
    expect(enrol.status).toBe(200);
    const { uri, secret, qr_svg } = enrol.body.data;
    expect(uri).toMatch(/^otpauth:\/\/totp\/.*tess\?/);
    expect(new URL(uri).searchParams.get('issuer')).toBe('Platform Core');
    expect(secretOf(uri)).toBe(secret);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const read = await zxingRead(svgQrToGray(qr_svg));
    expect(read.map((r) => r.text)).toEqual([uri]);
    expect((await as(jwt, 'GET', '/api/core/account/mfa')).body.data).toEqual({
      totp: 'pending',
      recovery_codes_left: 0,
    });

    const wrong = await as(jwt, 'POST', '/api/core/account/mfa/totp/confirm', {
      code: totpCode(secret, Date.now() - 5 * 60_000),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.data.code).toBe('invalid_mfa_code');
    const malformed = await as(jwt, 'POST', '/api/core/account/mfa/totp/confirm', { code: '12ab56' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.data.code).toBe('invalid_input');

    const ok = await as(jwt, 'POST', '/api/core/account/mfa/totp/confirm', { code: totpCode(secret) });
    expect(ok.status).toBe(200);
    const codes: string[] = ok.body.data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await as(jwt, 'GET', '/api/core/account/mfa')).body.data).toEqual({
      totp: 'confirmed',
      recovery_codes_left: 10,
    });
    // Changing the factor now needs a session that passed it; and a confirmed one is not enrolled
    // over: it must be removed first.
    expect((await as(jwt, 'POST', '/api/core/account/mfa/totp')).body.data.code).toBe('mfa_step_up_required');
    const fresh = await mfaSession(f.inst, 'tess', passwordFor('tess'), secret);
    expect((await as(fresh, 'POST', '/api/core/account/mfa/totp')).status).toBe(409);
    expect(await actions('tess')).toEqual(
      expect.arrayContaining([
        'mfa_totp_enrol',
        'mfa_failed',
        'mfa_success',
        'mfa_totp_confirm',
        'mfa_recovery_codes_create',
      ]),
    );

    // At rest: the secret is encrypted, the recovery codes are digests.
    const row = await db().selectFrom('mfa_totp').selectAll().where('secret', 'like', 'v1.%').execute();
    expect(row.length).toBeGreaterThan(0);
    const dump = JSON.stringify([
      await db().selectFrom('mfa_totp').selectAll().execute(),
      await db().selectFrom('mfa_recovery_codes').selectAll().execute(),
      await db().selectFrom('audit_log').selectAll().execute(),
    ]);
    expect(dump).not.toContain(secret);
    for (const c of codes) expect(dump).not.toContain(c);
    expect(dump).not.toContain(codes[0]!.replace('-', ''));
  });

  it('50 parallel wrong codes: at most the lockout number are verified, then not even the right one', async () => {
    const jwt = await f.user('ugo');
    const enrol = await as(jwt, 'POST', '/api/core/account/mfa/totp');
    const secret = enrol.body.data.secret as string;
    const right = totpCode(secret);
    const wrongCode = right === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => as(jwt, 'POST', '/api/core/account/mfa/totp/confirm', { code: wrongCode })),
    );
    const codes = answers.map((a) => a.body.data.code);
    expect(codes.filter((c) => c === 'invalid_mfa_code').length).toBeLessThanOrEqual(LOCKOUT_ATTEMPTS);
    expect(codes.filter((c) => c === 'mfa_locked').length).toBeGreaterThanOrEqual(50 - LOCKOUT_ATTEMPTS);
    expect(new Set(codes)).toEqual(new Set(['invalid_mfa_code', 'mfa_locked']));
    const verified = await db()
      .selectFrom('audit_log')
      .select('data')
      .where('subject', '=', 'ugo')
      .where('action', '=', 'mfa_failed')
      .execute();
    expect(verified.filter((r) => r.data.includes('"invalid_mfa_code"')).length).toBeLessThanOrEqual(LOCKOUT_ATTEMPTS);
    expect(await actions('ugo')).toContain('mfa_lockout');
    // Locked: the right code is not even verified.
    const locked = await as(jwt, 'POST', '/api/core/account/mfa/totp/confirm', { code: right });
    expect(locked.body.data.code).toBe('mfa_locked');
    expect((await as(jwt, 'GET', '/api/core/account/mfa')).body.data.totp).toBe('pending');
  });

  it('removal takes the recovery codes with it; an administrator reset ends the sessions', async () => {
    const { secret } = await enrolTotp(as, await f.user('vic'));
    const jwt = await mfaSession(f.inst, 'vic', passwordFor('vic'), secret);
    const removed = await as(jwt, 'DELETE', '/api/core/account/mfa/totp');
    expect(removed.status).toBe(200);
    expect((await as(jwt, 'GET', '/api/core/account/mfa')).body.data).toEqual({ totp: 'none', recovery_codes_left: 0 });
    expect((await as(jwt, 'DELETE', '/api/core/account/mfa/totp')).status).toBe(404);
    expect((await as(jwt, 'POST', '/api/core/account/mfa/recovery-codes')).status).toBe(409);

    const walt = await f.user('walt');
    await enrolTotp(as, walt);
    expect((await as(walt, 'POST', '/api/core/account/mfa/reset/walt')).status).toBe(403);
    const reset = await as(f.adminJwt, 'POST', '/api/core/account/mfa/reset/walt');
    expect(reset.status).toBe(200);
    expect((await as(walt, 'GET', '/api/core/account/mfa')).body.data.code).toBe('session_ended');
    const waltRow = await db()
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'walt')
      .executeTakeFirstOrThrow();
    expect(await db().selectFrom('mfa_totp').selectAll().where('user_id', '=', waltRow.id).execute()).toEqual([]);
    expect(await db().selectFrom('mfa_recovery_codes').selectAll().where('user_id', '=', waltRow.id).execute()).toEqual(
      [],
    );
    expect((await as(f.adminJwt, 'POST', '/api/core/account/mfa/reset/nobody')).status).toBe(404);
    expect(await actions('walt')).toContain('mfa_reset');
    expect(await actions('vic')).toContain('mfa_totp_remove');
  });

  it('`platform-core mfa reset` lets an administrator who lost every factor back in', async () => {
    const yan = await f.user('yan', { roles: ['sys_administrator'] });
    await enrolTotp(as, yan);
    const env = { DATA_DIR: f.db.dataDir, DATABASE_URL: f.db.databaseUrl, APPS_DIR: f.appsDir };
    const r = await runCli(['mfa', 'reset', 'yan'], { env });
    expect(r.code, said(r)).toBe(0);
    expect(r.stdout).toBe('reset the second factors of yan; their sessions have ended\n');
    expect((await f.inst.login('yan', passwordFor('yan'))).status).toBe(200);
    const row = await db()
      .selectFrom('audit_log')
      .select(['actor', 'client'])
      .where('action', '=', 'mfa_reset')
      .where('subject', '=', 'yan')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ actor: null, client: 'cli' });
    const unknown = await runCli(['mfa', 'reset', 'nobody-at-all'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('User nobody-at-all not found');
  });

  it('a scoped credential without sys_administrator cannot change factors', async () => {
    const jwt = await f.user('xia', { roles: ['sys_tokens'] });
    const created = await as(jwt, 'POST', '/api/core/token/create/narrow', { roles: ['sys_tokens'] });
    expect(created.status).toBe(201);
    const token = created.body.data.item.value as string;
    const r = await f.inst.request('/api/core/account/mfa/totp', {
      method: 'POST',
      headers: { Authorization: `Token ${token}` },
    });
    expect(r.status).toBe(403);
    expect(
      (await f.inst.request('/api/core/account/mfa', { headers: { Authorization: `Token ${token}` } })).status,
    ).toBe(200);
  });
});

describe.each(testDatabaseKinds())('the secrets key kept outside the database on %s', (kind) => {
  it('Settings:SecretsKeyFile: TOTP works, and the database holds no key to decrypt the secret with', async () => {
    const db = await createTestDatabase(kind);
    const keyFile = join(db.dataDir, 'secrets.key');
    mkdirSync(db.dataDir, { recursive: true });
    writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    const inst = await startInstance(db, { Settings__SecretsKeyFile: keyFile });
    try {
      const as = callerOf(inst);
      const jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
      const { secret } = await enrolTotp(as, jwt);
      expect((await mfaSession(inst, ADMIN.username, ADMIN.password, secret)).length).toBeGreaterThan(0);
      const stored = await inst.services.database.db.selectFrom('instance_settings').select('key').execute();
      expect(stored.map((r) => r.key)).not.toContain('secrets_key_v1');
    } finally {
      await inst.stop();
      await dropTestDatabase(db);
    }
  });
});
