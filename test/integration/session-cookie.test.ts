// The session cookie set by login with createCookie (and cleared by logout) is Secure whenever
// the request came over TLS: here through a proxy the server trusts (Settings:TrustProxy),
// which says so in X-Forwarded-Proto, whatever its case. A client talking to the server
// directly cannot claim TLS with that header, and a plain-HTTP request gets no Secure cookie
// (a browser would drop it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';

describe.each(testDatabaseKinds())('the session cookie on %s', (kind) => {
  let db: TestDatabase;
  let proxied: Instance;
  let direct: Instance;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    proxied = await startInstance(db, { Settings__TrustProxy: 'true' });
    direct = await startInstance(db);
  });
  afterAll(async () => {
    await proxied?.stop();
    await direct?.stop();
    if (db) await dropTestDatabase(db);
  });

  async function loginCookie(inst: Instance, proto?: string): Promise<string> {
    const r = await inst.request('/api/core/account/login', {
      method: 'POST',
      headers: proto === undefined ? {} : { 'x-forwarded-proto': proto },
      json: { ...ADMIN, createCookie: true },
    });
    expect(r.status, r.text).toBe(200);
    const cookie = r.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^ptoken=/);
    return cookie;
  }

  const isSecure = (setCookie: string): boolean => setCookie.split(/;\s*/).some((a) => a.toLowerCase() === 'secure');

  it('is Secure behind a trusted proxy that received the request over TLS, in any spelling', async () => {
    for (const proto of ['https', 'HTTPS', 'Https', ' https ', 'http, https']) {
      expect(isSecure(await loginCookie(proxied, proto)), JSON.stringify(proto)).toBe(true);
    }
  });

  it('is not Secure over plain HTTP, nor when an untrusted client claims TLS', async () => {
    expect(isSecure(await loginCookie(proxied))).toBe(false);
    expect(isSecure(await loginCookie(proxied, 'http'))).toBe(false);
    expect(isSecure(await loginCookie(direct, 'https'))).toBe(false);
  });

  it('is cleared by logout with the attributes it was set with', async () => {
    const cookie = (await loginCookie(proxied, 'https')).split(';')[0]!;
    const r = await proxied.request('/api/core/account/logout', {
      method: 'POST',
      headers: { cookie, 'x-forwarded-proto': 'https', 'sec-fetch-site': 'same-origin' },
    });
    expect(r.status, r.text).toBe(200);
    const cleared = r.headers.get('set-cookie') ?? '';
    expect(cleared).toMatch(/^ptoken=;/);
    expect(isSecure(cleared)).toBe(true);
    expect(cleared).toMatch(/HttpOnly/i);
    expect(cleared).toMatch(/SameSite=Lax/i);
  });
});
