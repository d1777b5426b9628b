// A client's X-Request-Id is bound to every log line of its request, echoed in the answer and
// stored with the audit rows: it is kept only when it is at most 64 of [A-Za-z0-9._-] and does
// not look like a credential. An API token or a JWT sent as the id by mistake is replaced by a
// new id, so it is neither logged nor echoed; and any token-shaped text in any log line (here a
// token pasted into the username field) is redacted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';

describe.each(testDatabaseKinds())('request ids on %s', (kind) => {
  let db: TestDatabase;
  let inst: Instance;
  let jwt: string;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    inst = await startInstance(db);
    jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
    const created = await inst.request('/api/core/token/create/request-id-test', {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
    });
    expect(created.status, created.text).toBe(201);
    token = created.body.data.item.value;
  });
  afterAll(async () => {
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  /** A failed login (401, always logged) with this X-Request-Id: the id the server used. */
  async function failedLoginWithId(id: string): Promise<string> {
    const r = await inst.request('/api/core/account/login', {
      method: 'POST',
      headers: { 'x-request-id': id },
      json: { username: 'nobody.here', password: 'wrong-password' },
    });
    expect(r.status).toBe(401);
    const echoed = r.headers.get('x-request-id') ?? '';
    expect(r.body.requestID).toBe(echoed);
    return echoed;
  }

  it('keeps a plain id of up to 64 characters and binds it to the request’s log lines', async () => {
    const id = `trace-1.a_B-${'x'.repeat(52)}`;
    expect(id).toHaveLength(64);
    expect(await failedLoginWithId(id)).toBe(id);
    const lines = inst
      .logs()
      .split('\n')
      .filter((l) => l.includes(`"requestId":"${id}"`));
    expect(lines.some((l) => l.includes('"authentication failed"'))).toBe(true);
  });

  it('replaces an id that is too long or has other characters', async () => {
    for (const id of ['y'.repeat(65), 'a:b', 'a/b', 'a b', 'ümlaut']) {
      const used = await failedLoginWithId(id);
      expect(used, JSON.stringify(id)).not.toBe(id);
      expect(used).toMatch(/^[A-Za-z0-9]+-[a-z0-9]+$/);
    }
  });

  it('replaces an API token or a JWT sent as the id: never echoed, logged or stored', async () => {
    const jwtLike = `${jwt.split('.')[0]}.e30.${'s'.repeat(8)}`; // JWT-shaped and short enough to fit
    for (const id of [token, token.toUpperCase(), jwtLike]) {
      expect(id.length).toBeLessThanOrEqual(64);
      const used = await failedLoginWithId(id);
      expect(used).not.toBe(id);
      expect(used).not.toMatch(/pct_|eyJ/i);
    }
    // The audit rows of those failed logins carry the new ids.
    const rows = await inst.services.database.db.selectFrom('audit_log').select('request_id').execute();
    expect(rows.filter((r) => r.request_id !== null && /pct_|eyJ/i.test(r.request_id))).toEqual([]);
    expect(inst.logs()).not.toContain(token);
    expect(inst.logs().toLowerCase()).not.toContain(token.toLowerCase());
    expect(inst.logs()).not.toContain(jwtLike);
  });

  it('redacts a token pasted as the username, and a JWT too, in the failed login’s log line', async () => {
    // A username is at most 256 characters: as much of the JWT as fits.
    const jwtPart = jwt.slice(0, 256);
    for (const username of [token, jwtPart]) {
      const r = await inst.login(username, 'wrong-password');
      expect(r.status).toBe(401);
      const line = inst
        .logs()
        .split('\n')
        .find((l) => l.includes(`"requestId":"${r.headers.get('x-request-id')}"`) && l.includes('authentication'));
      expect(line, 'the failed login is logged').toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({ username: '[REDACTED]', msg: 'authentication failed' });
    }
    expect(inst.logs()).not.toContain(token);
    expect(inst.logs()).not.toContain(jwtPart.slice(20));
    // Nor is it kept in the audit trail, which administrators read.
    const actors = await inst.services.database.db
      .selectFrom('audit_log')
      .select('actor')
      .where('action', '=', 'login_failed')
      .execute();
    expect(actors.map((a) => a.actor)).toEqual(expect.arrayContaining(['[REDACTED]']));
    for (const { actor } of actors) {
      expect(actor).not.toContain(token.slice(4));
      expect(actor).not.toContain(jwtPart.slice(20));
    }
  });
});
