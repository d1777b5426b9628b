// PostgreSQL dying, frozen or stopped under load never takes the service
// down; requests that lose the database answer 503 `database_unavailable` with Retry-After; the
// service is back on its own within 2 s of the database. On a cluster of this file's own
// (private-postgres.ts): killing or freezing the shared one would break the other test files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.js';

const server = await startPrivatePostgres();
if (!server) {
  if (process.env.REQUIRE_POSTGRES === '1')
    throw new Error('REQUIRE_POSTGRES=1 but no PostgreSQL server binaries were found');
  process.stderr.write('database-faults: PostgreSQL tests SKIPPED (no server binaries)\n');
}

const STATEMENT_TIMEOUT_S = 3;
const CONNECT_TIMEOUT_S = 2;

interface Outcome {
  name: string;
  status: number;
  code?: string;
  retryAfter: string | null;
}

describe.skipIf(!server)('PostgreSQL faults', () => {
  const pgs = server as PrivatePostgres;
  let dataDir: string;
  let databaseUrl: string;
  let inst: Instance;
  let jwt: string;
  let counter = 0;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'platform-core-faults-'));
    databaseUrl = await pgs.createDatabase('faults');
    inst = await startInstance(
      { kind: 'postgres', databaseUrl, dataDir },
      {
        Settings__DatabaseStatementTimeoutSeconds: String(STATEMENT_TIMEOUT_S),
        Settings__DatabaseConnectTimeoutSeconds: String(CONNECT_TIMEOUT_S),
      },
    );
    jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
  });

  afterAll(async () => {
    await inst?.stop();
    await pgs.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** One acknowledged-or-refused write: an API token of the administrator's, named uniquely. */
  async function write(): Promise<Outcome> {
    const name = `t${++counter}`;
    const r = await inst.request(`/api/core/token/create/${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
    });
    return { name, status: r.status, code: r.body?.data?.code, retryAfter: r.headers.get('retry-after') };
  }

  /** Writes from `workers` loops until `stop()`; every outcome is kept. */
  function writeLoad(workers: number): { outcomes: Outcome[]; stop(): Promise<void> } {
    const outcomes: Outcome[] = [];
    let running = true;
    const loops = Array.from({ length: workers }, async () => {
      while (running) outcomes.push(await write());
    });
    return {
      outcomes,
      async stop() {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** Time from now until a write is acknowledged again, polling every 50 ms. */
  async function msUntilWritesWork(limitMs: number): Promise<number> {
    const started = Date.now();
    for (;;) {
      if ((await write()).status === 201) return Date.now() - started;
      if (Date.now() - started > limitMs) return Infinity;
      await pause(50);
    }
  }

  function expectRefusalsWellFormed(outcomes: Outcome[]): void {
    for (const o of outcomes) {
      expect([201, 503], `${o.name}: ${o.status} ${o.code}`).toContain(o.status);
      if (o.status === 503) {
        expect(o.code).toBe('database_unavailable');
        expect(Number(o.retryAfter)).toBeGreaterThan(0);
      }
    }
  }

  async function expectAcknowledgedKept(outcomes: Outcome[]): Promise<void> {
    const acknowledged = outcomes.filter((o) => o.status === 201).map((o) => o.name);
    const rows = await pgs.query<{ name: string }>(databaseUrl, 'select name from tokens');
    const stored = new Set(rows.map((r) => r.name));
    expect(acknowledged.filter((n) => !stored.has(n))).toEqual([]);
  }

  it('survives its backends being terminated and a backend being killed with SIGKILL, under write load', async () => {
    const load = writeLoad(8);
    await pause(500);
    // Every connection of the service, at once (what a failover or an administrator does).
    await pgs.query(
      databaseUrl,
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = 'faults' and pid <> pg_backend_pid()",
    );
    await pause(500);
    // One backend killed outright (what the OOM killer does): the postmaster then ends every
    // other backend and recovers, refusing connections meanwhile.
    const [victim] = await pgs.query<{ pid: number }>(
      databaseUrl,
      "select pid from pg_stat_activity where datname = 'faults' and application_name = 'platform-core' and " +
        'pid <> pg_backend_pid() limit 1',
    );
    expect(victim, 'a backend of the service to kill').toBeDefined();
    process.kill(victim!.pid, 'SIGKILL');
    await pause(300);
    await pgs.waitUntilQueryable();
    const recoveredIn = await msUntilWritesWork(10_000);
    await pause(300);
    await load.stop();

    expect(recoveredIn, 'ms from the database being back to an acknowledged write').toBeLessThan(2_000);
    expectRefusalsWellFormed(load.outcomes);
    expect(
      load.outcomes.filter((o) => o.status === 503).length,
      'writes in flight during the faults answered 503',
    ).toBeGreaterThan(0);
    expect(load.outcomes.filter((o) => o.status === 201).length).toBeGreaterThan(10);
    await expectAcknowledgedKept(load.outcomes);
    expect(inst.logs()).not.toMatch(/"msg":"request failed"/);
    // Readiness is back too.
    expect((await inst.request('/readyz')).status).toBe(200);
  });

  it('answers within bounded time while the server is frozen, and normally within 2 s of it thawing', async () => {
    expect((await write()).status).toBe(201);
    pgs.freeze();
    let thawed = false;
    try {
      const readyStarted = Date.now();
      const ready = await inst.request('/readyz');
      const readyMs = Date.now() - readyStarted;
      expect(ready.status).toBe(503);
      expect(readyMs, '/readyz answers within 2 s').toBeLessThan(2_000);

      const writes = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const started = Date.now();
          return { ...(await write()), ms: Date.now() - started };
        }),
      );
      for (const w of writes) {
        expect(w.status).toBe(503);
        expect(w.code).toBe('database_unavailable');
        // The statement timeout, plus what a request costs besides the stuck query.
        expect(w.ms, 'a write answers within the statement timeout').toBeLessThan(STATEMENT_TIMEOUT_S * 1000 + 1_000);
      }
      const login = await inst.login(ADMIN.username, ADMIN.password);
      expect(login.status).toBe(503);
      expect(login.body.data.code).toBe('database_unavailable');
      pgs.thaw();
      thawed = true;
    } finally {
      if (!thawed) pgs.thaw();
    }
    const thawedAt = Date.now();
    expect(await msUntilWritesWork(10_000)).toBeLessThan(2_000);
    for (;;) {
      if ((await inst.request('/readyz')).status === 200) break;
      expect(Date.now() - thawedAt, '/readyz is 200 again within 2 s').toBeLessThan(2_000);
      await pause(50);
    }
  });

  it(
    'answers 503 database_unavailable to logins, writes and readiness while the server is down, and recovers ' +
      'when it is back',
    async () => {
      await pgs.stop();
      let started = false;
      try {
        const login = await inst.login(ADMIN.username, ADMIN.password);
        expect([login.status, login.body?.data?.code]).toEqual([503, 'database_unavailable']);
        expect(Number(login.headers.get('retry-after'))).toBeGreaterThan(0);
        const w = await write();
        expect([w.status, w.code]).toEqual([503, 'database_unavailable']);
        expect((await inst.request('/readyz')).status).toBe(503);
        await pgs.start();
        started = true;
      } finally {
        if (!started) await pgs.start();
      }
      expect(await msUntilWritesWork(10_000)).toBeLessThan(2_000);
      expect((await inst.login(ADMIN.username, ADMIN.password)).status).toBe(200);
    },
  );

  it('logged the refusals of all these faults as warnings, none as an error', () => {
    const lines = inst
      .logs()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; msg: string; code?: string });
    expect(lines.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([]);
    const warned = new Set(lines.filter((l) => l.level === 40).map((l) => l.code));
    expect(warned).toContain('database_unavailable');
    expect(warned).toContain('not_ready');
  });
});
