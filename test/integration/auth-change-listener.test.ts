// The PostgreSQL auth change listener on its own (auth/auth-change-listener.ts), behind a TCP
// proxy the test can cut and keep closed: announcements arrive only when their transaction
// commits; while the connection is down nothing arrives, reconnection is retried (without
// crashing the process) and, once back, the caches are told to resync (notifications sent
// meanwhile are lost) and announcements arrive again.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { AuthChangeListener } from '../../src/auth/auth-change-listener.js';
import {
  announceAuthChange,
  decodeAuthChange,
  encodeAuthChange,
  type AuthChange,
} from '../../src/auth/auth-changes.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) return false;
    await sleep(20);
  }
  return true;
}

/** Forwards TCP to PostgreSQL; `cut()` drops every connection, `refusing` turns new ones away. */
class TcpProxy {
  refusing = false;
  port = 0;
  private readonly sockets = new Set<Socket>();
  readonly server: Server = createServer((client) => {
    if (this.refusing) return void client.destroy();
    const upstream = connect(this.target.port, this.target.host);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => this.sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  cut(): void {
    for (const s of this.sockets) s.destroy();
  }
}

describe('auth change payloads', () => {
  it('round-trip, and anything unreadable or too large evicts everything', () => {
    expect(decodeAuthChange(encodeAuthChange({ users: ['u1'], tokens: ['t1', 't2'] }))).toEqual({
      users: ['u1'],
      tokens: ['t1', 't2'],
    });
    for (const bad of [undefined, '', 'not json', '{"u":[1]}', '{"u":[]}', '[]'])
      expect(decodeAuthChange(bad), String(bad)).toEqual({ users: [], tokens: [], all: true });
    const many = Array.from({ length: 500 }, (_, i) => `user-${i}-${'x'.repeat(30)}`);
    expect(Buffer.byteLength(encodeAuthChange({ users: many }))).toBeLessThan(8000);
    expect(decodeAuthChange(encodeAuthChange({ users: many })).all).toBe(true);
  });
});

describe.runIf(testDatabaseKinds().includes('postgres'))('the PostgreSQL auth change listener', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let sender: Kysely<any>;
  let listener: AuthChangeListener;
  const changes: AuthChange[] = [];
  let resyncs = 0;
  const warnings: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    const url = new URL(db.databaseUrl!);
    proxy = new TcpProxy({ host: url.hostname, port: Number(url.port) });
    await proxy.listen();
    const viaProxy = new URL(db.databaseUrl!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    sender = new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: db.databaseUrl, max: 2 }) }),
    });
    listener = new AuthChangeListener({
      connectionString: viaProxy.toString(),
      connectTimeoutMs: 1000,
      onChange: (c) => changes.push(c),
      onResync: () => (resyncs += 1),
      logger: { warn: (_o: unknown, msg?: string) => void warnings.push(String(msg)), info: () => undefined } as never,
    });
    await listener.start();
  });
  afterAll(async () => {
    await listener?.close();
    await sender?.destroy();
    await new Promise((r) => proxy?.server.close(r));
    if (db) await dropTestDatabase(db);
  });

  it('hears an announcement only when its transaction commits', async () => {
    expect(listener.listening).toBe(true);
    expect(resyncs).toBe(1);
    await sender.transaction().execute(async (trx) => {
      await announceAuthChange(trx, { users: ['committed-user'], tokens: ['committed-token'] });
      // Not delivered before the commit.
      await sleep(200);
      expect(changes).toEqual([]);
    });
    expect(await until(() => changes.length === 1, 1000)).toBe(true);
    expect(changes[0]).toEqual({ users: ['committed-user'], tokens: ['committed-token'] });

    await expect(
      sender.transaction().execute(async (trx) => {
        await announceAuthChange(trx, { users: ['rolled-back'] });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await sleep(300);
    expect(changes.map((c) => c.users[0])).toEqual(['committed-user']);
  });

  it('survives losing its connection, retries while the database is unreachable, and resyncs once back', async () => {
    proxy.refusing = true;
    proxy.cut();
    expect(await until(() => !listener.listening, 2000)).toBe(true);
    // Sent while no one listens: lost (hence the resync below).
    await announceAuthChange(sender, { users: ['while-away'] });
    await sleep(1500);
    expect(listener.listening).toBe(false);
    expect(warnings.some((w) => /lost its connection/.test(w))).toBe(true);
    expect(warnings.filter((w) => /could not connect/.test(w)).length).toBeGreaterThanOrEqual(2);

    proxy.refusing = false;
    // Back within the backoff (at most a few seconds after a short outage).
    expect(await until(() => listener.listening, 8000)).toBe(true);
    expect(resyncs).toBe(2);
    expect(changes.map((c) => c.users[0])).not.toContain('while-away');
    await announceAuthChange(sender, { users: ['after-reconnect'] });
    expect(await until(() => changes.some((c) => c.users[0] === 'after-reconnect'), 1000)).toBe(true);
  }, 20_000);

  it('closes for good', async () => {
    await listener.close();
    expect(listener.listening).toBe(false);
    proxy.cut();
    await sleep(600);
    expect(listener.listening).toBe(false);
  });
});
