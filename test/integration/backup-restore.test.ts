// `platform-core backup` and `restore`, run for real (dist/, child processes): a backup taken
// while a server runs and another connection writes without pause keeps every write that was
// acknowledged before the backup began, each file as of one moment (the rows it has are a
// prefix of the writes, no gaps); the restored files open and a server starts on them; restore
// refuses garbage, a truncated file, a database of a newer schema and a server that is running,
// and changes nothing when it refuses (it leaves no data directory it created behind); an older
// known schema is restored and migrated later.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteFile } from '../../src/db/sqlite-file.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrations } from '../../src/db/migrations/index.js';
import { killChildren, runCli, said, startServe, type CliResult } from '../support/cli-child.js';

const ADMIN = { username: 'backup.admin', password: 'a password for the backup test' };
const PLATFORM_FILE = 'platform-core.sqlite';
const APPS_FILE = 'platform-core-apps.sqlite';
const CLI = { timeoutMs: 60_000 };

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'platform-core-backup-'));
});
afterAll(async () => {
  killChildren();
  await rm(work, { recursive: true, force: true });
});

const dir = (name: string): string => join(work, name);
const cli = (args: string[], dataDir: string): Promise<CliResult> =>
  runCli(args, { env: { DATA_DIR: dataDir }, cwd: work, ...CLI });

function expectRefused(r: CliResult, code: number, message: RegExp): void {
  expect(r.signal, said(r)).toBeNull();
  expect(r.code, said(r)).toBe(code);
  expect(r.stderr, said(r)).toMatch(message);
  expect(r.stderr, said(r)).not.toMatch(/\n\s+at /); // one message, no stack trace
}

/** The ids of the load's rows in a database file (read in a fresh connection). */
function loadIds(file: string, query: string): number[] {
  const db = openSqliteFile(file, { fileMustExist: true });
  try {
    return (db.prepare(query).all() as { id: number }[]).map((r) => r.id);
  } finally {
    db.close();
  }
}

/** 1, 2, …, n. */
const upTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

/**
 * Writes without pause, in this process, beside the server: id 1, 2, 3… into the platform's
 * file (instance_settings `load:<id>`) and then the apps' file (table load_rows), each insert
 * its own committed transaction. `acked()` is the last id whose two inserts have returned.
 */
function startLoad(dataDir: string) {
  const platform = openSqliteFile(join(dataDir, PLATFORM_FILE), { fileMustExist: true });
  const apps = openSqliteFile(join(dataDir, APPS_FILE), { fileMustExist: true });
  apps.exec('CREATE TABLE IF NOT EXISTS load_rows (id INTEGER PRIMARY KEY)');
  const intoPlatform = platform.prepare("INSERT INTO instance_settings (key, value) VALUES (?, 'load')");
  const intoApps = apps.prepare('INSERT INTO load_rows (id) VALUES (?)');
  let acked = 0;
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      for (let i = 0; i < 20; i++) {
        const id = acked + 1;
        intoPlatform.run(`load:${id}`);
        intoApps.run(id);
        acked = id;
      }
      // Let the child processes' output and exits be seen.
      await new Promise((r) => setImmediate(r));
    }
  })();
  return {
    acked: () => acked,
    stop: async () => {
      stopped = true;
      await running;
      platform.close();
      apps.close();
    },
  };
}

async function login(url: string): Promise<number> {
  const r = await fetch(`${url}/api/core/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return r.status;
}

describe('backup under write load, restore into a fresh data directory', () => {
  const source = () => dir('source');
  const restored = () => dir('restored');
  const backupFile = () => join(work, 'under-load.tar');

  it('keeps every write acknowledged before the backup began, one moment per file', async () => {
    const server = await startServe({
      env: {
        DATA_DIR: source(),
        PLATFORM_ADMIN_USERNAME: ADMIN.username,
        PLATFORM_ADMIN_PASSWORD: ADMIN.password,
      },
      cwd: work,
      startTimeoutMs: 60_000,
    });
    const load = startLoad(source());
    let before: number;
    let after: number;
    let r: CliResult;
    try {
      while (load.acked() < 500) await new Promise((res) => setTimeout(res, 10));
      expect(await login(server.url)).toBe(200);
      before = load.acked();
      r = await cli(['backup', '--out', backupFile()], source());
      after = load.acked();
    } finally {
      await load.stop();
      server.child.kill('SIGTERM');
      await server.exited;
    }
    expect(r.code, said(r)).toBe(0);
    expect(r.stdout).toMatch(/^backup written to .*under-load\.tar/);
    // The load really ran while the backup was taken.
    expect(after - before, 'writes acknowledged while the backup ran').toBeGreaterThan(20);

    const restore = await cli(['restore', backupFile()], restored());
    expect(restore.code, said(restore)).toBe(0);
    expect(readdirSync(restored()).sort()).toEqual([APPS_FILE, PLATFORM_FILE]);

    const platformIds = loadIds(
      join(restored(), PLATFORM_FILE),
      "SELECT CAST(substr(key, 6) AS INTEGER) AS id FROM instance_settings WHERE key LIKE 'load:%' ORDER BY id",
    );
    const appIds = loadIds(join(restored(), APPS_FILE), 'SELECT id FROM load_rows ORDER BY id');
    for (const ids of [platformIds, appIds]) {
      // Everything acknowledged before the backup began…
      expect(ids.length).toBeGreaterThanOrEqual(before);
      // …and, as of one moment, nothing after a missing write (no gaps), nothing never acknowledged.
      expect(ids).toEqual(upTo(ids.length));
      expect(ids.length).toBeLessThanOrEqual(after);
    }
  });

  it('a server starts on the restored files, with the accounts of the backup', async () => {
    const server = await startServe({ env: { DATA_DIR: restored() }, cwd: work, startTimeoutMs: 60_000 });
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect(await login(server.url)).toBe(200);

      // Restore while it runs: refused, and the server goes on with its data.
      const r = await cli(['restore', backupFile()], restored());
      expectRefused(r, 1, /platform-core\.sqlite is in use: stop the server/);
      expect(readdirSync(restored()).filter((f) => f.includes('.restore-'))).toEqual([]);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect(await login(server.url)).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    // Stopped, the same restore goes through.
    const again = await cli(['restore', backupFile()], restored());
    expect(again.code, said(again)).toBe(0);
  });
});

describe('restore refuses what is not a backup it can use, and changes nothing', () => {
  it('garbage, and a truncated backup', async () => {
    const target = dir('refused');
    const garbage = join(work, 'garbage.tar');
    writeFileSync(garbage, randomBytes(64 * 1024));
    expectRefused(await cli(['restore', garbage], target), 2, /garbage\.tar is not a Platform Core backup/);

    const good = join(work, 'good.tar');
    const source = dir('good');
    expect((await cli(['migrate'], source)).code).toBe(0);
    const made = await cli(['backup', '--out', good], source);
    expect(made.code, said(made)).toBe(0);
    // A standard archive (README): GNU tar lists it and reads the manifest back.
    expect(execFileSync('tar', ['-tf', good], { encoding: 'utf8' }).split('\n').filter(Boolean)).toEqual([
      'manifest.json',
      PLATFORM_FILE,
      APPS_FILE,
    ]);
    const manifest = JSON.parse(execFileSync('tar', ['-xOf', good, 'manifest.json'], { encoding: 'utf8' }));
    expect(manifest).toMatchObject({ format: 'platform-core-backup', format_version: 1 });
    expect(manifest.migrations).toEqual(Object.keys(migrations).sort());
    const truncated = join(work, 'truncated.tar');
    const bytes = readFileSync(good);
    writeFileSync(truncated, bytes.subarray(0, bytes.length - 4096));
    expectRefused(await cli(['restore', truncated], target), 2, /truncated\.tar is not a Platform Core backup/);
    // One byte changed inside a database: the SHA-256 of the manifest tells.
    const flipped = join(work, 'flipped.tar');
    const copy = Buffer.from(bytes);
    const at = copy.length - 1024 - 6000; // inside the last database, before the end marker
    copy[at] = copy[at]! ^ 0xff;
    writeFileSync(flipped, copy);
    expectRefused(await cli(['restore', flipped], target), 2, /flipped\.tar is damaged/);
    // Nothing changed: not even the data directory it would have restored into is left behind.
    expect(existsSync(target)).toBe(false);
    // Nor the missing folders above it.
    const deep = join(work, 'deep');
    expectRefused(await cli(['restore', flipped], join(deep, 'a', 'b')), 2, /flipped\.tar is damaged/);
    expect(existsSync(deep)).toBe(false);
    // A missing file is a usage error too.
    expectRefused(await cli(['restore', join(work, 'none.tar')], target), 2, /cannot read .*none\.tar/);
  });

  it('a database of a newer schema (a migration this version does not know)', async () => {
    const source = dir('newer');
    expect((await cli(['migrate'], source)).code).toBe(0);
    const db = openSqliteFile(join(source, PLATFORM_FILE), { fileMustExist: true });
    db.prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)').run(
      '999-from-the-future',
      new Date().toISOString(),
    );
    db.close();
    const file = join(work, 'newer.tar');
    expect((await cli(['backup', '--out', file], source)).code).toBe(0);
    const target = dir('newer-target');
    expectRefused(
      await cli(['restore', file], target),
      2,
      /comes from a newer Platform Core \(migration 999-from-the-future unknown to this version/,
    );
    expect(existsSync(target)).toBe(false);
    // An existing data directory stays, as it was.
    mkdirSync(target);
    writeFileSync(join(target, 'keep.txt'), 'kept');
    expectRefused(await cli(['restore', file], target), 2, /comes from a newer Platform Core/);
    expect(readdirSync(target)).toEqual(['keep.txt']);
  });

  it('backup: no database to copy (exit 1), a folder for --out that does not exist (exit 2)', async () => {
    const empty = dir('empty');
    expectRefused(await cli(['backup', '--out', join(work, 'e.tar')], empty), 1, /there is no database to back up/);
    expect(existsSync(join(work, 'e.tar'))).toBe(false);
    expectRefused(
      await cli(['backup', '--out', join(work, 'no-such-folder', 'x.tar')], dir('good')),
      2,
      /cannot write beside --out .*no-such-folder\/x\.tar \(ENOENT\)/,
    );
  });

  it('PostgreSQL: backup and restore name pg_dump and pg_restore (exit 2)', async () => {
    const env = { DATA_DIR: dir('pg'), DATABASE_URL: 'postgres://someone:secret@127.0.0.1:1/platform' };
    const backup = await runCli(['backup', '--out', join(work, 'pg.tar')], { env, cwd: work, ...CLI });
    expectRefused(backup, 2, /uses PostgreSQL \(postgresql:\/\/127\.0\.0\.1:1\/platform\): back it up with pg_dump/);
    expect(backup.stderr).not.toContain('secret');
    const restore = await runCli(['restore', join(work, 'pg.tar')], { env, cwd: work, ...CLI });
    expectRefused(restore, 2, /pg_restore/);
  });
});

describe('an older known schema', () => {
  it('is restored, and migrated at the next start', async () => {
    // A database of an earlier version: all but the newest migration applied.
    const source = dir('older');
    const names = Object.keys(migrations).sort();
    const handle = openDatabase({ databaseUrl: null, dataDir: source });
    const older = Object.fromEntries(names.slice(0, -1).map((n) => [n, migrations[n]!]));
    const { error } = await new Migrator({
      db: handle.withApps,
      provider: { getMigrations: async () => older },
    }).migrateToLatest();
    await handle.close();
    expect(error).toBeUndefined();
    const file = join(work, 'older.tar');
    expect((await cli(['backup', '--out', file], source)).code).toBe(0);

    const target = dir('older-target');
    const r = await cli(['restore', file], target);
    expect(r.code, said(r)).toBe(0);
    expect(r.stdout).toContain(`migrations to apply at the next start: ${names.at(-1)}`);
    expect((await cli(['migrate'], target)).code).toBe(0);
    const applied = loadIds(join(target, PLATFORM_FILE), 'SELECT name AS id FROM kysely_migration ORDER BY name');
    expect(applied).toEqual(names);
  });
});
