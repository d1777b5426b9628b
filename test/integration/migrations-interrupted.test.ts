// A process killed while it migrates leaves a database that the next start brings up to date:
// `platform-core migrate` (dist/) is killed just before each statement of its migrating in turn
// (test/support/kill-at-statement.mjs), on a first start and on upgrades, and after every kill a
// start succeeds and leaves the schema and data of a run never interrupted. And a migration that
// fails leaves the database at the version before it.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Migrator, sql, type Kysely } from 'kysely';
import {
  copyTestDatabase,
  createTestDatabase,
  dropTestDatabase,
  testDatabaseKinds,
  type TestDatabase,
} from '../support/databases.js';
import { killChildren, REPO_ROOT, runCli, said } from '../support/cli-child.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { migrations } from '../../src/db/migrations/index.js';

afterAll(killChildren);

/** A test starts the command up to forty times, and a busy 2-core machine is slow at it. */
const KILLS_TIMEOUT_MS = 600_000;
const NAMES = Object.keys(migrations).sort();
const KILLER = pathToFileURL(join(REPO_ROOT, 'test', 'support', 'kill-at-statement.mjs')).href;

async function withHandle<T>(db: TestDatabase, work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = openDatabase({ databaseUrl: db.databaseUrl ?? null, dataDir: db.dataDir });
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

const rows = async (db: Kysely<any>, query: string) => (await sql.raw<Record<string, unknown>>(query).execute(db)).rows;

/** A database at migration `target`, as the version that ended there left it, plus `extra`. */
async function databaseAt(kind: TestDatabase['kind'], target: string, extra: string[] = []): Promise<TestDatabase> {
  const db = await createTestDatabase(kind);
  await withHandle(db, async (handle) => {
    const migrator = new Migrator({ db: handle.withApps, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateTo(target);
    if (error) throw error;
    for (const statement of extra) await sql.raw(statement).execute(handle.db);
  });
  return db;
}

/** Tables an app made beside the platform's, in the versions before the apps' data had a side. */
const OLD_APP_TABLES = [
  // A reference to a platform table: in the apps' SQLite file it has no table to point to.
  'CREATE TABLE crm_contacts (id INTEGER PRIMARY KEY, owner_id VARCHAR(36) REFERENCES users (id), ' +
    'name VARCHAR(80) NOT NULL)',
  'CREATE TABLE crm_calls (id INTEGER PRIMARY KEY, contact_id INTEGER NOT NULL REFERENCES crm_contacts (id), ' +
    'note TEXT)',
  'CREATE INDEX crm_calls_contact ON crm_calls (contact_id)',
  'CREATE VIEW crm_call_counts AS SELECT contact_id, COUNT(*) AS calls FROM crm_calls GROUP BY contact_id',
  'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) ' +
    "INSERT INTO crm_contacts (id, name) SELECT i, 'contact ' || i FROM n",
  'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600) ' +
    "INSERT INTO crm_calls (id, contact_id, note) SELECT i, 1 + i % 200, 'call ' || i FROM n",
];

/** What a start must leave: the schema of both sides, the applied migrations, the apps' rows. */
async function describeDatabase(db: TestDatabase): Promise<Record<string, unknown>> {
  return withHandle(db, async ({ withApps: d }) => {
    const common = {
      migrations: await rows(d, 'SELECT name FROM kysely_migration ORDER BY name'),
      settings: await rows(d, 'SELECT key FROM instance_settings ORDER BY key'),
      contacts: await rows(d, 'SELECT id, owner_id, name FROM app.crm_contacts ORDER BY id').catch(() => 'none'),
      calls: await rows(d, 'SELECT id, contact_id, note FROM app.crm_calls ORDER BY id').catch(() => 'none'),
    };
    if (db.kind === 'sqlite') {
      const schema = (s: string) => rows(d, `SELECT type, name, tbl_name, sql FROM ${s}.sqlite_master ORDER BY 1, 2`);
      return {
        ...common,
        platform: await schema('main'),
        apps: await schema('app'),
        integrity: [await rows(d, 'PRAGMA main.integrity_check'), await rows(d, 'PRAGMA app.integrity_check')],
      };
    }
    const where = "WHERE table_schema IN ('public', 'app') ORDER BY 1, 2";
    return {
      ...common,
      tables: await rows(d, `SELECT table_schema, table_name, table_type FROM information_schema.tables ${where}`),
      columns: await rows(
        d,
        'SELECT table_schema, table_name, column_name, data_type, is_nullable, column_default ' +
          `FROM information_schema.columns ${where}, 3`,
      ),
      indexes: await rows(
        d,
        "SELECT schemaname, indexname, indexdef FROM pg_indexes WHERE schemaname IN ('public', 'app') ORDER BY 1, 2",
      ),
    };
  });
}

/** `platform-core migrate` with its statements counted, killed before statement `killAt` if given. */
function migrateCommand(db: TestDatabase, killAt?: number) {
  const env = {
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.databaseUrl,
    NODE_OPTIONS: `--import=${KILLER}`,
    KILL_AT_STATEMENT: killAt === undefined ? undefined : String(killAt),
  };
  return runCli(['migrate'], { env });
}

/** What a run on a copy of `start` never killed leaves, and how many statements it migrates with. */
async function uninterrupted(start: TestDatabase) {
  const reference = await copyTestDatabase(start);
  try {
    const run = await migrateCommand(reference);
    expect(run.code, said(run)).toBe(0);
    const statements = Number(/statements: (\d+)/.exec(run.stderr)?.[1]);
    expect(statements).toBeGreaterThan(0);
    const records = (/migration records: ([\d,]*)/.exec(run.stderr)?.[1] ?? '').split(',').filter(Boolean).map(Number);
    return { statements, records, expected: await describeDatabase(reference) };
  } finally {
    await dropTestDatabase(reference);
  }
}

/** How many migrations a database has applied (none before its first start made the table). */
const appliedCount = (db: TestDatabase): Promise<number> =>
  withHandle(db, async (handle) => (await rows(handle.db, 'SELECT name FROM kysely_migration')).length).catch(() => 0);

/**
 * Kills `platform-core migrate` on a copy of `start` before its statement 1, 1 + step, 1 + 2 step
 * and so on, and after each kill starts again: that start must succeed and leave what an
 * uninterrupted run leaves. Returns, a kill each, how many migrations it left applied.
 */
async function killAtStatements(start: TestDatabase, step: number): Promise<number[]> {
  const { statements, records, expected } = await uninterrupted(start);
  const leftApplied: number[] = [];
  // A short upgrade is killed at four points at least, or the kills could all miss its migration.
  const stride = Math.max(1, Math.min(step, Math.floor(statements / 4)));
  const killPointsOfRun: number[] = [];
  for (let killAt = 1; killAt <= statements; killAt += stride) killPointsOfRun.push(killAt);
  // A migration of few statements can fall between two of those: it is then also killed just
  // before the statement that records it, so that every migration is interrupted once at least.
  records.forEach((record, i) => {
    const previous = i === 0 ? 0 : records[i - 1]!;
    if (!killPointsOfRun.some((k) => k > previous && k <= record)) killPointsOfRun.push(record);
  });
  for (const killAt of killPointsOfRun.sort((a, b) => a - b)) {
    killPoints++;
    const db = await copyTestDatabase(start);
    try {
      const killed = await migrateCommand(db, killAt);
      expect(killed.signal, `killed before statement ${killAt}: ${said(killed)}`).toBe('SIGKILL');
      leftApplied.push(await appliedCount(db));
      await withHandle(db, (handle) => handle.exclusiveStart(() => migrateToLatest(handle))).catch((err: Error) => {
        throw new Error(`the start after a kill before statement ${killAt} of ${statements} failed: ${err.message}`);
      });
      expect(await describeDatabase(db), `after a kill before statement ${killAt}`).toEqual(expected);
    } finally {
      await dropTestDatabase(db);
    }
  }
  return leftApplied;
}

/** Kills made by the whole file, each followed by a start. */
let killPoints = 0;

/** The versions the kills left, each once, in order: every one from `from` to the newest. */
const versionsSeen = (leftApplied: number[]) => [...new Set(leftApplied)].sort((a, b) => a - b);
const everyVersionFrom = (from: number) => Array.from({ length: NAMES.length - from + 1 }, (_, i) => from + i);

describe.each(testDatabaseKinds())('migrating interrupted on %s', (kind) => {
  // Every third statement on SQLite, every sixth on PostgreSQL (where a migration's statements
  // all fall in one transaction already): a start costs a Node process, and the versions seen
  // show that the kills still fell in every migration. The kills are counted below.
  const step = kind === 'sqlite' ? 3 : 6;
  const made: TestDatabase[] = [];
  const kept = (db: TestDatabase) => {
    made.push(db);
    return db;
  };
  afterAll(async () => {
    for (const db of made) await dropTestDatabase(db);
  });

  it('a first start killed at any statement: the next start succeeds', { timeout: KILLS_TIMEOUT_MS }, async () => {
    const leftApplied = await killAtStatements(kept(await createTestDatabase(kind)), step);
    expect(versionsSeen(leftApplied)).toEqual(everyVersionFrom(0));
  });

  it('an upgrade from the previous version killed at any statement: the next start succeeds', {
    timeout: KILLS_TIMEOUT_MS,
  }, async () => {
    const leftApplied = await killAtStatements(kept(await databaseAt(kind, NAMES.at(-2)!)), step);
    expect(versionsSeen(leftApplied)).toEqual(everyVersionFrom(NAMES.length - 1));
  });

  it('an upgrade that moves app tables to the apps’ side killed at any statement: the next start succeeds', {
    timeout: KILLS_TIMEOUT_MS,
  }, async () => {
    const from = NAMES.indexOf('003-app-data');
    const leftApplied = await killAtStatements(kept(await databaseAt(kind, NAMES[from - 1]!, OLD_APP_TABLES)), step);
    expect(versionsSeen(leftApplied)).toEqual(everyVersionFrom(from));
  });

  it('a migration that fails leaves the database at the version before it', async () => {
    // An index made by hand under the name 007-console-indexes gives its fifth index.
    const db = kept(await databaseAt(kind, '006-audit', ['CREATE INDEX users_lockout_end_idx ON roles (created_at)']));
    const index = (name: string) =>
      kind === 'sqlite'
        ? `SELECT name FROM sqlite_master WHERE name = '${name}'`
        : `SELECT indexname AS name FROM pg_indexes WHERE indexname = '${name}'`;
    await withHandle(db, async (handle) => {
      await expect(migrateToLatest(handle)).rejects.toThrow(/users_lockout_end_idx.* already exists/);
      // Its first four indexes went with it.
      expect(await rows(handle.db, index('users_name_sort_idx'))).toEqual([]);
      expect(await appliedCount(db)).toBe(NAMES.indexOf('006-audit') + 1);
      // Once the cause is gone, the next start applies it.
      await sql.raw('DROP INDEX users_lockout_end_idx').execute(handle.db);
      expect((await migrateToLatest(handle))[0]).toBe('007-console-indexes');
      expect(await rows(handle.db, index('users_name_sort_idx'))).toEqual([{ name: 'users_name_sort_idx' }]);
    });
  });
});

it('killed the migrating process at 50 points at least', () => {
  expect(killPoints).toBeGreaterThanOrEqual(testDatabaseKinds().length > 1 ? 50 : 30);
  console.log(`migrations killed at ${killPoints} points`);
});
