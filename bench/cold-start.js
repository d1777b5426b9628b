// Issue 22, goal 5: `npm start` to the first answered request, and the first report render after
// a start against a warm one. Each round spawns `node bin/platform-core.js serve` (what `npm
// start` runs) on a fresh DATA_DIR, with an APPS_DIR holding the app of lib/srs-bench-app.js,
// once with Settings:RenderWarmup on (the default) and once off, alternating. Per start:
//   ready   spawn → first 200 of GET /api/core/system/ping (a new database: migrations and the
//           administrator's password hash are part of it)
//   first   the first 1,000-row PDF, requested SETTLE_MS after ready (the warm-up has finished
//           by then); before it, the report's `.frx` (data merged, nothing rendered) starts
//           the SQL command process and reads the template, so `first` is the render's share
//   warm    the best of the next WARM_RENDERS identical requests; ratio = first / warm
//   at-once the first PDF requested the moment ping answers, on a start of its own (the worker
//           is still loading the engine then; a waiting render skips the warm-up)
// Headline: medians per mode; the aim is ratio ≤ 2 with the warm-up. Times are wall-clock over
// HTTP on loopback, and (Linux) the CPU time the server process spent on the request, summed
// over its threads (/proc/<pid>/task/*/schedstat, ns): the render worker's and the main
// thread's, not the SQL command process's. On a loaded machine wall-clock times grow with the
// other load and CPU times much less, so the CPU ratio is the one to compare there.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { BENCH_APP, BENCH_SRS_ID, BENCH_TEMPLATE, benchReportPath, writeBenchApp } from './lib/srs-bench-app.js';
import { median } from './lib/timing.js';
import { BENCH_ADMIN } from './lib/admin.js';

export const description =
  'npm start → first ping 200, and the first 1,000-row SRS PDF after start vs warm (warm-up on/off)';
export const defaults = { rounds: 3 };

const BIN = fileURLToPath(new URL('../bin/platform-core.js', import.meta.url));
const ADMIN = BENCH_ADMIN;
const ROWS = 1000;
const SETTLE_MS = 4000;
const WARM_RENDERS = 6;
const READY_TIMEOUT_MS = 60_000;

/** CPU time (ms) of all threads of process `pid` so far; NaN where /proc has no schedstat. */
function cpuMs(pid) {
  try {
    let ns = 0;
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return ns / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** A free loopback port (the server is told it; serve has no way to report an ephemeral one). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Spawns `serve`; resolves once ping answers 200 with the server, its URL and the time to it. */
async function startServe(appsDir, warmup, keep) {
  const dataDir = await mkdtemp(join(tmpdir(), 'pc-cold-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: dataDir, // no appsettings.json of the checkout
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      APPS_DIR: appsDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PLATFORM_ADMIN_USERNAME: ADMIN.username,
      PLATFORM_ADMIN_PASSWORD: ADMIN.password,
      Settings__LogLevel: 'warn',
      Settings__RenderWarmup: String(warmup),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    if (!keep) await rm(dataDir, { recursive: true, force: true });
  };
  while (performance.now() - started < READY_TIMEOUT_MS) {
    if (exited) throw new Error('serve exited before answering');
    const ok = await fetch(`${url}/api/core/system/ping`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { url, pid: child.pid, readyMs: performance.now() - started, stop };
    await sleep(5);
  }
  await stop();
  throw new Error(`serve did not answer within ${READY_TIMEOUT_MS} ms`);
}

async function login(url) {
  const res = await fetch(`${url}/api/core/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const jwt = (await res.json())?.data?.token;
  if (res.status !== 200 || typeof jwt !== 'string') throw new Error(`login failed: ${res.status}`);
  return { authorization: `Bearer ${jwt}` };
}

/** One request, body read: its wall-clock and server CPU ms; throws unless a 200 of the expected type. */
async function timed(server, path, headers, type) {
  const cpu = cpuMs(server.pid);
  const t = performance.now();
  const res = await fetch(server.url + path, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - t;
  if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith(type))
    throw new Error(`${path}: ${res.status} ${res.headers.get('content-type')} ${body.subarray(0, 200)}`);
  return { ms, cpu: cpuMs(server.pid) - cpu };
}

async function oneStart(appsDir, warmup, keep) {
  const server = await startServe(appsDir, warmup, keep);
  try {
    const headers = await login(server.url);
    await sleep(SETTLE_MS);
    const frx = `/api/srs/${BENCH_SRS_ID}/${BENCH_TEMPLATE}?app_name=${BENCH_APP}&count=${ROWS}`;
    await timed(server, frx, headers, 'application/xml');
    const pdf = benchReportPath(ROWS, 'pdf');
    const first = await timed(server, pdf, headers, 'application/pdf');
    const warm = [];
    for (let i = 0; i < WARM_RENDERS; i++) warm.push(await timed(server, pdf, headers, 'application/pdf'));
    return {
      readyMs: server.readyMs,
      first: first.ms,
      warm: Math.min(...warm.map((w) => w.ms)),
      firstCpu: first.cpu,
      warmCpu: Math.min(...warm.map((w) => w.cpu)),
    };
  } finally {
    await server.stop();
  }
}

/** The first PDF asked for the moment ping answers (login first: the admin exists by then). */
async function atOnce(appsDir, warmup, keep) {
  const server = await startServe(appsDir, warmup, keep);
  try {
    const headers = await login(server.url);
    const first = await timed(server, benchReportPath(ROWS, 'pdf'), headers, 'application/pdf');
    return { readyMs: server.readyMs, first: first.ms };
  } finally {
    await server.stop();
  }
}

export async function run({ options, log }) {
  const appsDir = await mkdtemp(join(tmpdir(), 'pc-cold-apps-'));
  await writeBenchApp(appsDir, { defaultCount: ROWS });
  const modes = { warmup: true, 'no-warmup': false };
  const results = Object.fromEntries(Object.keys(modes).map((m) => [m, { settled: [], atOnce: [] }]));
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const [mode, warmup] of Object.entries(modes)) {
        const s = await oneStart(appsDir, warmup, options.keep);
        const a = await atOnce(appsDir, warmup, options.keep);
        results[mode].settled.push(s);
        results[mode].atOnce.push(a);
        log(
          `round ${round + 1} ${mode.padEnd(9)}: ready ${s.readyMs.toFixed(0)} / ${a.readyMs.toFixed(0)} ms; ` +
            `first PDF ${s.first.toFixed(0)} ms, warm ${s.warm.toFixed(0)} ms (×${(s.first / s.warm).toFixed(2)}); ` +
            `CPU ${s.firstCpu.toFixed(0)} vs ${s.warmCpu.toFixed(0)} ms (×${(s.firstCpu / s.warmCpu).toFixed(2)}); ` +
            `at once ${a.first.toFixed(0)} ms`,
        );
      }
    }
  } finally {
    await rm(appsDir, { recursive: true, force: true });
  }
  const headlines = [];
  for (const [mode, { settled, atOnce: once }] of Object.entries(results)) {
    const ready = median([...settled, ...once].map((r) => r.readyMs));
    const first = median(settled.map((r) => r.first));
    const warm = median(settled.map((r) => r.warm));
    const ratio = median(settled.map((r) => r.first / r.warm));
    const cpuRatio = median(settled.map((r) => r.firstCpu / r.warmCpu));
    headlines.push(
      `cold-start ${mode.padEnd(9)}: npm start → ping 200 ${ready.toFixed(0)} ms; first ${ROWS}-row PDF ` +
        `${first.toFixed(0)} ms vs warm ${warm.toFixed(0)} ms = ×${ratio.toFixed(2)}, server CPU ` +
        `×${cpuRatio.toFixed(2)} (aim ≤ 2); requested at once ${median(once.map((r) => r.first)).toFixed(0)} ms ` +
        `(medians of ${settled.length})`,
    );
  }
  for (const h of headlines) log(h);
  return { failures: [], headlines };
}
