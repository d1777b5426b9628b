// Two instances on one PostgreSQL database agree within a second. A logout,
// lock, role revoke or token delete made on A is refused on B within 1 s, although B caches
// account state for 30 s (the NOTIFY sent in the change's transaction, auth/auth-changes.ts);
// with B's listener connection terminated, B still refuses within its cache lifetime and the
// listener reconnects; the login rate limit holds for both instances combined.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { createAccount } from '../../src/accounts/account-service.js';
import { LISTENER_APPLICATION_NAME } from '../../src/auth/auth-change-listener.js';
import { sql } from 'kysely';
import { CLI_ACTOR } from '../../src/audit/audit-actions.js';

const WHOAMI = '/api/core/token/user';
/** Needs sys_administrator: tells whether B still believes a revoked role. */
const ADMIN_ONLY = '/api/core/token/browse';
const TRIALS = 20;
const POLL_MS = 50;
/** The bound. */
const AGREE_MS = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 50 ms until it answers `status`; the ms since `since`, or null after `giveUpMs`. */
async function refusedAfter(
  since: number,
  status: number,
  probe: () => Promise<{ status: number }>,
  giveUpMs: number,
): Promise<number | null> {
  for (;;) {
    const r = await probe();
    const elapsed = Date.now() - since;
    if (r.status === status) return elapsed;
    if (elapsed > giveUpMs) return null;
    await sleep(POLL_MS);
  }
}

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

const bearer = (t: string) => ({ headers: { Authorization: `Bearer ${t}` } });

async function listenerPids(inst: Instance): Promise<number[]> {
  const { rows } = await sql<{
    pid: number;
  }>`select pid from pg_stat_activity
      where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`.execute(
    inst.services.database.db,
  );
  return rows.map((r) => Number(r.pid));
}

describe.runIf(testDatabaseKinds().includes('postgres'))('instances on one PostgreSQL database', () => {
  let db: TestDatabase;
  let a: Instance;
  let b: Instance;
  let adminJwt: string;
  const password = 'agree-password-1';
  const delays: Record<string, number[]> = {};

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    // A 30 s cache (the default, explicit here): without the announcements B would keep
    // accepting for up to 30 s. The limits are out of the way of the many logins below.
    const env = {
      Settings__AuthCacheSeconds: '30',
      Settings__LoginRateLimitPerUser: '100000',
      Settings__LoginRateLimitPerAddress: '100000',
    };
    a = await startInstance(db, env);
    const aListeners = await listenerPids(a);
    b = await startInstance(db, env);
    // Each instance listens on a connection of its own.
    expect((await listenerPids(b)).filter((p) => !aListeners.includes(p))).toHaveLength(1);
    adminJwt = await a.jwtFor(ADMIN.username, ADMIN.password);
    await createAccount(
      a.services.database.db,
      {
        username: 'agree.user',
        password,
        roles: ['sys_tokens', 'sys_administrator'],
      },
      CLI_ACTOR,
    );
  }, 60_000);
  afterAll(async () => {
    for (const [kind, xs] of Object.entries(delays)) {
      if (xs.length)
        console.log(
          `refused on the other instance after a ${kind} on A: p50 ${percentile(xs, 50)} ms, ` +
            `p99 ${percentile(xs, 99)} ms, max ${Math.max(...xs)} ms (${xs.length} trials)`,
        );
    }
    await a?.stop();
    await b?.stop();
    if (db) await dropTestDatabase(db);
  });

  const asAdmin = (inst: Instance, path: string) => inst.request(path, { method: 'POST', ...bearer(adminJwt) });

  /** Runs one trial: `warm` must pass on B, then `change` on A must make `probe` answer `status` on B within 1 s. */
  async function trial(
    kind: string,
    warm: () => Promise<{ status: number }>,
    change: () => Promise<{ status: number }>,
    status: number,
  ): Promise<void> {
    // B accepts first: at once, or (after the previous trial's undo on A, an unlock or a
    // re-grant, which B also learns of by notification) within the same 1 s.
    expect(await refusedAfter(Date.now(), 200, warm, AGREE_MS), `${kind}: B accepts before the change`).not.toBeNull();
    const started = Date.now();
    expect((await change()).status, `${kind}: the change on A`).toBe(200);
    const delay = await refusedAfter(started, status, warm, AGREE_MS + 2000);
    expect(delay, `${kind}: B refuses`).not.toBeNull();
    (delays[kind] ??= []).push(delay!);
    expect(delay!, `${kind}: B refuses within 1 s`).toBeLessThan(AGREE_MS);
  }

  it(`a logout on A is refused on B within 1 s (${TRIALS} of ${TRIALS})`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const jwt = await a.jwtFor('agree.user', password);
      await trial(
        'logout',
        () => b.request(WHOAMI, bearer(jwt)),
        () => a.request('/api/core/account/logout', { method: 'POST', ...bearer(jwt) }),
        401,
      );
    }
  }, 120_000);

  it(`a lock on A is refused on B within 1 s (${TRIALS} of ${TRIALS})`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      // An API token: the lock must end it although no stamp is involved.
      const token = (await asAdmin(a, `/api/core/token/create/lock-${i}/agree.user`)).body.data.item.value as string;
      await trial(
        'lock',
        () => b.request(WHOAMI, bearer(token)),
        () => asAdmin(a, '/api/core/account/lock/agree.user'),
        401,
      );
      expect((await b.request(WHOAMI, bearer(token))).body.data.code).toBe('account_locked');
      expect((await asAdmin(a, '/api/core/account/unlock/agree.user')).status).toBe(200);
    }
  }, 120_000);

  it(`a role revoked on A is refused on B within 1 s (${TRIALS} of ${TRIALS})`, async () => {
    const jwt = await a.jwtFor('agree.user', password);
    for (let i = 0; i < TRIALS; i++) {
      await trial(
        'role revoke',
        () => b.request(ADMIN_ONLY, bearer(jwt)),
        () => asAdmin(a, '/api/core/account/role/revoke/agree.user/sys_administrator'),
        403,
      );
      expect((await asAdmin(a, '/api/core/account/role/grant/agree.user/sys_administrator')).status).toBe(200);
      // The grant reaches B the same way (not timed: the bound is about refusals).
      expect(await refusedAfter(Date.now(), 200, () => b.request(ADMIN_ONLY, bearer(jwt)), 5000)).not.toBeNull();
    }
  }, 120_000);

  it(`a token deleted on A is refused on B within 1 s (${TRIALS} of ${TRIALS})`, async () => {
    for (let i = 0; i < TRIALS; i++) {
      const token = (await asAdmin(a, `/api/core/token/create/delete-${i}/agree.user`)).body.data.item.value as string;
      await trial(
        'token delete',
        () => b.request(WHOAMI, bearer(token)),
        () => asAdmin(a, `/api/core/token/delete/delete-${i}/agree.user`),
        401,
      );
    }
  }, 120_000);

  it("with B's listener connection terminated, B refuses " +
    'within its cache lifetime, and the listener reconnects', async () => {
    // An instance with a 2 s cache, so the fallback is quick to see.
    const known = await listenerPids(a);
    const c = await startInstance(db, {
      Settings__AuthCacheSeconds: '2',
      Settings__LoginRateLimitPerUser: '100000',
      Settings__LoginRateLimitPerAddress: '100000',
    });
    try {
      const [cListener] = (await listenerPids(c)).filter((p) => !known.includes(p));
      expect(cListener).toBeDefined();
      const jwt = await a.jwtFor('agree.user', password);
      expect((await c.request(WHOAMI, bearer(jwt))).status).toBe(200);

      const { rows } = await sql<{ ok: boolean }>`select pg_terminate_backend(${cListener}) as ok`.execute(
        a.services.database.db,
      );
      expect(rows[0]?.ok).toBe(true);
      // The change is made while C's listener may still be away: C must refuse within 2 s
      // (the cache lifetime), whether its entry expired or the reconnect cleared it.
      const started = Date.now();
      expect((await a.request('/api/core/account/logout', { method: 'POST', ...bearer(jwt) })).status).toBe(200);
      const fallback = await refusedAfter(started, 401, () => c.request(WHOAMI, bearer(jwt)), 2000 + 2000);
      expect(fallback, 'C refuses within its cache lifetime (2 s, polled 2 s longer)').not.toBeNull();
      expect(fallback!).toBeLessThan(2000 + 500);
      (delays['logout while the listener was away'] ??= []).push(fallback!);

      // The listener is back on a new connection, and announcements reach C within 1 s again.
      let back: number[] = [];
      for (let i = 0; i < 100 && back.length === 0; i++) {
        back = (await listenerPids(c)).filter((p) => !known.includes(p) && p !== cListener);
        if (back.length === 0) await sleep(100);
      }
      expect(back, 'a new listener connection').toHaveLength(1);
      expect(c.logs()).toMatch(/auth change listener lost its connection/);
      const next = await a.jwtFor('agree.user', password);
      await trial(
        'logout after reconnect',
        () => c.request(WHOAMI, bearer(next)),
        () => a.request('/api/core/account/logout', { method: 'POST', ...bearer(next) }),
        401,
      );
    } finally {
      await c.stop();
    }
  }, 60_000);

  it('the login rate limit holds for both instances combined', async () => {
    const limited = { Settings__LoginRateLimitPerUser: '4', Settings__LoginRateLimitPerAddress: '1000' };
    const c = await startInstance(db, limited);
    const d = await startInstance(db, limited);
    try {
      // Four attempts in all are allowed, alternating between the instances (two each: a
      // per-process count would allow eight).
      const answers: number[] = [];
      for (let i = 0; i < 4; i++) answers.push((await (i % 2 ? d : c).login('rate.unknown', 'wrong password')).status);
      expect(answers).toEqual([401, 401, 401, 401]);
      for (const inst of [c, d]) {
        const r = await inst.login('rate.unknown', 'wrong password');
        expect(r.status).toBe(429);
        expect(r.body.data.code).toBe('rate_limited');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // Nothing in the table shows the username.
      const rows = await a.services.database.db.selectFrom('login_rate_windows').selectAll().execute();
      expect(JSON.stringify(rows)).not.toMatch(/rate\.unknown/i);
    } finally {
      await c.stop();
      await d.stop();
    }
  }, 60_000);
});
