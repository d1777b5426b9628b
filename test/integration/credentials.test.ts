// Done-when 2 of the foundation: every credential form over real HTTP, on both databases, and
// each form with a wrong, expired, deleted or revoked credential.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { stampTag } from '../../src/auth/jwt.js';
import { generateTokenValue } from '../../src/auth/token-values.js';

const WHOAMI = '/api/core/token/user'; // requires authentication, answers for the caller

describe.each(testDatabaseKinds())('credential forms on %s', (kind) => {
  let db: TestDatabase;
  let inst: Instance;
  let jwt: string;
  let token: string;

  const as = (headers: Record<string, string>, path = WHOAMI) => inst.request(path, { headers });
  const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

  async function newToken(name: string): Promise<string> {
    const r = await inst.request(`/api/core/token/create/${name}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${jwt}` },
    });
    expect(r.status).toBe(201);
    return r.body.data.item.value as string;
  }

  async function expectAuthenticated(r: { status: number; body: any }) {
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.success).toBe(true);
  }

  function expect401(r: { status: number; body: any; headers: Headers }, code?: string) {
    expect(r.status, JSON.stringify(r.body)).toBe(401);
    expect(r.body.success).toBe(false);
    expect(r.headers.get('www-authenticate')).toBeTruthy();
    if (code) expect(r.body.data.code).toBe(code);
  }

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    inst = await startInstance(db);
    jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
    token = await newToken('matrix');
  });
  afterAll(async () => {
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('answers 401 with WWW-Authenticate when no credential is given', async () => {
    expect401(await as({}), 'authentication_required');
  });

  it('logs the "authentication failed" warn for a wrong credential, not for a request with none', async () => {
    /** The warn lines of the request `r` answered (matched by its request id). */
    const warnsOf = (r: { headers: Headers }) =>
      inst
        .logs()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { requestId?: string; level?: number; msg?: string })
        .filter((l) => l.requestId === r.headers.get('x-request-id') && l.level === 40);
    // The console asks for the caller's profile on every page load, signed in or not.
    const anonymous = await as({}, '/api/core/account/profile');
    expect401(anonymous, 'authentication_required');
    const wrong = await as({ Authorization: `Bearer ${jwt.slice(0, -4)}AAAA` }, '/api/core/account/profile');
    expect401(wrong, 'invalid_token');
    const wrongCookie = await as({ cookie: 'ptoken=pct_not-a-real-token' }, '/api/core/account/profile');
    expect401(wrongCookie);
    expect(warnsOf(wrong).map((l) => l.msg)).toEqual(['authentication failed']);
    expect(warnsOf(wrongCookie).map((l) => l.msg)).toEqual(['authentication failed']);
    expect(warnsOf(anonymous)).toEqual([]);
  });

  describe('JWT', () => {
    it('works as Bearer header', async () => expectAuthenticated(await as({ Authorization: `Bearer ${jwt}` })));

    it('is never answered for by a cached header that ends the same way', async () => {
      // The parsed-header cache is keyed by a header's last characters: a header sharing the
      // cached one's tail (here its whole signature) must be parsed and checked on its own.
      await expectAuthenticated(await as({ Authorization: `Bearer ${jwt}` })); // now cached
      const [, payload, signature] = jwt.split('.');
      const forged = `Bearer eyJhbGciOiJub25lIn0.${payload}.${signature}`;
      expect401(await as({ Authorization: forged }), 'invalid_token');
      expect401(await as({ Authorization: `Token x${signature}` }));
      expect401(await as({ Authorization: `Bearer  ${jwt.slice(1)}` }));
      // The forged headers only pushed the entry out: the real one still works.
      await expectAuthenticated(await as({ Authorization: `Bearer ${jwt}` }));
    });

    it('works as the ptoken cookie set by login with createCookie', async () => {
      const r = await inst.login(ADMIN.username, ADMIN.password, { createCookie: true });
      expect(r.status).toBe(200);
      const setCookie = r.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(/^ptoken=/);
      expect(setCookie).toMatch(/HttpOnly/i);
      expect(setCookie).toMatch(/SameSite=Lax/i);
      expect(setCookie).toMatch(/Path=\//);
      expect(setCookie).toMatch(/Max-Age=86400/);
      expect(setCookie).not.toMatch(/Secure/); // plain http here
      const cookie = setCookie.split(';')[0]!;
      expect(cookie).toBe(`ptoken=${r.body.data.token}`);
      await expectAuthenticated(await as({ Cookie: cookie }));
    });

    it('login without createCookie sets no cookie', async () => {
      const r = await inst.login(ADMIN.username, ADMIN.password);
      expect(r.headers.get('set-cookie')).toBeNull();
      expect(r.body.data).toMatchObject({ token_type: 'Bearer', expires_in: 86400, username: ADMIN.username });
      expect(Date.parse(r.body.data.expires_at)).toBeGreaterThan(Date.now() + 86_000_000);
    });

    it('works as ?ptoken=', async () => expectAuthenticated(await inst.request(`${WHOAMI}?ptoken=${jwt}`)));

    it('rejects a wrong (tampered) JWT in every position', async () => {
      const parts = jwt.split('.');
      const tampered = `${parts[0]}.${parts[1]}.${parts[2]!.slice(0, -4)}AAAA`;
      expect401(await as({ Authorization: `Bearer ${tampered}` }), 'invalid_token');
      expect401(await as({ Cookie: `ptoken=${tampered}` }), 'invalid_token');
      expect401(await inst.request(`${WHOAMI}?ptoken=${tampered}`), 'invalid_token');
    });

    it('rejects a JWT signed with another key and an alg:none JWT', async () => {
      const user = await inst.services.database.db
        .selectFrom('users')
        .selectAll()
        .where('username', '=', ADMIN.username)
        .executeTakeFirstOrThrow();
      const claims = { name: user.username, sst: stampTag(user.security_stamp) };
      const other = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setIssuer('platform-core')
        .setAudience('platform-core')
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('x'.repeat(32)));
      expect401(await as({ Authorization: `Bearer ${other}` }), 'invalid_token');
      const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const none =
        `${b64({ alg: 'none', typ: 'JWT' })}` +
        `.${b64({
          ...claims,
          sub: user.id,
          iss: 'platform-core',
          aud: 'platform-core',
          exp: Math.floor(Date.now() / 1000) + 3600,
        })}.`;
      expect401(await as({ Authorization: `Bearer ${none}` }), 'invalid_token');
    });

    it('rejects an expired JWT signed with the real key, in every position', async () => {
      const key = await inst.services.database.db
        .selectFrom('instance_settings')
        .select('value')
        .where('key', '=', 'jwt_signing_key_v1')
        .executeTakeFirstOrThrow();
      const user = await inst.services.database.db
        .selectFrom('users')
        .selectAll()
        .where('username', '=', ADMIN.username)
        .executeTakeFirstOrThrow();
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({ name: user.username, sst: stampTag(user.security_stamp) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer('platform-core')
        .setAudience('platform-core')
        .setIssuedAt(now - 7200)
        .setExpirationTime(now - 60)
        .sign(new Uint8Array(Buffer.from(key.value, 'base64')));
      expect401(await as({ Authorization: `Bearer ${expired}` }), 'token_expired');
      expect401(await as({ Cookie: `ptoken=${expired}` }), 'token_expired');
      expect401(await inst.request(`${WHOAMI}?ptoken=${expired}`), 'token_expired');
    });
  });

  describe('API token', () => {
    it('works as Token header', async () => expectAuthenticated(await as({ Authorization: `Token ${token}` })));
    it('works as Basic api:<token>', async () => expectAuthenticated(await as({ Authorization: basic('api', token) })));
    it('works as Bearer', async () => expectAuthenticated(await as({ Authorization: `Bearer ${token}` })));
    it('works as ?ptoken=api:<token>', async () =>
      expectAuthenticated(await inst.request(`${WHOAMI}?ptoken=api:${token}`)));

    it('works as a login password with username api, giving a JWT of the owner', async () => {
      const r = await inst.login('api', token);
      expect(r.status, r.text).toBe(200);
      expect(r.body.data.username).toBe(ADMIN.username);
      await expectAuthenticated(await as({ Authorization: `Bearer ${r.body.data.token}` }));
    });

    it('rejects a wrong token in every form', async () => {
      const wrong = generateTokenValue(); // well-formed, never issued
      expect401(await as({ Authorization: `Token ${wrong}` }), 'invalid_token');
      expect401(await as({ Authorization: basic('api', wrong) }), 'invalid_token');
      expect401(await as({ Authorization: `Bearer ${wrong}` }), 'invalid_token');
      expect401(await inst.request(`${WHOAMI}?ptoken=api:${wrong}`), 'invalid_token');
      expect401(await inst.login('api', wrong), 'invalid_credentials');
      expect401(await as({ Authorization: basic('someone', token) }), 'invalid_token');
      // One character changed (to whatever it is not), so the checksum no longer matches.
      const tampered = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`;
      expect(tampered).not.toBe(token);
      expect401(await as({ Authorization: `Token ${tampered}` }), 'invalid_token');
    });

    it('rejects a deleted token at once in every form', async () => {
      const doomed = await newToken('doomed');
      await expectAuthenticated(await as({ Authorization: `Token ${doomed}` })); // now cached
      const del = await inst.request(`/api/core/token/delete/doomed/${ADMIN.username}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${jwt}` },
      });
      expect(del.status).toBe(200);
      expect(del.body.data.item).toMatchObject({ name: 'doomed', value: null });
      expect401(await as({ Authorization: `Token ${doomed}` }), 'invalid_token');
      expect401(await as({ Authorization: basic('api', doomed) }), 'invalid_token');
      expect401(await as({ Authorization: `Bearer ${doomed}` }), 'invalid_token');
      expect401(await inst.request(`${WHOAMI}?ptoken=api:${doomed}`), 'invalid_token');
      expect401(await inst.login('api', doomed), 'invalid_credentials');
    });

    it('token stays valid after logout (only JWT sessions end)', async () => {
      const own = await inst.jwtFor(ADMIN.username, ADMIN.password);
      const out = await as({ Authorization: `Bearer ${own}` }, '/api/core/account/logout');
      expect(out.status).toBe(200);
      jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
      await expectAuthenticated(await as({ Authorization: `Token ${token}` }));
    });
  });

  describe('revoked JWT (logout)', () => {
    it('fails in every position right after logout', async () => {
      const session = await inst.jwtFor(ADMIN.username, ADMIN.password);
      await expectAuthenticated(await as({ Authorization: `Bearer ${session}` }));
      const out = await as({ Authorization: `Bearer ${session}` }, '/api/core/account/logout');
      expect(out.status).toBe(200);
      expect(out.body.data).toEqual({ username: ADMIN.username, sessions_ended: true });
      expect(out.headers.get('set-cookie') ?? '').toMatch(/^ptoken=;/);
      expect401(await as({ Authorization: `Bearer ${session}` }), 'session_ended');
      expect401(await as({ Cookie: `ptoken=${session}` }), 'session_ended');
      expect401(await inst.request(`${WHOAMI}?ptoken=${session}`), 'session_ended');
      jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
    });
  });

  describe('precedence: header over cookie over query', () => {
    it('uses the header even when cookie and query are bad', async () => {
      await expectAuthenticated(
        await inst.request(`${WHOAMI}?ptoken=junk`, {
          headers: { Authorization: `Token ${token}`, Cookie: 'ptoken=junk' },
        }),
      );
    });
    it('a bad header is not rescued by a good cookie or query', async () => {
      expect401(
        await inst.request(`${WHOAMI}?ptoken=${jwt}`, {
          headers: { Authorization: 'Token junk', Cookie: `ptoken=${jwt}` },
        }),
      );
    });
    it('uses the cookie over the query', async () => {
      await expectAuthenticated(await inst.request(`${WHOAMI}?ptoken=junk`, { headers: { Cookie: `ptoken=${jwt}` } }));
      expect401(await inst.request(`${WHOAMI}?ptoken=${jwt}`, { headers: { Cookie: 'ptoken=junk' } }));
    });
  });

  describe('cookie CSRF defence', () => {
    it('refuses a cross-site POST authenticated by the cookie, allows same-origin', async () => {
      const cross = await inst.request('/api/core/token/create/csrf1', {
        method: 'POST',
        headers: { Cookie: `ptoken=${jwt}`, Origin: 'https://evil.example' },
      });
      expect(cross.status).toBe(403);
      expect(cross.body.data.code).toBe('csrf_rejected');
      const noOrigin = await inst.request('/api/core/token/create/csrf2', {
        method: 'POST',
        headers: { Cookie: `ptoken=${jwt}` },
      });
      expect(noOrigin.status).toBe(403);
      const same = await inst.request('/api/core/token/create/csrf3', {
        method: 'POST',
        headers: { Cookie: `ptoken=${jwt}`, Origin: inst.url },
      });
      expect(same.status).toBe(201);
      const header = await inst.request('/api/core/token/create/csrf4', {
        method: 'POST',
        headers: { Authorization: `Bearer ${jwt}`, Origin: 'https://evil.example' },
      });
      expect(header.status).toBe(201);
    });
  });
});
