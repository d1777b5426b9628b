// Authenticated ping against a bare Fastify route (issue: "both must be ≥ 0.75 of the bare
// route"). Two server children — a real platform-core instance on SQLite and a bare Fastify
// app answering the same JSON — are loaded in turn by autocannon from this process:
// warm-up, then `rounds` rounds of bare, Token, JWT (each round starting with the next one),
// each run `duration` seconds with `connections` connections (pipelining 1). Reported per
// target, as medians over the rounds: requests/s, latency, the server's CPU time per request;
// and the ratios of the median requests/s to the bare route's.
// Slow ratios are reported, not failed; any non-200 answer, socket error, timeout or
// unexpected body fails the benchmark.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServerChild } from './lib/children.js';
import { fmt, measure, median, table } from './lib/load.js';
import { canPin, LOAD_CPU, pin, pinSelf, SERVER_CPU } from './lib/affinity.js';
import { BENCH_ADMIN } from './lib/admin.js';

export const description = 'GET /api/core/system/ping with Token and Bearer JWT vs a bare Fastify route (autocannon)';

// On a shared VM single 5 s runs of the same server differ by ±10 %; five rounds make the
// medians steadier, and a longer warm-up lets the JIT settle before the first counted round.
export const defaults = { rounds: 5, warmup: 5 };

const PING = '/api/core/system/ping';
const ADMIN = BENCH_ADMIN;
const TARGET_RATIO = 0.75;
const METRICS_TOKEN = 'bench-metrics-token-not-secret';

/** Busy CPU time of the whole machine, all cores, in ms. */
function machineBusyMs() {
  let busy = 0;
  for (const c of cpus()) busy += c.times.user + c.times.nice + c.times.sys + c.times.irq;
  return busy;
}

/**
 * CPU ms so far of process `pid`'s threads other than its main thread (Linux: schedstat of each
 * task); null where /proc cannot tell. The server and its threads share one pinned core, so a
 * busy worker or helper thread halves the main thread's share: the requests' rate halves and
 * the CPU per request doubles without the request path having changed. Reported per run so
 * that such a run is recognised for what it is.
 */
function otherThreadsMs(pid) {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      if (tid === String(pid)) continue;
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return ns / 1e6;
  } catch {
    return null;
  }
}

/** Same keys, same value types, recursively (values may differ). */
function shapeOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.map(shapeOf);
  if (typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, shapeOf(v[k])]),
    );
  return typeof v;
}

async function call(url, init = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

export async function run(ctx) {
  const { options, log } = ctx;
  const failures = [];
  const headlines = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'platform-core-bench-'));
  const servers = [];
  let unpin = null;
  try {
    const started = await Promise.allSettled([
      startServerChild('platform', new URL('./servers/platform.js', import.meta.url), {
        dataDir,
        ...ADMIN,
        // Measured as operators run it: with /metrics served (the audit trail is always on).
        env: { Settings__MetricsToken: METRICS_TOKEN },
      }),
      startServerChild('bare', new URL('./servers/bare.js', import.meta.url), { username: ADMIN.username }),
    ]);
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    const [platform, bare] = servers;
    log(
      `platform-core pid ${platform.pid} at ${platform.url} (SQLite in ${dataDir}); bare Fastify ` +
        `pid ${bare.pid} at ${bare.url}`,
    );
    if (options.pin && canPin()) {
      for (const s of servers) pin(s.pid, SERVER_CPU);
      unpin = pinSelf();
      log(
        `pinned: the servers to CPU ${SERVER_CPU}, autocannon (this process) to CPU ${LOAD_CPU} (--no-pin to ` +
          `leave placement to the scheduler)`,
      );
    } else {
      log(
        options.pin
          ? 'not pinned (needs Linux, taskset and two cores): expect a wider spread between runs'
          : 'not pinned (--no-pin)',
      );
    }

    // Credentials: a JWT from login, and an API token created with it.
    const login = await call(`${platform.url}/api/core/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    if (login.status !== 200 || typeof login.body?.data?.token !== 'string')
      throw new Error(`login failed: ${login.status} ${login.text}`);
    const jwt = login.body.data.token;
    const created = await call(`${platform.url}/api/core/token/create/bench`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
    });
    const apiToken = created.body?.data?.item?.value;
    if (created.status !== 201 || typeof apiToken !== 'string')
      throw new Error(`token creation failed: ${created.status} ${created.text}`);

    const allTargets = {
      bare: { label: 'bare Fastify', server: bare, headers: {}, expect: '"success":true' },
      token: {
        label: 'ping (Token)',
        server: platform,
        headers: { authorization: `Token ${apiToken}` },
        expect: '"authenticated":true',
      },
      jwt: {
        label: 'ping (JWT)',
        server: platform,
        headers: { authorization: `Bearer ${jwt}` },
        expect: '"authenticated":true',
      },
      anon: { label: 'ping (anonymous)', server: platform, headers: {}, expect: '"authenticated":false' },
      // Diagnostics: the bare route sent the same request bytes as the authenticated pings (it
      // ignores the header), to separate the cost of receiving a longer request from our work.
      'bare-token': {
        label: 'bare + Token hdr',
        server: bare,
        headers: { authorization: `Token ${apiToken}` },
        expect: '"success":true',
      },
      'bare-jwt': {
        label: 'bare + JWT hdr',
        server: bare,
        headers: { authorization: `Bearer ${jwt}` },
        expect: '"success":true',
      },
    };
    const names = options.targets ?? ['bare', 'token', 'jwt'];
    for (const n of names)
      if (!allTargets[n]) throw new Error(`unknown target "${n}" (known: ${Object.keys(allTargets).join(', ')})`);
    if (!names.includes('bare')) throw new Error('the targets must include "bare" (the baseline)');
    const targets = names.map((n) => ({ name: n, ...allTargets[n], runs: [] }));

    // Preflight: every target answers 200 with the expected caller and the same envelope shape.
    const shapes = new Map();
    for (const t of targets) {
      const r = await call(t.server.url + PING, { headers: t.headers });
      const items = r.body?.data?.items;
      if (r.status !== 200 || !r.text.includes(t.expect))
        throw new Error(`preflight ${t.label}: ${r.status} ${r.text}`);
      if (t.name !== 'anon' && !t.name.startsWith('bare') && items?.username !== ADMIN.username)
        throw new Error(`preflight ${t.label}: unexpected caller in ${r.text}`);
      shapes.set(t.name, JSON.stringify(shapeOf(r.body)));
    }
    for (const t of targets) {
      if (shapes.get(t.name) !== shapes.get('bare'))
        throw new Error(`${t.label} answers a differently shaped JSON than the bare route`);
    }

    const runOne = async (t, duration) => {
      await t.server.gc();
      await sleep(250);
      const expect = t.expect;
      const before = {
        server: await t.server.cpuUsage(),
        self: process.cpuUsage(),
        machine: machineBusyMs(),
        threads: otherThreadsMs(t.server.pid),
      };
      const m = await measure({
        url: t.server.url + PING,
        headers: t.headers,
        connections: options.connections,
        duration,
        verifyBody: (body) => body.includes(expect),
      });
      const server = await t.server.cpuUsage();
      const self = process.cpuUsage(before.self);
      if (server && before.server && m.total > 0) {
        const serverUs = server.user - before.server.user + server.system - before.server.system;
        m.serverCpuPerRequest = serverUs / m.total;
        m.serverCores = serverUs / 1000 / (duration * 1000);
        m.loadGenCores = (self.user + self.system) / 1000 / (duration * 1000);
        // CPU the rest of the machine used meanwhile (other processes), in cores: the figures
        // are only as good as this is small.
        const othersMs = machineBusyMs() - before.machine - serverUs / 1000 - (self.user + self.system) / 1000;
        m.otherCores = Math.max(0, othersMs / (duration * 1000));
        const threads = otherThreadsMs(t.server.pid);
        if (threads !== null && before.threads !== null)
          m.serverThreadCores = (threads - before.threads) / (duration * 1000);
      }
      if (t.server.exited) m.problems.push(`${t.server.label} server exited (${JSON.stringify(t.server.exited)})`);
      return m;
    };

    if (options.warmup > 0) {
      log(`warm-up: ${options.warmup} s per target…`);
      for (const t of targets) {
        const m = await runOne(t, options.warmup);
        for (const p of m.problems) failures.push(`warm-up ${t.label}: ${p}`);
      }
    }
    for (let round = 1; round <= options.rounds; round++) {
      // Each round starts with the next target (bare, token, jwt / token, jwt, bare / …), so no
      // target always runs right after the same other one.
      const order = targets.map((_, i) => targets[(i + round - 1) % targets.length]);
      for (const t of order) {
        const m = await runOne(t, options.duration);
        t.runs.push(m);
        for (const p of m.problems) failures.push(`round ${round} ${t.label}: ${p}`);
        log(
          `  round ${round}/${options.rounds}  ${t.label.padEnd(17)} ${fmt.int(m.rps).padStart(7)} req/s  ` +
            `p50 ${fmt.ms(m.p50)} ms  p99 ${fmt.ms(m.p99)} ms` +
            `  server ${m.serverCpuPerRequest?.toFixed(1) ?? '?'} µs CPU/req` +
            (`  cores used: server ${m.serverCores?.toFixed(2) ?? '?'}, ` +
              `autocannon ${m.loadGenCores?.toFixed(2) ?? '?'}, other ` +
              `processes ${m.otherCores?.toFixed(2) ?? '?'}`) +
            (m.serverThreadCores > 0.1
              ? `  (warning: the server's threads other than its main one used ${m.serverThreadCores.toFixed(2)} ` +
                `cores)`
              : ''),
        );
      }
    }

    // Profiles: one more run per target, not counted, with the V8 sampling profiler on in the
    // server (it slows the server a little).
    if (options.prof) {
      for (const t of targets) {
        const file = join(options.profDir, `http-auth-${t.name}.cpuprofile`);
        await t.server.gc();
        await t.server.profileStart();
        const m = await measure({
          url: t.server.url + PING,
          headers: t.headers,
          connections: options.connections,
          duration: options.duration,
        });
        await t.server.profileStop(file);
        for (const p of m.problems) failures.push(`profiled run ${t.label}: ${p}`);
        ctx.profiles?.push({
          file,
          label: `${t.label}: ${fmt.int(m.total)} requests in ${options.duration} s`,
          requests: m.total,
        });
      }
    }

    // Report.
    const base = targets.find((t) => t.name === 'bare');
    const baseMedian = median(base.runs.map((r) => r.rps));
    const cpuOf = (t) => median(t.runs.map((r) => r.serverCpuPerRequest ?? NaN));
    const rows = targets.map((t) => {
      const rps = t.runs.map((r) => r.rps);
      const perRound = t.runs.map((r, i) => r.rps / base.runs[i].rps);
      return [
        t.label,
        fmt.int(median(rps)),
        fmt.int(Math.min(...rps)),
        fmt.int(Math.max(...rps)),
        fmt.ms(median(t.runs.map((r) => r.p50))),
        fmt.ms(median(t.runs.map((r) => r.p99))),
        String(Math.round(median(t.runs.map((r) => r.bytesPerResponse)))),
        cpuOf(t).toFixed(1),
        fmt.ratio(median(rps) / baseMedian),
        perRound.map(fmt.ratio).join(' '),
        fmt.ratio(cpuOf(base) / cpuOf(t)),
      ];
    });
    log('');
    log(
      `${options.rounds} rounds × ${options.duration} s, ${options.connections} connections, pipelining 1 ` +
        `(medians over rounds)`,
    );
    log(
      table(
        [
          'target',
          'req/s',
          'min',
          'max',
          'p50 ms',
          'p99 ms',
          'bytes/resp',
          'CPU µs/req',
          'vs bare',
          'per round',
          'CPU vs bare',
        ],
        rows,
      ),
    );
    const others = median(targets.flatMap((t) => t.runs.map((r) => r.otherCores ?? 0)));
    log(
      `(vs bare: median req/s over the bare route's; per round: against the bare run of the same round; CPU ` +
        `vs bare: the`,
    );
    log(
      ` bare route's server CPU per request over this target's — the same ratio with other processes' load ` +
        `factored out)`,
    );
    if (others > 0.15) {
      log(
        `warning: other processes used ${others.toFixed(2)} cores (median) during the runs; req/s figures ` +
          `are disturbed, CPU µs/req less so`,
      );
    }
    log('');
    const ratioName = {
      token: 'ping(Token)',
      jwt: 'ping(JWT)',
      anon: 'ping(anonymous)',
      'bare-token': 'bare(Token header)',
      'bare-jwt': 'bare(JWT header)',
    };
    const below = [];
    for (const t of targets) {
      if (t.name === 'bare') continue;
      const ratio = median(t.runs.map((r) => r.rps)) / baseMedian;
      headlines.push(`ratio ${ratioName[t.name]}/bare = ${fmt.ratio(ratio)}`);
      if ((t.name === 'token' || t.name === 'jwt') && ratio < TARGET_RATIO) below.push(ratioName[t.name]);
    }
    for (const h of headlines) log(h);
    log(
      below.length
        ? `below the ${TARGET_RATIO} target: ${below.join(', ')} (reported, not failed)`
        : `authenticated ping ≥ ${TARGET_RATIO} of the bare route`,
    );
  } finally {
    unpin?.();
    for (const s of servers) {
      const how = await s.stop();
      if (how.code !== 0 && how.code !== null) failures.push(`${s.label} server exited with code ${how.code}`);
    }
    const serverLog = await readFile(join(dataDir, 'server.log'), 'utf8').catch(() => '');
    const lines = serverLog.split('\n').filter(Boolean);
    if (lines.length) {
      log(`\nplatform-core logged ${lines.length} line(s) at warn or above:`);
      for (const l of lines.slice(0, 10)) log(`  ${l.length > 300 ? `${l.slice(0, 300)}…` : l}`);
    }
    if (options.keep) log(`kept ${dataDir}`);
    else await rm(dataDir, { recursive: true, force: true });
  }
  return { failures, headlines };
}
