// Done-when 5: no token value and no password is ever written to the database or the logs.
import { readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { createAccount } from '../../src/accounts/account-service.js';
import { CLI_ACTOR } from '../../src/audit/audit-actions.js';
import { callerOf, enrolTotp } from '../support/mfa.js';

describe.each(testDatabaseKinds())('secrets at rest on %s', (kind) => {
  let db: TestDatabase;
  let inst: Instance;
  const secrets: string[] = [ADMIN.password];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    // Log everything the service can log: access lines, every request as "slow", debug level.
    inst = await startInstance(db, {
      Settings__AccessLog: 'true',
      Settings__SlowRequestMs: '1',
      Settings__LogLevel: 'trace',
    });
    const userPassword = 'Very-Secret-Password-9';
    secrets.push(userPassword, 'Wrong-Password-Guess-1');
    await createAccount(
      inst.services.database.db,
      { username: 'judy', password: userPassword, roles: ['sys_tokens'] },
      CLI_ACTOR,
    );

    const login = await inst.login('judy', userPassword, { createCookie: true });
    const jwt = login.body.data.token as string;
    secrets.push(jwt);
    await inst.login('judy', 'Wrong-Password-Guess-1');
    const created = await inst.request('/api/core/token/create/secret-scan', {
      method: 'POST',
      headers: { Authorization: `Bearer ${jwt}` },
    });
    const token = created.body.data.item.value as string;
    secrets.push(token);
    // A second factor: the TOTP secret is kept encrypted, the recovery codes as digests.
    const enrolled = await enrolTotp(callerOf(inst), jwt);
    secrets.push(enrolled.secret, ...enrolled.recoveryCodes);
    // Use every credential form, including the query parameter that ends up in URLs.
    await inst.request(`/api/core/token/user?ptoken=api:${token}`);
    await inst.request(`/api/core/token/user?ptoken=${jwt}`);
    await inst.request('/api/core/token/user', { headers: { Authorization: `Token ${token}` } });
    await inst.request('/api/core/token/user', {
      headers: { Authorization: `Basic ${Buffer.from(`api:${token}`).toString('base64')}` },
    });
    await inst.request('/api/core/token/user', { headers: { Cookie: `ptoken=${jwt}` } });
    await inst.login('api', token);
    // Failures are logged too: a bad query token, a bad header.
    await inst.request(`/api/core/token/user?ptoken=api:${token.slice(0, -1)}Q`);
    await inst.request('/api/core/token/user', { headers: { Authorization: `Token ${token}x` } });
    await inst.services.auth.activity.flush();
  });
  afterAll(async () => {
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  async function databaseText(): Promise<string> {
    if (kind === 'sqlite') {
      // The database file and its WAL, byte for byte. Read by a child process: closing a file
      // descriptor of the database in this process would drop this process's SQLite locks.
      const files = readdirSync(db.dataDir)
        .filter((f) => f.startsWith('platform-core.sqlite'))
        .map((f) => join(db.dataDir, f));
      return execFileSync('cat', files, { maxBuffer: 256 * 1024 * 1024 }).toString('latin1');
    }
    const tables = [
      'users',
      'teams',
      'team_members',
      'roles',
      'user_roles',
      'tokens',
      'instance_settings',
      'audit_log',
      'mfa_totp',
      'mfa_recovery_codes',
    ];
    const parts: string[] = [];
    for (const t of tables) {
      const rows = await sql<{ j: unknown }>`select row_to_json(x) as j from ${sql.table(t)} x`.execute(
        inst.services.database.db,
      );
      parts.push(JSON.stringify(rows.rows));
    }
    return parts.join('\n');
  }

  it('the database holds none of the secrets', async () => {
    const text = await databaseText();
    expect(text.length).toBeGreaterThan(1000);
    expect(text).toContain('judy'); // the scan does see the data
    for (const s of secrets) expect(text.includes(s), `secret found in the database: ${s.slice(0, 8)}…`).toBe(false);
    // The token tail alone (the random part) must not be there either.
    for (const s of secrets.filter((x) => x.startsWith('pct_'))) expect(text.includes(s.slice(4, 30))).toBe(false);
  });

  it('the logs hold none of the secrets, and do log the requests', async () => {
    await new Promise((r) => setTimeout(r, 100));
    const logs = inst.logs();
    expect(logs).toContain('/api/core/token/user?ptoken=[REDACTED]');
    expect(logs).toContain('authentication failed');
    for (const line of logs.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    for (const s of secrets) expect(logs.includes(s), `secret found in the logs: ${s.slice(0, 8)}…`).toBe(false);
    for (const s of secrets.filter((x) => x.startsWith('pct_'))) expect(logs.includes(s.slice(4, 30))).toBe(false);
  });

  it('every log line of a request carries its request id', async () => {
    const r = await inst.request('/api/core/token/user?ptoken=junk', { headers: { 'X-Request-Id': 'trace-me-42' } });
    expect(r.body.requestID).toBe('trace-me-42');
    expect(r.headers.get('x-request-id')).toBe('trace-me-42');
    await new Promise((res) => setTimeout(res, 100));
    const lines = inst
      .logs()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((l) => l.requestId === 'trace-me-42');
    expect(lines.length).toBeGreaterThanOrEqual(2); // the auth failure and the access line
    const insane = await inst.request('/healthz', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(insane.body.requestID).not.toBe('bad id with spaces');
    expect(insane.body.requestID).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  });
});
