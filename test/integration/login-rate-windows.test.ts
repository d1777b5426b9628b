// The login rate limit's shared fixed windows (auth/rate-limit.ts, migration 004) on both
// databases: the limit, Retry-After until the window ends, a new window after it, one count for
// every limiter on the database (every instance), keys stored only as digests, ended windows swept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { rateLimitKeyDigest, SharedFixedWindowLimiter } from '../../src/auth/rate-limit.js';

const WINDOW_MS = 60_000;
const T0 = Date.parse('2030-01-01T00:00:00Z');

describe.each(testDatabaseKinds())('login rate windows on %s', (kind) => {
  let db: TestDatabase;
  let handle: DatabaseHandle;
  const errors: unknown[] = [];
  const limiter = () => new SharedFixedWindowLimiter(handle.db, WINDOW_MS, (e) => errors.push(e));

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    handle = openDatabase({ databaseUrl: db.databaseUrl ?? null, dataDir: db.dataDir });
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    await handle?.close();
    if (db) await dropTestDatabase(db);
  });

  it('allows the limit, then asks to retry until the window ends; hits beyond it still count', async () => {
    const l = limiter();
    const hit = (at: number) => l.hit([{ key: 'u|10.0.0.1|ALICE', limit: 3 }], T0 + at);
    for (let i = 0; i < 3; i++) expect(await hit(1000)).toBe(0);
    expect(await hit(1000)).toBe(60);
    expect(await hit(31_000)).toBe(30);
    expect(await hit(60_999)).toBe(1);
    // The window started at its first hit (T0 + 1 s) and has ended: a new one.
    expect(await hit(61_000)).toBe(0);
  });

  it('counts every limiter on the database together (every instance)', async () => {
    const [a, b] = [limiter(), limiter()];
    const hits = [
      { key: 'a|10.0.0.2', limit: 100 },
      { key: 'u|10.0.0.2|BOB', limit: 4 },
    ];
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await (i % 2 ? b : a).hit(hits, T0 + 100_000 + i));
    expect(answers.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(answers[4]).toBeGreaterThan(0);
    // The most restrictive key decides: the address alone would still pass.
    expect(await b.hit([{ key: 'a|10.0.0.2', limit: 100 }], T0 + 100_010)).toBe(0);
  });

  it('stores keys only as digests and sweeps ended windows', async () => {
    const l = limiter();
    await l.hit([{ key: 'u|10.0.0.3|CAROL', limit: 5 }], T0 + 200_000);
    const rows = await handle.db.selectFrom('login_rate_windows').selectAll().execute();
    expect(JSON.stringify(rows)).not.toMatch(/CAROL|10\.0\.0/);
    expect(rows.map((r) => r.key_digest)).toContain(rateLimitKeyDigest('u|10.0.0.3|CAROL'));
    await l.sweep(T0 + 200_000 + WINDOW_MS - 1);
    expect(
      (await handle.db.selectFrom('login_rate_windows').select('key_digest').execute()).map((r) => r.key_digest),
    ).toEqual([rateLimitKeyDigest('u|10.0.0.3|CAROL')]);
    await l.sweep(T0 + 200_000 + WINDOW_MS);
    expect(await handle.db.selectFrom('login_rate_windows').selectAll().execute()).toEqual([]);
    expect(errors).toEqual([]);
  });
});
