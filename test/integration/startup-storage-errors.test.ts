// Storage that cannot be used at start: a DATA_DIR that is a file, a SQLite
// file that is unreadable, not a database, corrupt or truncated, or a directory. The compiled
// CLI is run for real; each case must exit non-zero with one line on stderr naming the path and
// the cause, and touch nothing: every file and directory involved keeps its bytes, mode and
// mtime, and nothing is created (no -wal/-shm, no apps' file, no lock file, no data directory).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { BIN, killChildren, runCli, said, type CliResult } from '../support/cli-child.js';

const CLI_TIMEOUT_MS = 30_000;
const PLATFORM_FILE = 'platform-core.sqlite';
const APPS_FILE = 'platform-core-apps.sqlite';
/** Where the SQLite page area starts in these files (the default page size). */
const PAGE_SIZE = 4096;

afterAll(() => killChildren());

// ---------------------------------------------------------------------------------------------
// What a directory tree looks like, to compare before and after

type Snapshot = Record<string, string>;

function snapshot(root: string): Snapshot {
  const out: Snapshot = {};
  const walk = (path: string, name: string): void => {
    const st = lstatSync(path);
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isDirectory()) {
      // Not the directory's mtime: checking a WAL-mode file read-only makes SQLite create -wal
      // and -shm beside it, which the check removes again when the file is bad (see
      // src/db/storage-preflight.ts); the names below show that none is left.
      out[name] = `dir ${mode}`;
      for (const entry of readdirSync(path)) walk(join(path, entry), `${name}/${entry}`);
    } else if (st.isFile()) {
      // Read as root when the file is unreadable to its owner: this process may be root.
      const digest =
        (st.mode & 0o400) === 0 && process.getuid?.() !== 0
          ? 'unreadable'
          : createHash('sha256').update(readFileSync(path)).digest('hex');
      out[name] = `file ${mode} ${st.mtimeMs} ${st.size} ${digest}`;
    } else {
      out[name] = `other ${mode} ${st.mtimeMs}`;
    }
  };
  walk(root, '.');
  return out;
}

// ---------------------------------------------------------------------------------------------
// Files to start on

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'platform-core-storage-'));
  // Open to others on purpose: the start used to tighten the data directory to 0700 first.
  chmodSync(work, 0o755);
  return () => rm(work, { recursive: true, force: true });
});

/** A real database of the platform's, made by `migrate` in `dir`: WAL mode, closed cleanly. */
async function migratedDatabase(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const r = await runCli(['migrate'], { env: { DATA_DIR: dir }, cwd: dir, timeoutMs: CLI_TIMEOUT_MS });
  expect(r.code, said(r)).toBe(0);
  // Only the two databases are left (the -wal and -shm go with the last connection).
  expect(readdirSync(dir).sort()).toEqual([APPS_FILE, PLATFORM_FILE]);
  chmodSync(dir, 0o755);
  return join(dir, PLATFORM_FILE);
}

/** Bytes that are no SQLite database, from a fixed seed (the same each run). */
function noise(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let x = 0x2545f491;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// The check every case makes

async function expectRefusedUntouched(
  command: string[],
  env: Record<string, string | undefined>,
  opts: { path: string; cause: RegExp; watch: string; uid?: number },
): Promise<CliResult> {
  const before = snapshot(opts.watch);
  const r = await runCli(command, {
    env,
    cwd: work,
    timeoutMs: CLI_TIMEOUT_MS,
    ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
  });
  expect(r.signal, said(r)).toBeNull(); // exited by itself
  expect(r.code, said(r)).not.toBe(0);
  expect(r.stderr, said(r)).toMatch(/^platform-core: [^\n]+\n$/); // exactly one line
  expect(r.stderr, said(r)).toContain(opts.path);
  expect(r.stderr, said(r)).toMatch(opts.cause);
  expect(snapshot(opts.watch), 'nothing changed or created').toEqual(before);
  return r;
}

describe('a start on storage it cannot use says where and why in one line and touches nothing', () => {
  it.each([['serve'], ['migrate']])('%s: DATA_DIR is a regular file', async (command) => {
    const file = join(work, 'data');
    writeFileSync(file, 'not a directory\n');
    await expectRefusedUntouched(
      [command],
      { DATA_DIR: file, PORT: '0', HOST: '127.0.0.1' },
      { path: file, cause: /is a regular file, not a directory/, watch: work },
    );
  });

  it('DATA_DIR below a regular file', async () => {
    const file = join(work, 'data');
    writeFileSync(file, 'not a directory\n');
    await expectRefusedUntouched(
      ['serve'],
      { DATA_DIR: join(file, 'sub'), PORT: '0' },
      { path: file, cause: /cannot be created: .*data is a regular file, not a directory/, watch: work },
    );
  });

  it.each([
    ['random bytes', noise(3 * PAGE_SIZE)],
    ['a text file', Buffer.from('[settings]\nthis is a text file, not a database\n'.repeat(40))],
    ['a few bytes', Buffer.from('hi\n')],
  ])('the SQLite file holds %s: not a database', async (_what, content) => {
    const dir = join(work, 'data');
    mkdirSync(dir, { mode: 0o755 });
    writeFileSync(join(dir, PLATFORM_FILE), content, { mode: 0o644 });
    await expectRefusedUntouched(
      ['serve'],
      { DATA_DIR: dir, PORT: '0' },
      { path: join(dir, PLATFORM_FILE), cause: /not a SQLite database/, watch: work },
    );
  });

  it(
    'a real database whose page area was overwritten: corrupt (quick_check), and no -wal, -shm or lock file is ' +
      'left',
    async () => {
      const file = await migratedDatabase(join(work, 'data'));
      const bytes = readFileSync(file);
      noise(bytes.length - PAGE_SIZE).copy(bytes, PAGE_SIZE);
      writeFileSync(file, bytes);
      chmodSync(file, 0o644); // would be tightened to 600 by a start that went ahead
      await expectRefusedUntouched(
        ['serve'],
        { DATA_DIR: join(work, 'data'), PORT: '0' },
        { path: file, cause: /corrupt/, watch: work },
      );
    },
  );

  it('a real database cut short: corrupt', async () => {
    const file = await migratedDatabase(join(work, 'data'));
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2) + 100));
    await expectRefusedUntouched(
      ['migrate'],
      { DATA_DIR: join(work, 'data') },
      { path: file, cause: /corrupt/, watch: work },
    );
  });

  it('a directory where the SQLite file should be', async () => {
    const dir = join(work, 'data');
    mkdirSync(join(dir, PLATFORM_FILE), { recursive: true });
    await expectRefusedUntouched(
      ['serve'],
      { DATA_DIR: dir, PORT: '0' },
      { path: join(dir, PLATFORM_FILE), cause: /is a directory, not a database file/, watch: work },
    );
  });

  it("the apps' file is not a database: refused before the platform's file is created", async () => {
    const dir = join(work, 'data');
    mkdirSync(dir, { mode: 0o755 });
    writeFileSync(join(dir, APPS_FILE), 'apps data? no, text\n');
    await expectRefusedUntouched(
      ['serve'],
      { DATA_DIR: dir, PORT: '0' },
      { path: join(dir, APPS_FILE), cause: /not a SQLite database/, watch: work },
    );
  });

  // chmod 000 does not stop root from reading: as root the command runs as the unprivileged
  // user `nobody` (uid 65534), which owns the data directory, like the service's own user would.
  const root = process.getuid?.() === 0;
  const NOBODY = 65534;
  // `nobody` must be able to run this Node and the checkout (a private temp dir above either
  // stops it): otherwise the case cannot be made, and says so instead of failing on EACCES.
  const nobodyCanRun =
    !root || spawnSync(process.execPath, [BIN, '--help'], { uid: NOBODY, gid: NOBODY, stdio: 'ignore' }).status === 0;
  if (!nobodyCanRun)
    process.stderr.write(
      `startup-storage-errors: the mode-000 case SKIPPED: user nobody cannot run ${process.execPath} ${BIN}\n`,
    );
  it.skipIf(!nobodyCanRun)('the SQLite file cannot be read (mode 000)', async () => {
    const dir = join(work, 'data');
    mkdirSync(dir, { mode: 0o755 });
    const file = await migratedDatabase(dir);
    chmodSync(file, 0o000);
    if (root) {
      chmodSync(work, 0o755);
      for (const p of [dir, file, join(dir, APPS_FILE)]) chownSync(p, NOBODY, NOBODY);
    }
    await expectRefusedUntouched(
      ['serve'],
      { DATA_DIR: dir, PORT: '0' },
      {
        path: file,
        cause: /cannot be read and written: permission denied/,
        watch: work,
        ...(root ? { uid: NOBODY } : {}),
      },
    );
  });

  it.each([
    ['sqlite:<absolute path>', (p: string) => `sqlite:${p}`],
    ['sqlite://<absolute path>', (p: string) => `sqlite://${p}`],
    ['file:<absolute path>', (p: string) => `file:${p}`],
    ['sqlite:<relative path>', (_p: string) => `sqlite:elsewhere/${PLATFORM_FILE}`],
  ])('DATABASE_URL=%s naming a file that is not a database; DATA_DIR is not created', async (_form, url) => {
    const file = join(work, 'elsewhere', PLATFORM_FILE);
    mkdirSync(join(work, 'elsewhere'), { mode: 0o755 });
    writeFileSync(file, noise(PAGE_SIZE));
    const dataDir = join(work, 'data-not-yet');
    await expectRefusedUntouched(
      ['serve'],
      { DATABASE_URL: url(file), DATA_DIR: dataDir, PORT: '0' },
      { path: file, cause: /not a SQLite database/, watch: work },
    );
  });

  it('DATABASE_URL=file:<path> naming a corrupt database', async () => {
    const file = await migratedDatabase(join(work, 'elsewhere'));
    const bytes = readFileSync(file);
    noise(bytes.length - PAGE_SIZE).copy(bytes, PAGE_SIZE);
    writeFileSync(file, bytes);
    await expectRefusedUntouched(
      ['migrate'],
      { DATABASE_URL: `file:${file}`, DATA_DIR: join(work, 'data') },
      { path: file, cause: /corrupt/, watch: work },
    );
  });

  // PostgreSQL keeps the data directory too (the administrator's password file, hooks).
  it.each(testDatabaseKinds().filter((k) => k === 'postgres'))(
    'DATA_DIR is a regular file with DATABASE_URL on %s',
    async (kind) => {
      const db = await createTestDatabase(kind);
      try {
        const file = join(work, 'data');
        writeFileSync(file, 'not a directory\n');
        await expectRefusedUntouched(
          ['serve'],
          { DATA_DIR: file, DATABASE_URL: db.databaseUrl, PORT: '0' },
          { path: file, cause: /is a regular file, not a directory/, watch: work },
        );
      } finally {
        await dropTestDatabase(db);
      }
    },
  );

  it('a valid database still starts (the check reads, the start then writes as before)', async () => {
    const dir = join(work, 'data');
    const file = await migratedDatabase(dir);
    chmodSync(file, 0o644);
    const r = await runCli(['migrate'], { env: { DATA_DIR: dir }, cwd: work, timeoutMs: CLI_TIMEOUT_MS });
    expect(r.code, said(r)).toBe(0);
    // Tightening an existing valid file's mode is the start's existing behaviour.
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
