// Failed-password lockout: counted atomically under parallel attempts, no password
// verified while locked (counted through an injected hasher), unknown usernames counted and
// locked alike, a wrong current password counted too; and the login rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { passwordFor, startInstance, type Instance } from '../support/instance.js';
import { createAccount } from '../../src/accounts/account-service.js';
import { argon2Hasher, type PasswordHasher } from '../../src/auth/passwords.js';
import { sweepUnknownFailures } from '../../src/auth/lockout.js';
import { LOCKED_FOREVER } from '../../src/lib/time.js';
import { CLI_ACTOR } from '../../src/audit/audit-actions.js';

const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;

/** The production hasher, counting how many passwords it verifies. */
function countingHasher(): PasswordHasher & { verified: number } {
  const hasher = {
    verified: 0,
    dummyHash: argon2Hasher.dummyHash,
    hash: (pw: string) => argon2Hasher.hash(pw),
    verify: (pw: string, stored: string) => {
      hasher.verified += 1;
      return argon2Hasher.verify(pw, stored);
    },
  };
  return hasher;
}

const codes = (rs: Array<{ status: number; body: any }>) =>
  rs.map((r) => `${r.status} ${r.body?.data?.code ?? r.body?.message}`);

describe.each(testDatabaseKinds())('lockout and enumeration on %s', (kind) => {
  let db: TestDatabase;
  let inst: Instance;
  let quick: Instance;
  const hasher = countingHasher();
  const quickHasher = countingHasher();

  const userRow = (username: string) =>
    inst.services.database.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    // Rate limits out of the way: the lockout alone must stop the guessing.
    const unlimited = { Settings__LoginRateLimitPerUser: '100000', Settings__LoginRateLimitPerAddress: '100000' };
    inst = await startInstance(db, unlimited, { passwordHasher: hasher });
    // Same database, a 3-second lockout window, to see it expire.
    quick = await startInstance(
      db,
      { ...unlimited, Settings__LockoutMinutes: '0.05' },
      { passwordHasher: quickHasher },
    );
    for (const u of ['dave', 'erin', 'frank', 'grace', 'paula'])
      await createAccount(inst.services.database.db, { username: u, password: passwordFor(u) }, CLI_ACTOR);
  });
  afterAll(async () => {
    await inst?.stop();
    await quick?.stop();
    if (db) await dropTestDatabase(db);
  });

  /** 50 parallel and 100 sequential wrong passwords, then the right one (if there is one). */
  async function guess(username: string, rightPassword: string) {
    hasher.verified = 0;
    const parallel = await Promise.all(
      Array.from({ length: 50 }, (_, i) => inst.login(username, `parallel-guess-${i}`)),
    );
    const sequential = [];
    for (let i = 0; i < 100; i++) sequential.push(await inst.login(username, `sequential-guess-${i}`));
    const right = await inst.login(username, rightPassword, { createCookie: true });
    return { verified: hasher.verified, parallel: codes(parallel).sort(), sequential: codes(sequential), right };
  }

  it(
    '150 wrong passwords verify at most LockoutMaxFailedAttempts; the right one then gets account_locked; an ' +
      'unknown username answers the same',
    async () => {
      const known = await guess('dave', passwordFor('dave'));
      expect(known.verified).toBe(5);
      // Five verified and refused, the rest refused as locked without a verification.
      expect(known.parallel.filter((c) => c === '401 invalid_credentials')).toHaveLength(5);
      expect(known.parallel.filter((c) => c === '401 account_locked')).toHaveLength(45);
      expect(new Set(known.sequential)).toEqual(new Set(['401 account_locked']));
      expect(known.right.status).toBe(401);
      expect(known.right.body.data.code).toBe('account_locked');
      expect(known.right.body.data.token).toBeUndefined();
      expect(known.right.headers.get('set-cookie')).toBeNull();

      const row = await userRow('dave');
      const lockedFor = Date.parse(row.lockout_end!) - Date.now();
      expect(lockedFor).toBeGreaterThan(4.5 * 60_000);
      expect(lockedFor).toBeLessThanOrEqual(5 * 60_000);

      const unknown = await guess('nobody-by-this-name', passwordFor('dave'));
      expect(unknown.verified).toBe(known.verified);
      expect(unknown.parallel).toEqual(known.parallel);
      expect(unknown.sequential).toEqual(known.sequential);
      expect(codes([unknown.right])).toEqual(codes([known.right]));
      // The unknown username is kept only as a digest.
      const stored = await inst.services.database.db.selectFrom('login_failures').selectAll().execute();
      expect(JSON.stringify(stored)).not.toMatch(/nobody/i);
    },
  );

  it('an account exempt from lockout (LockoutEnabled off) is never locked by failed passwords', async () => {
    await createAccount(inst.services.database.db, { username: 'ursula', password: passwordFor('ursula') }, CLI_ACTOR);
    await inst.services.database.db
      .updateTable('users')
      .set({ lockout_enabled: 0 })
      .where('username', '=', 'ursula')
      .execute();
    for (let i = 0; i < 8; i++)
      expect(codes([await inst.login('ursula', `wrong-${i}`)])).toEqual(['401 invalid_credentials']);
    expect((await userRow('ursula')).lockout_end).toBeNull();
    expect((await inst.login('ursula', passwordFor('ursula'))).status).toBe(200);
  });

  it(
    'a wrong current_password counts as a failed password; ' + 'once locked, not even the right one is verified',
    async () => {
      const jwt = await inst.jwtFor('paula', passwordFor('paula'));
      const before = (await userRow('paula')).password_hash;
      hasher.verified = 0;
      const change = (current: string) =>
        inst.request('/api/core/account/password', {
          method: 'POST',
          headers: { Authorization: `Bearer ${jwt}` },
          json: { current_password: current, new_password: 'cnhyn-new-password-1' },
        });
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => change(`guess-${i}`)));
      for (let i = 0; i < 10; i++) answers.push(await change(`more-${i}`));
      expect(hasher.verified).toBe(5);
      expect(codes(answers).filter((c) => c === '400 invalid_current_password')).toHaveLength(5);
      for (const c of codes(answers).filter((c) => c !== '400 invalid_current_password'))
        expect(c).toBe('401 account_locked');
      expect((await change(passwordFor('paula'))).status).toBe(401);
      expect(hasher.verified).toBe(5);
      expect((await userRow('paula')).password_hash).toBe(before);
      expect((await inst.login('paula', passwordFor('paula'))).body.data.code).toBe('account_locked');
    },
  );

  it('four failures then a success reset the count', async () => {
    for (let i = 0; i < 4; i++) expect((await inst.login('erin', 'bad')).status).toBe(401);
    expect((await inst.login('erin', passwordFor('erin'))).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await inst.login('erin', 'bad')).status).toBe(401);
    expect((await inst.login('erin', passwordFor('erin'))).status).toBe(200);
    expect((await userRow('erin')).lockout_end).toBeNull();
  });

  it(
    'the lockout ends after its window, and failures a window apart are forgotten, for known and unknown ' +
      'usernames alike',
    async () => {
      for (const [name, pw] of [
        ['frank', passwordFor('frank')],
        ['ghost-frank', 'x'],
      ] as const) {
        await Promise.all(Array.from({ length: 6 }, () => quick.login(name, 'bad')));
        expect((await quick.login(name, pw)).body.data.code).toBe('account_locked');
      }
      await new Promise((r) => setTimeout(r, 3300));
      expect((await quick.login('frank', passwordFor('frank'))).status).toBe(200);
      quickHasher.verified = 0;
      expect((await quick.login('ghost-frank', 'x')).body.data.code).toBe('invalid_credentials');
      expect(quickHasher.verified).toBe(1);

      // Four failures, a quiet window, four more: never five within a window, never locked.
      for (const name of ['frank', 'ghost-frank-2']) {
        for (let i = 0; i < 4; i++) expect((await quick.login(name, 'bad')).body.data.code).toBe('invalid_credentials');
      }
      await new Promise((r) => setTimeout(r, 3300));
      for (const name of ['frank', 'ghost-frank-2']) {
        for (let i = 0; i < 4; i++) expect((await quick.login(name, 'bad')).body.data.code).toBe('invalid_credentials');
      }
      expect((await quick.login('frank', passwordFor('frank'))).status).toBe(200);
    },
  );

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
      if (i % 3 === 2) expect((await quick.login('grace', passwordFor('grace'))).status).toBe(200);
    }
    const ratio = median(missing) / median(known);
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(4);
  });

  it('cancelled and administrator-locked accounts answer so on the first try, without a verification', async () => {
    await createAccount(inst.services.database.db, { username: 'henry', password: passwordFor('henry') }, CLI_ACTOR);
    await createAccount(inst.services.database.db, { username: 'ingrid', password: passwordFor('ingrid') }, CLI_ACTOR);
    await inst.services.database.db
      .updateTable('users')
      .set({ is_active: 0 })
      .where('username', '=', 'henry')
      .execute();
    await inst.services.database.db
      .updateTable('users')
      .set({ lockout_end: LOCKED_FOREVER })
      .where('username', '=', 'ingrid')
      .execute();
    hasher.verified = 0;
    expect((await inst.login('henry', 'bad')).body.data.code).toBe('account_cancelled');
    expect((await inst.login('henry', passwordFor('henry'))).body.data.code).toBe('account_cancelled');
    expect((await inst.login('ingrid', 'bad')).body.data.code).toBe('account_locked');
    expect((await inst.login('ingrid', passwordFor('ingrid'))).body.data.code).toBe('account_locked');
    expect(hasher.verified).toBe(0);
  });

  it('the store of unknown usernames drops what no longer counts and stays bounded', async () => {
    const d = inst.services.database.db;
    const policy = { maxFailedAttempts: 5, lockoutMinutes: 5 };
    await d.deleteFrom('login_failures').execute();
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString().replace('Z', '000Z');
    await d
      .insertInto('login_failures')
      .values([
        { username_digest: 'expired', failed_count: 2, failed_at: at(6), lockout_end: null },
        { username_digest: 'lockout-over', failed_count: 0, failed_at: at(11), lockout_end: at(6) },
        { username_digest: 'still-locked', failed_count: 0, failed_at: at(6), lockout_end: at(-1) },
        ...Array.from({ length: 6 }, (_, i) => ({
          username_digest: `recent-${i}`,
          failed_count: 1,
          failed_at: at(4 - i * 0.1),
          lockout_end: null,
        })),
      ])
      .execute();
    await sweepUnknownFailures(d, policy, now, 4);
    const left = (
      await d.selectFrom('login_failures').select('username_digest').orderBy('username_digest').execute()
    ).map((r) => r.username_digest);
    // Two expired entries gone; of the seven left the three oldest go to keep four.
    expect(left).toEqual(['recent-3', 'recent-4', 'recent-5', 'still-locked']);
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
