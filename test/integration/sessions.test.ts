// Done-when 3: session endings take effect at once on this instance and within the cache
// window on another; the configured JWT lifetime shows in expires_in and the exp claim.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { createAccount } from '../../src/accounts/account-service.js';
import { CLI_ACTOR } from '../../src/audit/audit-actions.js';

const WHOAMI = '/api/core/token/user';

describe.each(testDatabaseKinds())('sessions on %s', (kind) => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    // Two instances on one database; B re-reads account state after 1 s (the setting's purpose)
    // and lets a front end on another origin call it with the cookie.
    a = await startInstance(db, { Settings__JwtExpireHours: '48' });
    // The same JWT lifetime as A: an instance refuses JWTs that live longer than its own setting.
    b = await startInstance(db, {
      Settings__JwtExpireHours: '48',
      Settings__AuthCacheSeconds: '1',
      Settings__AllowedOrigins: 'https://app.example',
    });
    await createAccount(
      a.services.database.db,
      {
        username: 'carol',
        password: 'pneby-password-1',
        roles: ['sys_tokens'],
      },
      CLI_ACTOR,
    );
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('Settings__JwtExpireHours changes expires_in and the exp claim', async () => {
    const r = await a.login('carol', 'pneby-password-1');
    expect(r.body.data.expires_in).toBe(48 * 3600);
    const claims = decodeJwt(r.body.data.token);
    expect(claims.exp! - claims.iat!).toBe(48 * 3600);
    // An instance with the default (24 h) issues 24-hour JWTs, and refuses A's 48-hour ones
    // although their signature is valid; A accepts its shorter ones.
    const c = await startInstance(db);
    try {
      const rc = await c.login('carol', 'pneby-password-1');
      expect(rc.body.data.expires_in).toBe(24 * 3600);
      expect(decodeJwt(rc.body.data.token).exp! - decodeJwt(rc.body.data.token).iat!).toBe(24 * 3600);
      const whoami = (inst: Instance, jwt: string) =>
        inst.request(WHOAMI, { headers: { Authorization: `Bearer ${jwt}` } });
      expect((await whoami(c, r.body.data.token)).status).toBe(401);
      expect((await whoami(a, rc.body.data.token)).status).toBe(200);
    } finally {
      await c.stop();
    }
  });

  it('a JWT from one instance is accepted by the other (shared signing key)', async () => {
    const t = await a.jwtFor('carol', 'pneby-password-1');
    expect((await b.request(WHOAMI, { headers: { Authorization: `Bearer ${t}` } })).status).toBe(200);
  });

  it('logout ends every JWT of the user at once on this instance, within the cache window elsewhere', async () => {
    const first = await a.jwtFor('carol', 'pneby-password-1');
    const second = await a.jwtFor('carol', 'pneby-password-1');
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
    const fresh = await a.jwtFor('carol', 'pneby-password-1');
    expect((await b.request(WHOAMI, { headers: { Authorization: `Bearer ${fresh}` } })).status).toBe(200);
  });

  it('a stamp change made through this instance ends its JWTs at once', async () => {
    const t = await a.jwtFor('carol', 'pneby-password-1');
    expect((await a.request(WHOAMI, { headers: { Authorization: `Bearer ${t}` } })).status).toBe(200);
    const carol = await a.services.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'carol')
      .executeTakeFirstOrThrow();
    // the service call every stamp-rotating API uses
    await a.services.login.logout({ ...CLI_ACTOR, username: 'carol', userId: carol.id });
    expect((await a.request(WHOAMI, { headers: { Authorization: `Bearer ${t}` } })).status).toBe(401);
  });

  // SameSite=Lax sends the cookie on a top-level GET from another site, so a
  // cookie-authenticated logout must pass the same cross-site check as a POST, on GET too.
  describe('logout across sites', () => {
    const password = 'reva-password-1';
    const evil = 'https://evil.example';
    beforeAll(async () => {
      await createAccount(a.services.database.db, { username: 'erin', password, roles: ['sys_tokens'] }, CLI_ACTOR);
      // B's logouts are its own user's: A would see them only after its cache window.
      await createAccount(a.services.database.db, { username: 'erin.b', password, roles: ['sys_tokens'] }, CLI_ACTOR);
    });
    const logout = (inst: Instance, headers: Record<string, string>, method = 'GET') =>
      inst.request('/api/core/account/logout', { method, headers });
    const whoami = (inst: Instance, jwt: string) =>
      inst.request(WHOAMI, { headers: { Authorization: `Bearer ${jwt}` } });

    it('refuses a cookie-authenticated logout from another site, and the session lives on', async () => {
      const jwt = await a.jwtFor('erin', password);
      const cookie = `ptoken=${jwt}`;
      const refused: Array<[string, Record<string, string>, string?]> = [
        [
          'a link on another site',
          { Cookie: cookie, 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', Referer: `${evil}/` },
        ],
        [
          'a link on another site without a Referer',
          { Cookie: cookie, 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' },
        ],
        [
          'a link on a sibling site',
          { Cookie: cookie, 'Sec-Fetch-Site': 'same-site', Referer: 'http://other.127.0.0.1/' },
        ],
        [
          'a redirect back through another site (Referer still ours)',
          { Cookie: cookie, 'Sec-Fetch-Site': 'cross-site', Referer: `${a.url}/page` },
        ],
        ['a URL opened from outside the browser (Sec-Fetch-Site none)', { Cookie: cookie, 'Sec-Fetch-Site': 'none' }],
        ['a foreign Origin (older browser)', { Cookie: cookie, Origin: evil }],
        ['a foreign Referer and no Origin (older browser)', { Cookie: cookie, Referer: `${evil}/page` }],
        ['no Origin, Referer or Sec-Fetch-Site at all', { Cookie: cookie }],
        ['HEAD from another site', { Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' }, 'HEAD'],
        ['POST from another site', { Cookie: cookie, 'Sec-Fetch-Site': 'cross-site', Origin: evil }, 'POST'],
        ['POST with no Origin', { Cookie: cookie }, 'POST'],
      ];
      for (const [name, headers, method] of refused) {
        const r = await logout(a, headers, method);
        expect(r.status, name).toBe(403);
        if (method !== 'HEAD') expect(r.body.data.code, name).toBe('csrf_rejected');
        expect(r.headers.get('set-cookie'), `${name}: the cookie is not cleared`).toBeNull();
      }
      // Nothing ended: the JWT works, as a header and as the cookie.
      expect((await whoami(a, jwt)).status).toBe(200);
      expect((await a.request(WHOAMI, { headers: { Cookie: cookie } })).status).toBe(200);
    });

    it('logs out a cookie-authenticated GET or POST from our own origin', async () => {
      const accepted: Array<[string, (cookie: string) => Record<string, string>, string?]> = [
        ['GET, Sec-Fetch-Site same-origin', (cookie) => ({ Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' })],
        ['GET, own Origin (no Sec-Fetch-Site)', (cookie) => ({ Cookie: cookie, Origin: a.url })],
        ['GET, own Referer (older browser)', (cookie) => ({ Cookie: cookie, Referer: `${a.url}/app/page` })],
        ['POST, Sec-Fetch-Site same-origin', (cookie) => ({ Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' }), 'POST'],
        ['POST, own Origin', (cookie) => ({ Cookie: cookie, Origin: a.url }), 'POST'],
      ];
      for (const [name, headers, method] of accepted) {
        const jwt = await a.jwtFor('erin', password);
        const r = await logout(a, headers(`ptoken=${jwt}`), method);
        expect(r.status, name).toBe(200);
        expect(r.body.data, name).toEqual({ username: 'erin', sessions_ended: true });
        expect(r.headers.get('set-cookie') ?? '', name).toMatch(/^ptoken=;/);
        const after = await whoami(a, jwt);
        expect(after.status, name).toBe(401);
        expect(after.body.data.code, name).toBe('session_ended');
      }
    });

    it('an allowed origin may log out with fetch (Origin sent), not with a link (no Origin)', async () => {
      const jwt = await b.jwtFor('erin.b', password);
      const link = await logout(b, {
        Cookie: `ptoken=${jwt}`,
        'Sec-Fetch-Site': 'cross-site',
        Referer: 'https://app.example/home',
      });
      expect(link.status).toBe(403);
      expect((await whoami(b, jwt)).status).toBe(200);
      const viaFetch = await logout(
        b,
        { Cookie: `ptoken=${jwt}`, 'Sec-Fetch-Site': 'cross-site', Origin: 'https://app.example' },
        'POST',
      );
      expect(viaFetch.status).toBe(200);
      expect((await whoami(b, jwt)).status).toBe(401);
    });

    it('a header-authenticated logout needs no origin, by GET or POST', async () => {
      for (const method of ['GET', 'POST']) {
        const jwt = await a.jwtFor('erin', password);
        const r = await logout(
          a,
          { Authorization: `Bearer ${jwt}`, 'Sec-Fetch-Site': 'cross-site', Origin: evil },
          method,
        );
        expect(r.status, method).toBe(200);
        expect((await whoami(a, jwt)).status, method).toBe(401);
      }
    });
  });

  it('a password login of the admin also works on both', async () => {
    expect((await b.login(ADMIN.username, ADMIN.password)).status).toBe(200);
  });
});
