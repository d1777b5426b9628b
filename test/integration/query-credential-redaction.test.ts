// `?%70token=api:…` and `?ptoke%6E=…` authenticate (the query parser decodes
// keys) and must not be written to the log, nor any other spelling of the key, on any log line
// (access, slow, error). Every request here carries a real secret; the ones whose spelling the
// server takes as `ptoken` are shown to authenticate, so the secret did reach the server.
// Requests go over a raw socket: fetch would normalise the URL (drop `#…`, refuse `%ZZ`).
// Logging does not depend on the database, so SQLite alone is used.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, type TestDatabase } from '../support/databases.js';
import { startInstance, type Instance } from '../support/instance.js';
import { createAccount } from '../../src/accounts/account-service.js';
import { CLI_ACTOR } from '../../src/audit/audit-actions.js';

const WHOAMI = '/api/core/token/user';
const PING = '/api/core/system/ping';

interface RawAnswer {
  status: number;
  body: any;
}

/** One GET written byte for byte; the target goes on the request line exactly as given. */
function rawGet(port: number, target: string, requestId: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      let body: unknown;
      try {
        body = JSON.parse(rest.join('\r\n\r\n'));
      } catch {
        body = undefined;
      }
      resolve({ status: Number(head.split(' ')[1]), body });
    });
    socket.write(
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n`,
    );
  });
}

/** How a spelling is expected to be answered: authenticated as quinn, or not. */
type Outcome = 'authenticated' | 'not authenticated' | 'not found' | 'bad url';

interface Case {
  name: string;
  target: (s: { token: string; jwt: string; origin: string }) => string;
  outcome: Outcome;
}

const CASES: Case[] = [
  // Spellings the server takes as `ptoken`.
  { name: 'plain', target: (s) => `${WHOAMI}?ptoken=api:${s.token}`, outcome: 'authenticated' },
  { name: '%70token', target: (s) => `${WHOAMI}?%70token=api:${s.token}`, outcome: 'authenticated' },
  { name: 'ptoke%6E', target: (s) => `${WHOAMI}?ptoke%6E=${s.jwt}`, outcome: 'authenticated' },
  { name: 'ptoke%6e lower-case hex', target: (s) => `${WHOAMI}?ptoke%6e=api:${s.token}`, outcome: 'authenticated' },
  { name: 'every letter escaped', target: (s) => `${WHOAMI}?%70%74%6F%6B%65%6E=${s.jwt}`, outcome: 'authenticated' },
  { name: 'api: prefix escaped', target: (s) => `${WHOAMI}?p%74oken=%61%70%69%3A${s.token}`, outcome: 'authenticated' },
  { name: 'API: prefix upper-case', target: (s) => `${WHOAMI}?ptoken=API%3a${s.token}`, outcome: 'authenticated' },
  { name: 'among other pairs', target: (s) => `${WHOAMI}?a=1&&%70token=${s.jwt}&b=2`, outcome: 'authenticated' },
  {
    name: 'query after # (the router starts a query there)',
    target: (s) => `${WHOAMI}#ptoken=api:${s.token}`,
    outcome: 'authenticated',
  },
  {
    name: 'absolute-form request target',
    target: (s) => `${s.origin}${WHOAMI}?ptoke%6E=api:${s.token}`,
    outcome: 'authenticated',
  },
  { name: 'ping asked for a 500', target: (s) => `${PING}?statusCode=500&%70token=${s.jwt}`, outcome: 'authenticated' },
  {
    name: 'ping asked for a 503',
    target: (s) => `${PING}?%70token=api:${s.token}&statusCode=503`,
    outcome: 'authenticated',
  },
  // Spellings that do not authenticate but still carry the secret.
  { name: '%50token (Ptoken)', target: (s) => `${WHOAMI}?%50token=api:${s.token}`, outcome: 'not authenticated' },
  { name: 'PTOKEN', target: (s) => `${WHOAMI}?PTOKEN=${s.jwt}`, outcome: 'not authenticated' },
  { name: 'pToKeN', target: (s) => `${WHOAMI}?pToKeN=api:${s.token}`, outcome: 'not authenticated' },
  { name: 'double encoding', target: (s) => `${WHOAMI}?%2570token=${s.jwt}`, outcome: 'not authenticated' },
  { name: 'trailing + (space)', target: (s) => `${WHOAMI}?ptoken+=${s.jwt}`, outcome: 'not authenticated' },
  { name: 'trailing %20', target: (s) => `${WHOAMI}?ptoken%20=api:${s.token}`, outcome: 'not authenticated' },
  { name: 'NUL in the key', target: (s) => `${WHOAMI}?pto%00ken=${s.jwt}`, outcome: 'not authenticated' },
  { name: 'overlong UTF-8 p', target: (s) => `${WHOAMI}?%C1%B0token=${s.jwt}`, outcome: 'not authenticated' },
  { name: 'fullwidth p', target: (s) => `${WHOAMI}?%EF%BD%90token=api:${s.token}`, outcome: 'not authenticated' },
  { name: 'repeated key', target: (s) => `${WHOAMI}?ptoken=x&ptoken=${s.jwt}`, outcome: 'not authenticated' },
  { name: 'array key', target: (s) => `${WHOAMI}?ptoken[]=api:${s.token}`, outcome: 'not authenticated' },
  { name: '; separator', target: (s) => `${WHOAMI}?a=1;ptoken=${s.jwt}`, outcome: 'not authenticated' },
  { name: 'value with a fragment', target: (s) => `${WHOAMI}?ptoken=${s.jwt}#frag`, outcome: 'not authenticated' },
  { name: 'key after #', target: (s) => `${WHOAMI}?x#ptoken=${s.jwt}`, outcome: 'not authenticated' },
  {
    name: 'broken escape in the key',
    target: (s) => `${WHOAMI}?ptoken%ZZ=api:${s.token}`,
    outcome: 'not authenticated',
  },
  { name: 'broken escape in the value', target: (s) => `${WHOAMI}?ptoken=${s.jwt}%ZZ`, outcome: 'not authenticated' },
  { name: 'encoded =', target: (s) => `${WHOAMI}?ptoken%3D${s.jwt}`, outcome: 'not authenticated' },
  { name: 'path parameter', target: (s) => `${WHOAMI};ptoken=${s.jwt}`, outcome: 'not found' },
  { name: 'encoded ? in the path', target: (s) => `${WHOAMI}%3Fptoken=api%3A${s.token}`, outcome: 'not found' },
  { name: 'unknown route', target: (s) => `/api/core/nope?%70token=api:${s.token}`, outcome: 'not found' },
  { name: 'bad percent-encoding in the path', target: (s) => `/api/core/%ZZ/x?ptoke%6E=${s.jwt}`, outcome: 'bad url' },
];

describe('query credentials in the logs', () => {
  let db: TestDatabase;
  let inst: Instance;
  const secrets = { token: '', jwt: '', origin: '' };
  const answers = new Map<string, RawAnswer>();

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    // Every request logs: access lines on, and every request is "slow" (a warn line).
    inst = await startInstance(db, {
      Settings__AccessLog: 'true',
      Settings__SlowRequestMs: '1',
      Settings__LogLevel: 'trace',
    });
    await createAccount(
      inst.services.database.db,
      {
        username: 'quinn',
        password: 'dhvaa-password-1',
        roles: ['sys_tokens'],
      },
      CLI_ACTOR,
    );
    secrets.jwt = await inst.jwtFor('quinn', 'dhvaa-password-1');
    const created = await inst.request('/api/core/token/create/redaction', {
      method: 'POST',
      headers: { Authorization: `Bearer ${secrets.jwt}` },
    });
    secrets.token = created.body.data.item.value as string;
    secrets.origin = inst.url;
    const port = Number(new URL(inst.url).port);
    for (const [i, c] of CASES.entries()) answers.set(c.name, await rawGet(port, c.target(secrets), `enc-${i}`));
    await new Promise((r) => setTimeout(r, 100));
  });
  afterAll(async () => {
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('tests at least 20 spellings, and the ones the server reads as ptoken authenticate', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
    for (const c of CASES) {
      const a = answers.get(c.name)!;
      switch (c.outcome) {
        case 'authenticated':
          if (c.target(secrets).startsWith(PING)) {
            expect(a.body?.data?.items?.authenticated, c.name).toBe(true);
            expect(a.body.data.items.username, c.name).toBe('quinn');
          } else {
            expect(a.status, c.name).toBe(200);
            expect(
              a.body.data.items.map((t: { username: string; name: string }) => `${t.username}/${t.name}`),
              c.name,
            ).toEqual(['quinn/redaction']);
          }
          break;
        case 'not authenticated':
          expect(a.status, c.name).toBe(401);
          break;
        case 'not found':
          expect(a.status, c.name).toBe(404);
          expect(JSON.stringify(a.body), `${c.name}: the 404 message`).not.toContain(secrets.jwt.split('.')[2]);
          break;
        case 'bad url':
          expect(a.status, c.name).toBe(400);
          expect(a.body.data.code, c.name).toBe('bad_url');
      }
    }
  });

  it('logs every request, with its URL redacted', () => {
    const lines = inst
      .logs()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { requestId?: string; url?: string; msg?: string });
    for (const [i, c] of CASES.entries()) {
      const own = lines.filter(
        (l) => l.requestId === `enc-${i}` && (l.msg === 'slow request' || l.msg === 'request completed'),
      );
      expect(own.length, `${c.name}: its access or slow line`).toBe(1);
      for (const l of own) expect(l.url, c.name).toContain('[REDACTED]');
    }
  });

  it('holds neither secret, nor a distinctive slice of one', () => {
    const logs = inst.logs();
    expect(logs).toContain('authentication failed');
    const [header, payload, signature] = secrets.jwt.split('.') as [string, string, string];
    expect(header.length).toBeGreaterThan(10);
    for (const s of [
      secrets.token,
      secrets.token.slice(4),
      secrets.token.slice(4, 30),
      secrets.token.slice(20),
      secrets.jwt,
      payload,
      signature,
      signature.slice(0, 20),
    ]) {
      expect(logs.includes(s), `secret found in the logs: ${s.slice(0, 8)}…`).toBe(false);
    }
  });
});
