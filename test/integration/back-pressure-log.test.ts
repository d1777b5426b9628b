// A database fault refuses requests with 503 by the hundred: expected back-pressure, logged as
// one warning per cause per interval (with the cause), the repeats counted and reported when the
// interval ends or the server closes, and no error line at all. The fault is made to measure:
// on PostgreSQL a trigger raises SQLSTATE 57P03 ("cannot connect now"), on SQLite the
// database may not grow (max_page_count), so writes fail with SQLITE_FULL.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';

type LogLine = { level: number; msg: string; code?: string; repeated?: number; reason?: { code?: string } };

describe.each(testDatabaseKinds())('503 refusals in the log on %s', (kind) => {
  let db: TestDatabase;
  let inst: Instance;
  let jwt: string;
  let stopped = false;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    inst = await startInstance(db);
    jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    if (!stopped) await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  const lines = (): LogLine[] =>
    inst
      .logs()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LogLine);

  let n = 0;
  const write = () =>
    inst.request(`/api/core/token/create/bp${++n}`, { method: 'POST', headers: { authorization: `Bearer ${jwt}` } });

  async function breakWrites(): Promise<{ code: string; cause: string }> {
    const database = inst.services.database.db;
    if (kind === 'postgres') {
      await sql`CREATE FUNCTION refuse_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the database is not taking writes' USING ERRCODE = '57P03'; END $$`.execute(database);
      await sql`CREATE TRIGGER refuse_tokens BEFORE INSERT ON tokens
        FOR EACH ROW EXECUTE FUNCTION refuse_tokens()`.execute(database);
      return { code: 'database_unavailable', cause: '57P03' };
    }
    // Not below the current size: the file may not grow any more.
    await sql`PRAGMA max_page_count = 1`.execute(database);
    return { code: 'storage_full', cause: 'SQLITE_FULL' };
  }

  it('logs one warning with the cause for many refusals, no error line, and the count at close', async () => {
    expect((await write()).status).toBe(201);
    const { code, cause } = await breakWrites();
    const answers: number[] = [];
    for (let i = 0; i < 60; i++) {
      const r = await write();
      answers.push(r.status);
      if (r.status === 503) expect(r.body.data.code).toBe(code);
    }
    const refused = answers.filter((s) => s === 503).length;
    expect(refused, answers.join(' ')).toBeGreaterThanOrEqual(30);
    expect(answers.filter((s) => s !== 503 && s !== 201)).toEqual([]);

    expect(lines().filter((l) => l.level >= 50)).toEqual([]);
    const warned = lines().filter((l) => l.level === 40 && l.code === code);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ msg: 'database fault', reason: { code: cause } });
    expect(inst.logs()).not.toMatch(/\\n\s+at /); // no stack

    // Closing the server reports the repeats it held back.
    await inst.stop();
    stopped = true;
    const summaries = lines().filter((l) => l.level === 40 && l.code === code && l.repeated !== undefined);
    expect(summaries.map((l) => l.repeated)).toEqual([refused - 1]);
    expect(lines().filter((l) => l.level >= 50)).toEqual([]);
  });
});
