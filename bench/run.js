#!/usr/bin/env node
// Benchmark runner: `npm run bench [-- name… options]`, i.e. `node --expose-gc bench/run.js`.
//
//   node bench/run.js                 run every registered benchmark
//   node bench/run.js http-auth       run the named ones
//   node bench/run.js --list          list them
//
// Options (shared by all benchmarks; each uses what applies to it):
//   --duration=S      seconds per measured run (default 5)
//   --rounds=N        alternating rounds (default 3; http-auth 5)
//   --warmup=S        seconds of warm-up per target before the rounds (default 3, http-auth 5; 0 = none)
//   --connections=N   autocannon connections (default 50)
//   --targets=a,b     http-auth: which targets (bare,token,jwt[,anon]; default bare,token,jwt);
//                     report-matrix: which formats (pdf,html; default both)
//   --prof            after the measured rounds, one more (uncounted) run per target with the V8
//                     CPU profiler on in the server; prints where the time went, per request
//   --prof-dir=DIR    where the .cpuprofile files go (default: a new temp directory); open them
//                     in Chrome DevTools or speedscope for the call trees
//   --keep            keep temp directories (DATA_DIR with the server log, …)
//   --no-pin          http-auth: do not pin the servers and the load generator to separate CPUs
//                     (pinned by default where taskset and two cores exist; see lib/affinity.js)
//
// Benchmarks measure ratios against a baseline on the same machine in the same run; they never
// fail on a slow figure. The exit code is 0 when every benchmark ran without errors (for the
// HTTP ones: every response a 200 with the expected body), 1 when one reported failures, 2 on
// a usage error or a crash.
//
// Adding a benchmark: a module in bench/ exporting `description` (one line), optionally
// `defaults` (its own defaults for the options above, under what the command line says) and
// `async run({ options, log })` returning `{ failures: string[], headlines?: string[] }`
// (headlines: its key figures, printed again as the last lines of the run), registered below. Server
// processes go in bench/servers/ (see servers/protocol.js), load generation stays in this
// process.
import { readdir, stat, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from './lib/cpuprofile.js';

const BENCHMARKS = {
  'http-auth': () => import('./http-auth.js'),
  login: () => import('./login.js'),
  uuid: () => import('./uuid.js'),
  preview: () => import('./preview.js'),
  'preview-load': () => import('./preview-load.js'),
  'report-engine': () => import('./report-engine.js'),
  'report-matrix': () => import('./report-matrix.js'),
  'report-script': () => import('./report-script.js'),
  'srs-render-load': () => import('./srs-render-load.js'),
  'pdf-export': () => import('./pdf-export.js'),
  'account-list': () => import('./account-list.js'),
  'cold-start': () => import('./cold-start.js'),
  install: () => import('./install.js'),
  'first-font': () => import('./first-font.js'),
};

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function usage(msg) {
  if (msg) console.error(`bench: ${msg}`);
  console.error(
    `usage: node bench/run.js [${Object.keys(BENCHMARKS).join('|')}]… [--duration=S] [--rounds=N] ` +
      `[--warmup=S] [--connections=N] [--targets=a,b] [--prof] [--prof-dir=DIR] [--keep] [--no-pin] [--list]`,
  );
  process.exit(2);
}

const DEFAULTS = {
  duration: 5,
  rounds: 3,
  warmup: 3,
  connections: 50,
  prof: false,
  profDir: null,
  keep: false,
  targets: null,
  pin: true,
};

/** `options`: only what the command line set, which wins over DEFAULTS and a benchmark's own defaults. */
function parseArgs(argv) {
  const options = {};
  const names = [];
  let list = false;
  const positive = (k, v, min) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) usage(`--${k} must be a number ≥ ${min}`);
    return n;
  };
  for (const arg of argv) {
    if (!arg.startsWith('--')) {
      if (!BENCHMARKS[arg]) usage(`unknown benchmark "${arg}" (known: ${Object.keys(BENCHMARKS).join(', ')})`);
      names.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const key = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const value = eq < 0 ? undefined : arg.slice(eq + 1);
    switch (key) {
      case 'duration':
        options.duration = positive(key, value, 1);
        break;
      case 'rounds':
        options.rounds = Math.round(positive(key, value, 1));
        break;
      case 'warmup':
        options.warmup = positive(key, value, 0);
        break;
      case 'connections':
        options.connections = Math.round(positive(key, value, 1));
        break;
      case 'targets':
        options.targets = (value ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case 'prof':
        options.prof = true;
        break;
      case 'prof-dir':
        options.profDir = value;
        break;
      case 'keep':
        options.keep = true;
        break;
      case 'no-pin':
        options.pin = false;
        break;
      case 'list':
        list = true;
        break;
      case 'help':
        usage();
        break;
      default:
        usage(`unknown option ${arg}`);
    }
  }
  return { names: names.length ? names : Object.keys(BENCHMARKS), options, list };
}

/** Benchmarks run the compiled dist/: warn when a source file is newer than its output. */
async function staleDist() {
  const stale = [];
  const walk = async (dir) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) {
        const out = join(ROOT, 'dist', relative(join(ROOT, 'src'), p)).replace(/\.ts$/, '.js');
        const [src, js] = await Promise.all([stat(p), stat(out).catch(() => null)]);
        if (!js || js.mtimeMs < src.mtimeMs) stale.push(relative(ROOT, p));
      }
    }
  };
  await walk(join(ROOT, 'src'));
  return stale;
}

async function main() {
  const { names, options: given, list } = parseArgs(process.argv.slice(2));
  if (list) {
    for (const [name, load] of Object.entries(BENCHMARKS))
      console.log(`${name.padEnd(16)} ${(await load()).description}`);
    return 0;
  }
  const stale = await staleDist();
  if (stale.length) {
    console.warn(
      `bench: dist/ is older than ${stale.length} source file(s) ` +
        `(${stale.slice(0, 3).join(', ')}${stale.length > 3 ? ', …' : ''}); run \`npm run bench\` (it builds ` +
        `first) or \`npm run build\``,
    );
  }
  if (given.prof) given.profDir ??= await mkdtemp(join(tmpdir(), 'platform-core-bench-prof-'));
  const optionsFor = (mod) => ({ ...DEFAULTS, ...mod.defaults, ...given });

  console.log(`node ${process.version}, ${process.platform}/${process.arch}; benchmarks: ${names.join(', ')}`);
  const summary = [];
  /** Profiles the benchmarks wrote: { file, label, requests? } (see --prof). */
  const profiles = [];
  for (const name of names) {
    console.log(`\n=== ${name} ===`);
    const started = Date.now();
    let failures;
    let headlines = [];
    try {
      const mod = await BENCHMARKS[name]();
      ({ failures, headlines = [] } = await mod.run({
        options: optionsFor(mod),
        log: (...a) => console.log(...a),
        profiles,
      }));
    } catch (err) {
      failures = [`crashed: ${err?.stack ?? err}`];
    }
    summary.push({ name, failures, headlines, seconds: (Date.now() - started) / 1000 });
  }

  if (given.prof) {
    console.log(`\n=== CPU profiles (${given.profDir}) ===`);
    for (const p of profiles) console.log(`\n--- ${p.label}\n${await summarize(p.file, { requests: p.requests })}`);
    if (!profiles.length) console.log('(none written)');
  }

  console.log('\n=== summary ===');
  for (const s of summary) {
    console.log(`${s.name}: ${s.failures.length ? 'FAILED' : 'ok'} (${s.seconds.toFixed(0)} s)`);
    for (const f of s.failures.slice(0, 20)) console.log(`  - ${f}`);
    if (s.failures.length > 20) console.log(`  … and ${s.failures.length - 20} more`);
  }
  // The key figures last, one per line (e.g. `ratio ping(Token)/bare = 0.83`), for people and scripts.
  const headlines = summary.flatMap((s) => s.headlines);
  if (headlines.length) console.log('');
  for (const h of headlines) console.log(h);
  return summary.some((s) => s.failures.length) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
