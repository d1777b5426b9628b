// Helpers for tests that must pass against both databases the app supports.
//
// Typical use in a test file:
//
//   describe.each(testDatabaseKinds())('accounts on %s', (kind) => {
//     let db: TestDatabase;
//     beforeAll(async () => { db = await createTestDatabase(kind); });
//     afterAll(async () => { await dropTestDatabase(db); });
//     // ... configure the app with DATABASE_URL = db.databaseUrl, DATA_DIR = db.dataDir
//   });
//
// Every call creates its own database (a new SQLite file, or a new PostgreSQL database on the
// server from test/support/global-setup.ts), so test files running in parallel never see each
// other's rows and no test has to clean up after another.

import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface TestDatabase {
  kind: DatabaseKind;
  /**
   * What to pass as DATABASE_URL: a postgres:// URL of a database of this test's own, or
   * undefined for SQLite, which the app then keeps as a file in `dataDir`.
   */
  databaseUrl: string | undefined;
  /** A new, empty temp directory of this test's own (DATA_DIR); removed by dropTestDatabase. */
  dataDir: string;
}

/**
 * The kinds to run database tests against: SQLite always, PostgreSQL when the global setup
 * found or started a server (otherwise it has printed why the PostgreSQL half is skipped, or
 * failed the run under REQUIRE_POSTGRES=1).
 */
export function testDatabaseKinds(): DatabaseKind[] {
  return inject('pgUrl') ? ['sqlite', 'postgres'] : ['sqlite'];
}

const newDataDir = () => mkdtemp(join(tmpdir(), 'platform-core-test-'));
// Random rather than per-file names: several vitest workers (and repeated runs against a
// user's PG_TEST_URL server) create databases at the same time on one server.
const newDatabaseName = () => `t_${randomBytes(8).toString('hex')}`;

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const dataDir = await newDataDir();
  if (kind === 'sqlite') return { kind, databaseUrl: undefined, dataDir };

  const baseUrl = inject('pgUrl');
  if (!baseUrl) {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(
      'createTestDatabase("postgres"): no PostgreSQL server for this run; use testDatabaseKinds() to choose kinds',
    );
  }
  const name = newDatabaseName();
  await withClient(baseUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  return { kind, databaseUrl: withDatabase(baseUrl, name), dataDir };
}

/**
 * A new test database holding what `source` holds (which nothing may have open): its data dir
 * copied, and on PostgreSQL a database made with `source` as its template.
 */
export async function copyTestDatabase(source: TestDatabase): Promise<TestDatabase> {
  const dataDir = await newDataDir();
  await cp(source.dataDir, dataDir, { recursive: true });
  if (source.kind === 'sqlite') return { kind: 'sqlite', databaseUrl: undefined, dataDir };
  const baseUrl = inject('pgUrl')!;
  const name = newDatabaseName();
  const template = new URL(source.databaseUrl!).pathname.slice(1);
  await withClient(baseUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return { kind: 'postgres', databaseUrl: withDatabase(baseUrl, name), dataDir };
}

/** Drops the database (even if the test left connections open) and removes the data dir. */
export async function dropTestDatabase(db: TestDatabase): Promise<void> {
  try {
    if (db.kind === 'postgres' && db.databaseUrl) {
      const name = new URL(db.databaseUrl).pathname.slice(1);
      // Guard against ever dropping something this module did not create, e.g. after a test
      // overwrote databaseUrl by mistake.
      if (!/^t_[0-9a-f]{16}$/.test(name)) throw new Error(`refusing to drop database "${name}": not a test database`);
      // DROP DATABASE can't run inside the database itself: connect to the base database the
      // server was given with (the maintenance database "postgres" for our own cluster).
      // WITH (FORCE) (PostgreSQL 13+) ends the sessions of pools the test forgot to close,
      // which would otherwise make the drop fail with "is being accessed by other users".
      const baseUrl = inject('pgUrl') ?? withDatabase(db.databaseUrl, 'postgres');
      await withClient(baseUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }
  } finally {
    await rm(db.dataDir, { recursive: true, force: true });
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
