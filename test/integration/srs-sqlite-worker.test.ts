// SRS commands on SQLite run in command processes (src/srs/sqlite-commands), each with its own
// connection to the database file, so report SQL never runs on the server's event loop. A
// statement past the limit is stopped by killing its process: the answer comes at the limit,
// the server keeps answering meanwhile, the transaction is discarded and its write lock released
// at once; a fresh process serves the next request. Tested through the HTTP service and on the
// pool itself (abort, queue, close, crash of the server).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteFile } from '../../src/db/sqlite-file.js';
import { CommandFailedError } from '../../src/srs/run-commands.js';
import { SqliteCommandExecutor } from '../../src/srs/sqlite-commands/executor.js';
import { CommandPoolClosedError, SqliteCommandPool } from '../../src/srs/sqlite-commands/pool.js';
import type { RunCommand, RunJob } from '../../src/srs/sqlite-commands/protocol.js';
import { dropTestDatabase } from '../support/databases.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';

/** Never ends on its own: only killing its process stops it. */
const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) AS n FROM c';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const command = (name: string, ...statements: string[]): RunCommand => ({
  name,
  output: 'rows',
  statements: statements.map((s) => ({ sql: s, parameters: [] })),
});
const job = (commands: RunCommand[], statementTimeoutMs = 30_000, maxRows = 1000): RunJob => ({
  commands,
  statementTimeoutMs,
  maxRows,
});

describe('SRS commands on SQLite, through the service', () => {
  let f: SrsFixture;
  let stopped = false;
  const executor = () => {
    const e = f.inst.services.srs.commands;
    if (!(e instanceof SqliteCommandExecutor)) throw new Error('SQLite SRS commands do not use the command processes');
    return e;
  };
  const pool = async () => (await executor().stats())!;

  beforeAll(async () => {
    f = await startSrsFixture('sqlite', { Settings__SrsStatementTimeoutSeconds: '0.5' });
    await sql`CREATE TABLE app.srs_worker_audit (what VARCHAR(50) NOT NULL)`.execute(f.inst.services.database.withApps);
    const srs = join(f.appsDir, 'demo', 'srs');
    writeFileSync(
      join(srs, '80-endless.xml'),
      `<srs label="Endless"><def>
      <itm model="command" name="srssetup">INSERT INTO srs_worker_audit (what) VALUES ('written by setup')</itm>
      <itm model="command" name="endless">${ENDLESS}</itm>
    </def></srs>`,
    );
    writeFileSync(
      join(srs, '81-quick.xml'),
      `<srs label="Quick"><def>
      <itm model="param" name="n" type="int">2</itm>
      <itm model="param" name="label">none</itm>
      <itm model="command" name="head" opts="dtsingle">SELECT @n AS n, 'x' || :label AS label</itm>
      <itm model="command" name="rows">WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c ` +
        `WHERE i &lt; @n) SELECT i FROM c</itm>
    </def></srs>`,
    );
  });
  afterAll(async () => {
    if (!stopped) await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it('runs the commands in a command process whose connection is reused between requests', async () => {
    for (const n of [1, 2, 3]) {
      const r = await f.as(f.adminJwt, `/api/srs/81/data.json?app_name=demo&n=${n}&label=%27${n}`);
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toEqual({
        head: { n, label: `x'${n}` },
        rows: Array.from({ length: n }, (_, i) => ({ i: i + 1 })),
      });
    }
    const stats = await pool();
    expect(stats.started).toBe(1);
    expect(stats.pids).toHaveLength(1);
    expect(stats.pids[0]).not.toBe(process.pid);
    expect(alive(stats.pids[0]!)).toBe(true);
  });

  it(
    'a statement past the limit is stopped there: 422 at once, the server answers meanwhile, the setup write ' +
      'is discarded, a fresh process follows',
    async () => {
      const before = await pool();
      const [pid] = before.pids;
      const db = f.inst.services.database.withApps;
      const started = performance.now();
      const endless = f.as(f.adminJwt, '/api/srs/80/data.json?app_name=demo', {
        headers: { 'X-Request-Id': 'srs-endless-1' },
      });
      await expect.poll(async () => (await pool()).busy, { interval: 10 }).toBe(1);
      const pingStarted = performance.now();
      expect((await f.as(null, '/api/core/system/ping')).status).toBe(200);
      expect(performance.now() - pingStarted).toBeLessThan(300);

      const r = await endless;
      expect(r.status, r.text).toBe(422);
      expect(r.body.data.code).toBe('command_failed');
      expect(r.body.message).toBe(
        'Command "endless" ran longer than the statement timeout (0.5 s, Settings:SrsStatementTimeoutSeconds)',
      );
      expect(performance.now() - started).toBeLessThan(2000);
      // The process running it is gone, and with it the statement.
      await expect.poll(() => alive(pid!), { timeout: 2000, interval: 20 }).toBe(false);
      // Its transaction is discarded and its write lock released: the server's connection writes
      // at once (it would otherwise wait for busy_timeout, 5 s, and fail).
      const writeStarted = performance.now();
      await sql`INSERT INTO app.srs_worker_audit (what) VALUES ('written by the server')`.execute(db);
      expect(performance.now() - writeStarted).toBeLessThan(500);
      const rows = await sql<{ what: string }>`SELECT what FROM app.srs_worker_audit`.execute(db);
      expect(rows.rows).toEqual([{ what: 'written by the server' }]);
      const logLine = () =>
        f.inst
          .logs()
          .split('\n')
          .find((l) => l.includes('srs-endless-1') && l.includes('its SQLite command process was killed'));
      await expect.poll(logLine, { timeout: 5000 }).toBeTruthy();

      const next = await f.as(f.adminJwt, '/api/srs/81/data.json?app_name=demo&n=1');
      expect(next.status).toBe(200);
      const after = await pool();
      expect(after.started).toBe(before.started + 1);
      expect(after.pids).not.toContain(pid);
    },
  );

  it('a failing command keeps its process; the answer names the command, the log has the driver error', async () => {
    writeFileSync(
      join(f.appsDir, 'demo', 'srs', '82-fails.xml'),
      '<srs label="Fails"><def><itm model="command" name="boom">SELECT nope FROM no_such_table_w</itm></def></srs>',
    );
    const before = await pool();
    const r = await f.as(f.adminJwt, '/api/srs/82/data.json?app_name=demo', {
      headers: { 'X-Request-Id': 'srs-worker-fail-1' },
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Command "boom" failed');
    expect(r.text).not.toMatch(/no_such_table|nope|sqlite/i);
    const logLine = () =>
      f.inst
        .logs()
        .split('\n')
        .find((l) => l.includes('srs-worker-fail-1') && l.includes('no such table: no_such_table_w'));
    await expect.poll(logLine, { timeout: 5000 }).toBeTruthy();
    expect(logLine()).toContain('SQLITE_ERROR');
    expect((await pool()).pids).toEqual(before.pids);
  });

  it('closing the services ends the command processes', async () => {
    const { pids } = await pool();
    expect(pids.length).toBeGreaterThan(0);
    stopped = true;
    await f.inst.stop();
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });
});

describe('the SQLite command pool', () => {
  let dir: string;
  let file: string;
  let pools: SqliteCommandPool[];
  const newPool = (size = 1) => {
    const p = new SqliteCommandPool({ file, size });
    pools.push(p);
    return p;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pc-srs-pool-'));
    file = join(dir, 'db.sqlite');
    const db = openSqliteFile(file);
    db.exec(
      'CREATE TABLE audit (what TEXT NOT NULL); CREATE TABLE t (id INTEGER, name TEXT, amount REAL, data ' +
        "BLOB); INSERT INTO t VALUES (1, 'one', 1.5, x'0102'), (2, NULL, NULL, NULL)",
    );
    db.close();
    pools = [];
  });
  afterEach(async () => {
    await Promise.all(pools.map((p) => p.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs commands in one transaction with bound values; rows as JSON, dtsingle, setup without data', async () => {
    const pool = newPool();
    const data = await pool.run({
      commands: [
        {
          name: 'srssetup',
          output: 'none',
          statements: [{ sql: 'INSERT INTO audit (what) VALUES (?)', parameters: ["it's bound"] }],
        },
        {
          name: 'all',
          output: 'rows',
          statements: [{ sql: 'SELECT id, name, amount, data FROM t WHERE id >= ? ORDER BY id', parameters: [1] }],
        },
        { name: 'one', output: 'single', statements: [{ sql: 'SELECT what FROM audit', parameters: [] }] },
        { name: 'none', output: 'single', statements: [{ sql: 'SELECT 1 AS x WHERE 0', parameters: [] }] },
        {
          name: 'last',
          output: 'rows',
          statements: [
            { sql: 'SELECT 1 AS first', parameters: [] },
            { sql: 'SELECT 2 AS second', parameters: [] },
          ],
        },
      ],
      statementTimeoutMs: 30_000,
      maxRows: 10,
    });
    expect(data).toEqual({
      all: [
        { id: 1, name: 'one', amount: 1.5, data: 'AQI=' },
        { id: 2, name: null, amount: null, data: null },
      ],
      one: { what: "it's bound" },
      none: null,
      last: [{ second: 2 }],
    });
    const check = openSqliteFile(file);
    expect(check.prepare('SELECT what FROM audit').all()).toEqual([{ what: "it's bound" }]);
    check.close();
  });

  it('a failure rolls the run back and names the command; the process stays for the next run', async () => {
    const pool = newPool();
    const failing = pool.run(
      job([command('writes', "INSERT INTO audit (what) VALUES ('w')"), command('boom', 'SELECT * FROM missing_table')]),
    );
    const err = await failing.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandFailedError);
    expect((err as CommandFailedError).message).toBe('Command "boom" failed');
    expect((err as CommandFailedError).cause).toMatchObject({
      message: 'no such table: missing_table',
      code: 'SQLITE_ERROR',
    });
    const tooMany = await pool.run(job([command('many', 'SELECT * FROM t')], 30_000, 1)).catch((e: unknown) => e);
    expect((tooMany as Error).message).toBe('Command "many" returned more than 1 rows (Settings:SrsMaxRows)');
    expect(await pool.run(job([command('count', 'SELECT COUNT(*) AS n FROM audit')]))).toEqual({ count: [{ n: 0 }] });
    expect(pool.stats().started).toBe(1);
  });

  it(
    'an endless statement is stopped at the limit: its process is killed, its transaction and write lock are ' +
      'gone at once',
    async () => {
      const pool = newPool();
      await pool.run(job([command('warm', 'SELECT 1')]));
      const [pid] = pool.stats().pids;
      const started = performance.now();
      const err = await pool
        .run(job([command('setup', "INSERT INTO audit (what) VALUES ('setup')"), command('endless', ENDLESS)], 300))
        .catch((e: unknown) => e);
      expect((err as Error).message).toBe(
        'Command "endless" ran longer than the statement timeout (0.3 s, Settings:SrsStatementTimeoutSeconds)',
      );
      expect(performance.now() - started).toBeLessThan(1500);
      await expect.poll(() => alive(pid!), { timeout: 2000, interval: 20 }).toBe(false);
      // No busy_timeout here: a lock still held would fail this write at once.
      const check = openSqliteFile(file);
      check.pragma('busy_timeout = 0');
      check.prepare("INSERT INTO audit (what) VALUES ('after')").run();
      expect(check.prepare('SELECT what FROM audit').all()).toEqual([{ what: 'after' }]);
      check.close();
      expect(await pool.run(job([command('again', 'SELECT 2 AS two')]))).toEqual({ again: [{ two: 2 }] });
      expect(pool.stats().started).toBe(2);
    },
  );

  it('runs beyond the processes wait their turn; an aborted run is stopped, running or waiting', async () => {
    const pool = newPool(1);
    const quick = await Promise.all([1, 2, 3].map((i) => pool.run(job([command('q', `SELECT ${i} AS i`)]))));
    expect(quick).toEqual([{ q: [{ i: 1 }] }, { q: [{ i: 2 }] }, { q: [{ i: 3 }] }]);
    expect(pool.stats().started).toBe(1);

    const running = new AbortController();
    const waiting = new AbortController();
    const first = pool.run(job([command('endless', ENDLESS)]), running.signal).catch((e: unknown) => e);
    const second = pool
      .run(job([command('never', "INSERT INTO audit (what) VALUES ('never')")]), waiting.signal)
      .catch((e: unknown) => e);
    await expect.poll(() => pool.stats().busy, { interval: 10 }).toBe(1);
    const [pid] = pool.stats().pids;
    expect(pool.stats().queued).toBe(1);
    waiting.abort(new Error('went away (waiting)'));
    expect(((await second) as Error).message).toBe('went away (waiting)');
    await sleep(100);
    running.abort(new Error('went away (running)'));
    expect(((await first) as Error).message).toBe('went away (running)');
    await expect.poll(() => alive(pid!), { timeout: 2000, interval: 20 }).toBe(false);
    expect(await pool.run(job([command('count', 'SELECT COUNT(*) AS n FROM audit')]))).toEqual({ count: [{ n: 0 }] });
  });

  it('close() ends running and waiting runs and the processes', async () => {
    const pool = newPool(1);
    // A started process takes the next run at once: no waiting for a process to start (seconds
    // on a loaded machine) before the pool is seen busy.
    await pool.run(job([command('warm', 'SELECT 1')]));
    const running = pool.run(job([command('endless', ENDLESS)])).catch((e: unknown) => e);
    const waiting = pool.run(job([command('later', 'SELECT 1')])).catch((e: unknown) => e);
    expect(pool.stats()).toMatchObject({ busy: 1, queued: 1 });
    const [pid] = pool.stats().pids;
    await pool.close();
    expect(await running).toBeInstanceOf(CommandPoolClosedError);
    expect(await waiting).toBeInstanceOf(CommandPoolClosedError);
    expect(alive(pid!)).toBe(false);
    await expect(pool.run(job([command('x', 'SELECT 1')]))).rejects.toBeInstanceOf(CommandPoolClosedError);
  });

  it('a command process whose server was killed mid-statement ends itself', async () => {
    // A server (a node process running the pool from the sources) starts an endless statement
    // and prints the command process's id; then it is killed with SIGKILL, so it cannot clean up.
    const poolModule = pathToFileURL(
      fileURLToPath(new URL('../../src/srs/sqlite-commands/pool.ts', import.meta.url)),
    ).href;
    const script = join(dir, 'server.mts');
    writeFileSync(
      script,
      `import { SqliteCommandPool } from ${JSON.stringify(poolModule)};
const pool = new SqliteCommandPool({ file: process.argv[2], size: 1 });
void pool.run({ commands: [{ name: 'endless', output: 'rows', statements: [{ ` +
        `sql: ${JSON.stringify(ENDLESS)}, parameters: [] }] }], statementTimeoutMs: 600000, maxRows: 1 });
const timer = setInterval(() => { const s = pool.stats(); if (s.busy === 1 && s.pids.length === 1) { ` +
        `console.log(s.pids[0]); clearInterval(timer); } }, 20);
`,
    );
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const server = spawn(process.execPath, ['--import', tsx, script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
    let runnerPid = 0;
    try {
      runnerPid = await new Promise<number>((resolve, reject) => {
        server.stdout.on('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
        server.on('exit', (code) => reject(new Error(`the server script exited early (${code})`)));
      });
      expect(alive(runnerPid)).toBe(true);
      await sleep(300);
      server.kill('SIGKILL');
      // The watchdog checks once a second.
      await expect.poll(() => alive(runnerPid), { timeout: 5000, interval: 50 }).toBe(false);
    } finally {
      server.kill('SIGKILL');
      if (runnerPid && alive(runnerPid)) process.kill(runnerPid, 'SIGKILL');
    }
  });
});
