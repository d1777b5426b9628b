// The generated bootstrap administrator password is for one sign-in: that session may replace
// the password and do nothing else (403 password_change_required, enforced by the server for any
// credential), and the password file is deleted once it has. A password the operator set through
// PLATFORM_ADMIN_PASSWORD signs in normally.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';

const NEW_PASSWORD = 'a brand new admin password';

describe.each(testDatabaseKinds())('the one-time bootstrap password on %s', (kind) => {
  let generatedDb: TestDatabase;
  let chosenDb: TestDatabase;
  let generated: Instance;
  let chosen: Instance;

  beforeAll(async () => {
    [generatedDb, chosenDb] = await Promise.all([createTestDatabase(kind), createTestDatabase(kind)]);
    // No PLATFORM_ADMIN_PASSWORD: the administrator gets a generated one in the data directory.
    generated = await startInstance(generatedDb, { PLATFORM_ADMIN_PASSWORD: '' });
    chosen = await startInstance(chosenDb);
  });
  afterAll(async () => {
    await generated?.stop();
    await chosen?.stop();
    for (const db of [generatedDb, chosenDb]) if (db) await dropTestDatabase(db);
  });

  const bearer = (jwt: string) => ({ headers: { authorization: `Bearer ${jwt}` } });
  const file = () => join(generatedDb.dataDir, 'initial-admin-password');

  it('the first sign-in must set a new password, and may do nothing else until it has', async () => {
    const password = readFileSync(file(), 'utf8').trim();
    const login = await generated.login(ADMIN.username, password, { createCookie: true });
    expect(login.status, login.text).toBe(200);
    expect(login.body.data.password_change_required).toBe(true);
    const jwt = login.body.data.token as string;

    // Everything else is refused, by header and by the session cookie alike, reads included.
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    for (const [method, path] of [
      ['GET', '/api/core/account/list'],
      ['GET', '/api/core/account/profile'],
      ['GET', '/api/srs'],
      ['POST', '/api/core/token/create/mine'],
      ['GET', '/api/core/audit'],
    ] as const) {
      const byHeader = await generated.request(path, { method, ...bearer(jwt) });
      expect(byHeader.status, `${method} ${path}: ${byHeader.text}`).toBe(403);
      expect(byHeader.body.data.code).toBe('password_change_required');
      const byCookie = await generated.request(path, { method, headers: { cookie, origin: generated.url } });
      expect(byCookie.status, `${method} ${path} (cookie)`).toBe(403);
    }
    // The session tells a client what is pending; ping still answers.
    const session = await generated.request('/api/core/account/session', bearer(jwt));
    expect(session.status, session.text).toBe(200);
    expect(session.body.data.password_change_required).toBe(true);
    expect((await generated.request('/api/core/system/ping', bearer(jwt))).status).toBe(200);

    // The change needs the current password, and a new one that differs from it.
    const change = (current: string, next: string) =>
      generated.request('/api/core/account/password', {
        method: 'POST',
        ...bearer(jwt),
        json: { current_password: current, new_password: next },
      });
    const wrong = await change('not the password', NEW_PASSWORD);
    expect(wrong.status).toBe(400);
    expect(wrong.body.data.code).toBe('invalid_current_password');
    const same = await change(password, password);
    expect(same.status).toBe(400);
    expect(same.body.data.code).toBe('password_unchanged');
    expect(existsSync(file())).toBe(true);

    const changed = await change(password, NEW_PASSWORD);
    expect(changed.status, changed.text).toBe(200);
    expect(existsSync(file())).toBe(false);

    // The old password is gone, and so is the session it opened; the new one signs in normally.
    expect((await generated.login(ADMIN.username, password)).status).toBe(401);
    expect((await generated.request('/api/core/account/list', bearer(jwt))).status).toBe(401);
    const again = await generated.login(ADMIN.username, NEW_PASSWORD);
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.password_change_required).toBe(false);
    const list = await generated.request('/api/core/account/list', bearer(again.body.data.token));
    expect(list.status, list.text).toBe(200);
  });

  it('a password set through PLATFORM_ADMIN_PASSWORD signs in without a forced change', async () => {
    expect(existsSync(join(chosenDb.dataDir, 'initial-admin-password'))).toBe(false);
    const login = await chosen.login(ADMIN.username, ADMIN.password);
    expect(login.status, login.text).toBe(200);
    expect(login.body.data.password_change_required).toBe(false);
    const list = await chosen.request('/api/core/account/list', bearer(login.body.data.token));
    expect(list.status, list.text).toBe(200);
    const session = await chosen.request('/api/core/account/session', bearer(login.body.data.token));
    expect(session.body.data.password_change_required).toBe(false);
  });
});
