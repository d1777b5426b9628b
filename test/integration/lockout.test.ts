// Done-when 4: failed-password lockout counted atomically under parallel attempts, the locked
// answer only after the right password, no username enumeration, and the login rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { startInstance, type Instance } from '../support/instance.js';
import { createAccount } from '../../src/accounts/account-service.js';

const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;

describe.each(testDatabaseKinds())('lockout and enumeration on %s', (kind) => {
  let db: TestDatabase;
  let inst: Instance;
  let quick: Instance;

  const userRow = (username: string) =>
    inst.services.database.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    inst = await startInstance(db);
    // Same database, a 3-second lockout, to see it expire.
    quick = await startInstance(db, { Settings__LockoutMinutes: '0.05', Settings__LoginRateLimitPerUser: '1000' });
    for (const u of ['dave', 'erin', 'frank', 'grace']) await createAccount(inst.services.database.db, { username: u, password: `${u}-secret-pw` });
  });
  afterAll(async () => {
    await inst?.stop();
    await quick?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('20 parallel wrong passwords lock the account for 5 minutes; the right one then answers account_locked', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => inst.login('dave', 'wrong-password')));
    for (const r of answers) {
      expect(r.status).toBe(401);
      expect(r.body.data.code).toBe('invalid_credentials');
    }
    const row = await userRow('dave');
    expect(row.lockout_end).not.toBeNull();
    const lockedFor = Date.parse(row.lockout_end!) - Date.now();
    expect(lockedFor).toBeGreaterThan(4.5 * 60_000);
    expect(lockedFor).toBeLessThanOrEqual(5 * 60_000);

    const right = await inst.login('dave', 'dave-secret-pw');
    expect(right.status).toBe(401);
    expect(right.body.data.code).toBe('account_locked');
    // A wrong password while locked still says only invalid_credentials.
    expect((await inst.login('dave', 'nope')).body.data.code).toBe('invalid_credentials');
  });

  it('four failures then a success reset the count', async () => {
    for (let i = 0; i < 4; i++) expect((await inst.login('erin', 'bad')).status).toBe(401);
    expect((await inst.login('erin', 'erin-secret-pw')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await inst.login('erin', 'bad')).status).toBe(401);
    expect((await inst.login('erin', 'erin-secret-pw')).status).toBe(200);
    expect((await userRow('erin')).lockout_end).toBeNull();
  });

  it('the lockout ends after its time', async () => {
    await Promise.all(Array.from({ length: 6 }, () => quick.login('frank', 'bad')));
    expect((await quick.login('frank', 'frank-secret-pw')).body.data.code).toBe('account_locked');
    await new Promise((r) => setTimeout(r, 3300));
    expect((await quick.login('frank', 'frank-secret-pw')).status).toBe(200);
  });

  it('an unknown username gets the very same answer as a wrong password, after comparable work', async () => {
    const unknown = await inst.login('nobody-here', 'whatever-pw');
    const wrong = await inst.login('grace', 'whatever-pw');
    const strip = (b: any) => ({ ...b, requestID: '', executed_at: '' });
    expect(unknown.status).toBe(wrong.status);
    expect(strip(unknown.body)).toEqual(strip(wrong.body));
    expect([...unknown.headers.keys()].sort()).toEqual([...wrong.headers.keys()].sort());

    // Both paths run one argon2 verification; medians stay within a wide factor of each other.
    const time = async (u: string) => {
      const t0 = performance.now();
      await quick.login(u, 'whatever-pw');
      return performance.now() - t0;
    };
    const known: number[] = [];
    const missing: number[] = [];
    for (let i = 0; i < 7; i++) {
      known.push(await time('grace'));
      missing.push(await time(`ghost${i}`));
      // keep grace below the lockout threshold
      if (i % 3 === 2) expect((await quick.login('grace', 'grace-secret-pw')).status).toBe(200);
    }
    const ratio = median(missing) / median(known);
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(4);
  });

  it('a cancelled account answers account_cancelled only after the right password', async () => {
    await createAccount(inst.services.database.db, { username: 'henry', password: 'henry-secret-pw' });
    await inst.services.database.db.updateTable('users').set({ is_active: 0 }).where('username', '=', 'henry').execute();
    expect((await inst.login('henry', 'bad')).body.data.code).toBe('invalid_credentials');
    expect((await inst.login('henry', 'henry-secret-pw')).body.data.code).toBe('account_cancelled');
  });
});

describe('login rate limit', () => {
  let db: TestDatabase;
  let inst: Instance;
  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    inst = await startInstance(db, { Settings__LoginRateLimitPerUser: '3', Settings__LoginRateLimitPerAddress: '8' });
  });
  afterAll(async () => {
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('answers 429 with Retry-After beyond the per-user and per-address limits', async () => {
    for (let i = 0; i < 3; i++) expect((await inst.login('ivan', 'x')).status).toBe(401);
    const limited = await inst.login('ivan', 'x');
    expect(limited.status).toBe(429);
    expect(limited.body.data.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other usernames from the same address still pass until the address limit (8 in all).
    for (let i = 0; i < 4; i++) expect((await inst.login(`other${i}`, 'x')).status).toBe(401);
    expect((await inst.login('yet-another', 'x')).status).toBe(429);
  });
});
