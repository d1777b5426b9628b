// Proves the test harness itself: that each kind of test database can be created, used and
// dropped, and that CI (REQUIRE_POSTGRES=1) really runs the PostgreSQL half.

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds } from './databases.js';
import { loadSqlite } from '../../src/db/sqlite-file.js';

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('test database harness', () => {
  it('always includes sqlite, and postgres exactly when a server was provided', () => {
    const kinds = testDatabaseKinds();
    expect(kinds).toContain('sqlite');
    expect(kinds.includes('postgres')).toBe(Boolean(inject('pgUrl')));
  });

  // Under CI the PostgreSQL half must not quietly disappear.
  it.runIf(process.env.REQUIRE_POSTGRES === '1')('has a PostgreSQL server when REQUIRE_POSTGRES=1', () => {
    expect(inject('pgUrl')).toMatch(/^postgres(ql)?:\/\//);
    expect(testDatabaseKinds()).toContain('postgres');
  });

  it('sqlite: gives an empty data dir and no URL, usable for a database file, removed on drop', async () => {
    const db = await createTestDatabase('sqlite');
    expect(db.kind).toBe('sqlite');
    expect(db.databaseUrl).toBeUndefined();
    expect(statSync(db.dataDir).isDirectory()).toBe(true);

    const sqlite = new (loadSqlite())(join(db.dataDir, 'check.sqlite'));
    expect(sqlite.prepare('select 1 as one').get()).toEqual({ one: 1 });
    sqlite.close();

    await dropTestDatabase(db);
    expect(existsSync(db.dataDir)).toBe(false);
  });

  it.runIf(Boolean(inject('pgUrl')))(
    'postgres: creates isolated databases, usable, dropped even with open sessions',
    async () => {
      const pgUrl = inject('pgUrl')!;
      const a = await createTestDatabase('postgres');
      const b = await createTestDatabase('postgres');
      try {
        expect(a.kind).toBe('postgres');
        expect(a.databaseUrl).toMatch(/^postgres:\/\/.+\/t_[0-9a-f]{16}$/);
        expect(a.databaseUrl).not.toBe(b.databaseUrl);
        expect(statSync(a.dataDir).isDirectory()).toBe(true);

        const [row] = await query<{ one: number; db: string }>(
          a.databaseUrl!,
          'select 1 as one, current_database() as db',
        );
        expect(row?.one).toBe(1);
        expect(`/${row?.db}`).toBe(new URL(a.databaseUrl!).pathname);

        // Isolation: a table made in one database is not visible in the other.
        await query(a.databaseUrl!, 'create table marker (id int)');
        const seen = await query<{ n: string }>(
          b.databaseUrl!,
          "select count(*) as n from pg_tables where tablename = 'marker'",
        );
        expect(seen[0]?.n).toBe('0');

        // A session left open (as a forgotten pool would) must not block the drop.
        const straggler = new pg.Client({ connectionString: a.databaseUrl });
        straggler.on('error', () => undefined); // the forced drop terminates it
        await straggler.connect();
        await dropTestDatabase(a);
        await straggler.end().catch(() => undefined);
      } finally {
        await dropTestDatabase(b);
      }

      const names = [new URL(a.databaseUrl!).pathname.slice(1), new URL(b.databaseUrl!).pathname.slice(1)];
      const left = await query(pgUrl, 'select datname from pg_database where datname = any($1)', [names]);
      expect(left).toEqual([]);
      expect(existsSync(a.dataDir)).toBe(false);
      expect(existsSync(b.dataDir)).toBe(false);
    },
  );
});
