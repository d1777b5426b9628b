// Password logins per second on a real platform-core instance (SQLite), and what a login storm
// does to everyone else: the p99 latency of an anonymous ping measured at the same time. Logins
// hash on the argon2 thread pool (OWASP parameters), never on the event loop, so the ping's p99
// should barely move. Reported as medians over the rounds: logins/s, logins/s per server core
// (server CPU time), login p50/p99, and the ping's p99 alone and during the storm.
// The rate limit and the lockout are raised out of the way; every login must answer 200.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServerChild } from './lib/children.js';
import { fmt, measure, median, table } from './lib/load.js';

export const description = 'POST /api/core/account/login (argon2id) per second, and a ping’s p99 during the storm';

export const defaults = { rounds: 3, warmup: 2, connections: 8 };

const ADMIN = { username: 'admin', password: 'bench-admin-password-not-secret' };
const PING = '/api/core/system/ping';
/** Ping load beside the storm: a few connections, as interactive users would be. */
const PING_CONNECTIONS = 4;

export async function run({ options, log }) {
  const failures = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'platform-core-bench-login-'));
  let server;
  try {
    server = await startServerChild('platform', new URL('./servers/platform.js', import.meta.url), {
      dataDir,
      ...ADMIN,
      env: {
        Settings__LoginRateLimitPerUser: '1000000',
        Settings__LoginRateLimitPerAddress: '1000000',
        // Each login in flight reserves a failure in advance (auth/lockout.ts): with more
        // connections than allowed failures, the surplus would be refused as locked.
        Settings__LockoutMaxFailedAttempts: '1000',
        // Measured as operators run it: with /metrics served (the audit trail is always on).
        Settings__MetricsToken: 'bench-metrics-token-not-secret',
      },
    });
    log(`platform-core pid ${server.pid} at ${server.url} (SQLite in ${dataDir})`);
    const login = {
      url: server.url + '/api/core/account/login',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
      verifyBody: (b) => b.includes('"token"'),
    };
    const ping = { url: server.url + PING, verifyBody: (b) => b.includes('"success":true') };

    const storm = async (duration) => {
      await server.gc();
      await sleep(250);
      const before = await server.cpuUsage();
      const [l, p] = await Promise.all([
        measure({ ...login, connections: options.connections, duration }),
        measure({ ...ping, connections: PING_CONNECTIONS, duration }),
      ]);
      const after = await server.cpuUsage();
      const cpuUs = after && before ? after.user - before.user + after.system - before.system : NaN;
      return { l, p, cores: cpuUs / 1e6 / duration };
    };
    const quiet = async (duration) => measure({ ...ping, connections: PING_CONNECTIONS, duration });

    if (options.warmup > 0) {
      log(`warm-up: ${options.warmup} s…`);
      const w = await storm(options.warmup);
      for (const p of [...w.l.problems, ...w.p.problems]) failures.push(`warm-up: ${p}`);
    }
    const rows = [];
    const quietP99 = [];
    for (let round = 1; round <= options.rounds; round++) {
      const q = await quiet(options.duration);
      for (const p of q.problems) failures.push(`round ${round} ping alone: ${p}`);
      quietP99.push(q.p99);
      const s = await storm(options.duration);
      for (const p of [...s.l.problems, ...s.p.problems]) failures.push(`round ${round} storm: ${p}`);
      rows.push(s);
      log(
        `round ${round}: ${fmt.int(s.l.rps)} logins/s (${s.cores.toFixed(2)} server cores), login p99 ` +
          `${fmt.ms(s.l.p99)} ms; ping p99 ${fmt.ms(q.p99)} ms alone, ${fmt.ms(s.p.p99)} ms in the storm`,
      );
    }
    const loginRps = median(rows.map((r) => r.l.rps));
    const perCore = median(rows.map((r) => r.l.rps / r.cores));
    const stormP99 = median(rows.map((r) => r.p.p99));
    log(
      '\n' +
        table(
          ['', 'logins/s', 'per server core', 'login p50 ms', 'login p99 ms', 'ping p99 alone', 'ping p99 storm'],
          [
            [
              'median',
              fmt.int(loginRps),
              perCore.toFixed(1),
              fmt.ms(median(rows.map((r) => r.l.p50))),
              fmt.ms(median(rows.map((r) => r.l.p99))),
              fmt.ms(median(quietP99)),
              fmt.ms(stormP99),
            ],
          ],
        ),
    );
    return {
      failures,
      headlines: [
        `login: ${fmt.int(loginRps)} logins/s (${perCore.toFixed(1)} per server core); ping p99 ` +
          `${fmt.ms(median(quietP99))} ms alone, ${fmt.ms(stormP99)} ms during the storm`,
      ],
    };
  } finally {
    await server?.stop();
    if (!options.keep) await rm(dataDir, { recursive: true, force: true });
  }
}
