// The server killed with SIGKILL under concurrent write load loses no acknowledged
// write, on either database, and the database passes its integrity check afterwards. The
// server runs as `platform-core serve` (dist/) in a child process, as an operator runs it.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN } from '../support/instance.js';
import { killChildren, startServe } from '../support/cli-child.js';
import { openDatabase } from '../../src/db/connect.js';
import { sql } from 'kysely';

const TRIALS = 3;

interface Server {
  child: ChildProcess;
  url: string;
}

afterAll(killChildren);

async function serve(db: TestDatabase): Promise<Server> {
  const env = {
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.databaseUrl,
    PLATFORM_ADMIN_USERNAME: ADMIN.username,
    PLATFORM_ADMIN_PASSWORD: ADMIN.password,
    Settings__RenderWorkers: '1',
    Settings__PreviewWorkers: '1',
  };
  return startServe({ env, startTimeoutMs: 60_000 });
}

async function killHard(server: Server): Promise<void> {
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGKILL');
  await exited;
}

async function jwtOf(url: string): Promise<string> {
  const r = await fetch(`${url}/api/core/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { data: { token: string } }).data.token;
}

describe.each(testDatabaseKinds())('SIGKILL under write load on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await dropTestDatabase(db);
  });

  it(`loses no acknowledged write in ${TRIALS} kills`, async () => {
    const acknowledged: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const server = await serve(db);
      const jwt = await jwtOf(server.url);
      let running = true;
      let n = 0;
      const loops = Array.from({ length: 6 }, async () => {
        while (running) {
          const name = `k${trial}_${++n}`;
          try {
            const r = await fetch(`${server.url}/api/core/token/create/${name}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${jwt}` },
            });
            if (r.status === 201) acknowledged.push(name);
            else expect(r.status, await r.text()).toBe(201);
          } catch {
            // The connection died with the server: the write was not acknowledged.
            return;
          }
        }
      });
      await new Promise((r) => setTimeout(r, 700 + trial * 200));
      await killHard(server);
      running = false;
      await Promise.all(loops);
    }
    expect(acknowledged.length).toBeGreaterThan(TRIALS * 10);

    // A last start recovers the database (WAL replay, PostgreSQL crash recovery already done).
    const last = await serve(db);
    await killHard(last);
    const handle = openDatabase({ databaseUrl: db.databaseUrl ?? null, dataDir: db.dataDir, poolSize: 1 });
    try {
      const stored = new Set((await handle.db.selectFrom('tokens').select('name').execute()).map((r) => r.name));
      expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);
      if (kind === 'sqlite') {
        const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(handle.db);
        expect(check.rows.map((r) => r.integrity_check)).toEqual(['ok']);
      }
    } finally {
      await handle.close();
    }
  });
});
