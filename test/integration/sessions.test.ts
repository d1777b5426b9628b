// Done-when 3: session endings take effect at once on this instance and within the cache
// window on another; the configured JWT lifetime shows in expires_in and the exp claim.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { createAccount } from '../../src/accounts/account-service.js';

const WHOAMI = '/api/core/token/user';

describe.each(testDatabaseKinds())('sessions on %s', (kind) => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    // Two instances on one database; B re-reads account state after 1 s (the setting's purpose).
    a = await startInstance(db, { Settings__JwtExpireHours: '48' });
    b = await startInstance(db, { Settings__AuthCacheSeconds: '1' });
    await createAccount(a.services.database.db, { username: 'carol', password: 'carol-password-1', roles: ['sys_tokens'] });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('Settings__JwtExpireHours changes expires_in and the exp claim', async () => {
    const r = await a.login('carol', 'carol-password-1');
    expect(r.body.data.expires_in).toBe(48 * 3600);
    const claims = decodeJwt(r.body.data.token);
    expect(claims.exp! - claims.iat!).toBe(48 * 3600);
    const rb = await b.login('carol', 'carol-password-1');
    expect(rb.body.data.expires_in).toBe(24 * 3600);
    expect(decodeJwt(rb.body.data.token).exp! - decodeJwt(rb.body.data.token).iat!).toBe(24 * 3600);
  });

  it('a JWT from one instance is accepted by the other (shared signing key)', async () => {
    const t = await a.jwtFor('carol', 'carol-password-1');
    expect((await b.request(WHOAMI, { headers: { Authorization: `Bearer ${t}` } })).status).toBe(200);
  });

  it('logout ends every JWT of the user at once on this instance, within the cache window elsewhere', async () => {
    const first = await a.jwtFor('carol', 'carol-password-1');
    const second = await a.jwtFor('carol', 'carol-password-1');
    // Warm both instances' caches with the first session.
    expect((await a.request(WHOAMI, { headers: { Authorization: `Bearer ${first}` } })).status).toBe(200);
    expect((await b.request(WHOAMI, { headers: { Authorization: `Bearer ${first}` } })).status).toBe(200);

    const out = await a.request('/api/core/account/logout', { headers: { Authorization: `Bearer ${second}` } });
    expect(out.status).toBe(200);
    // Same instance: immediately, for the session that logged out and every other one.
    for (const t of [first, second]) {
      const r = await a.request(WHOAMI, { headers: { Authorization: `Bearer ${t}` } });
      expect(r.status).toBe(401);
      expect(r.body.data.code).toBe('session_ended');
    }
    // Other instance: once its account entry expires (1 s here, ≤ 60 s by configuration).
    await new Promise((r) => setTimeout(r, 1200));
    expect((await b.request(WHOAMI, { headers: { Authorization: `Bearer ${first}` } })).status).toBe(401);
    // A fresh login works everywhere.
    const fresh = await a.jwtFor('carol', 'carol-password-1');
    expect((await b.request(WHOAMI, { headers: { Authorization: `Bearer ${fresh}` } })).status).toBe(200);
  });

  it('a stamp change made through this instance ends its JWTs at once', async () => {
    const t = await a.jwtFor('carol', 'carol-password-1');
    expect((await a.request(WHOAMI, { headers: { Authorization: `Bearer ${t}` } })).status).toBe(200);
    const carol = await a.services.database.db.selectFrom('users').select('id').where('username', '=', 'carol').executeTakeFirstOrThrow();
    await a.services.login.logout(carol.id); // the service call every stamp-rotating API uses
    expect((await a.request(WHOAMI, { headers: { Authorization: `Bearer ${t}` } })).status).toBe(401);
  });

  it('a password login of the admin also works on both', async () => {
    expect((await b.login(ADMIN.username, ADMIN.password)).status).toBe(200);
  });
});
