// The password rules wherever a password is set, and passwords set before them still working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import { passwordFor, startInstance } from '../support/instance.js';
import { hashPassword } from '../../src/auth/passwords.js';

describe.each(testDatabaseKinds())('password rules on %s', (kind) => {
  let f: AccountsFixture;
  beforeAll(async () => {
    f = await startAccountsFixture(kind, { Settings__PasswordMinLength: '14' });
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  const create = (username: string, password: string) =>
    f.as(f.adminJwt, 'POST', '/api/core/account/create', { username, password });

  it('account creation: each rule answers a 400 naming it, and nothing is created', async () => {
    const cases: [string, string][] = [
      ['Lantern-47', 'password_length'],
      ['Meadow-Wes-Lantern-47', 'password_contains_username'],
      ['1qaz2wsx3edc4rfv', 'password_common'],
      ['aaaaaaaaaaaaaaaaaa', 'password_weak'],
    ];
    for (const [password, code] of cases) {
      const r = await create('wes', password);
      expect(r.status, password).toBe(400);
      expect(r.body.data.code, password).toBe(code);
      expect(r.body.data.details[0].field).toBe('password');
    }
    const list = await f.as(f.adminJwt, 'GET', '/api/core/account/list');
    expect(JSON.stringify(list.body)).not.toContain('"wes"');
    expect((await create('wes', 'Quartz-Meadow-Lantern-47')).status).toBe(201);
  });

  it('the minimum length is Settings:PasswordMinLength', async () => {
    // 13 characters: the default would take it, the setting (14) does not.
    const r = await create('xena', 'Quartz-Meadow');
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('at least 14');
  });

  it("a user's own change and an administrator's reset follow the rules", async () => {
    const jwt = await f.user('yuri');
    const own = await f.as(jwt, 'POST', '/api/core/account/password', {
      current_password: passwordFor('yuri'),
      new_password: 'qwerty123456789',
    });
    expect(own.status).toBe(400);
    expect(own.body.data.details[0]).toMatchObject({ field: 'new_password', rule: 'weak' });
    const reset = await f.as(f.adminJwt, 'POST', '/api/core/account/password/yuri', {
      password: 'the YURI account key 9',
    });
    expect(reset.status).toBe(400);
    expect(reset.body.data.code).toBe('password_contains_username');
    // Neither took effect: the old password still signs in.
    expect((await f.inst.login('yuri', passwordFor('yuri'))).status).toBe(200);
  });

  it('a password set before the rules keeps signing in', async () => {
    await f.user('zoe');
    const weak = await hashPassword('zoe');
    await f.inst.services.database.db
      .updateTable('users')
      .set({ password_hash: weak })
      .where('username', '=', 'zoe')
      .execute();
    expect((await f.inst.login('zoe', 'zoe')).status).toBe(200);
  });
});

describe.each(testDatabaseKinds())('the bootstrap administrator password on %s', (kind) => {
  it('a PLATFORM_ADMIN_PASSWORD that breaks a rule stops the start, naming the variable and the rule', async () => {
    const db = await createTestDatabase(kind);
    try {
      await expect(
        startInstance(db, { PLATFORM_ADMIN_USERNAME: 'admin', PLATFORM_ADMIN_PASSWORD: 'the Admin password' }),
      ).rejects.toThrow(/PLATFORM_ADMIN_PASSWORD: password must not contain the username/);
      await expect(startInstance(db, { PLATFORM_ADMIN_PASSWORD: 'qwerty123456' })).rejects.toThrow(
        /PLATFORM_ADMIN_PASSWORD: password is on a list of common or breached passwords/,
      );
    } finally {
      await dropTestDatabase(db);
    }
  });
});
