#!/usr/bin/env node
// Builds the better-sqlite3 addons that this Node loads, and only those (`npm run sqlite-addon`;
// `npm ci` and `npm rebuild` run it as the root package's postinstall script):
//
// - the platform's addon: better-sqlite3 as published (prebuilt where it ships one);
// - the sealed addon for app SQL: the same sources compiled with SQLITE_MAX_ATTACHED=0, so that
//   SQLite itself refuses ATTACH (and VACUUM, which attaches): report SQL and seeds, which run on
//   it, cannot open any database file but the apps' one (src/db/sqlite-file.ts openAppSqliteFile).
//
// Two versions are installed (src/db/sqlite-file.ts loadSqlite picks one): better-sqlite3 12 on
// Node 20 (13 needs Node 22+) and 13, aliased better-sqlite3-napi, on Node 22+ (12 crashes on
// Node 24.19+). Their own install scripts are denied in package.json "allowScripts": each would
// run on every Node, and 12's compiles SQLite from source where no prebuilt binary can be
// downloaded (about a minute of two cores, wasted on Node 22+). Here the one this Node needs is
// built when it does not load yet, with the command its own install script has. The two builds
// run side by side (each compiles SQLite on one core). Switching Node versions later: run this
// again (the server's error names it).
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const major = Number(process.versions.node.split('.')[0]);
// Same choice as src/db/sqlite-file.ts loadSqlite (which this plain script cannot import).
const pkg = major >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';
// 12's install script tries a prebuilt download before compiling; 13 has no install script (npm
// would run `node-gyp rebuild`, which does nothing where its tarball has a prebuilt binary) but
// a build-release script that compiles.
const script = pkg === 'better-sqlite3' ? 'install' : 'build-release';
const dir = join(ROOT, 'node_modules', pkg);

/** The compile-time limit that seals the app SQL addon. */
const SEAL_DEFINE = 'SQLITE_MAX_ATTACHED=0';

/** Whether `probe` (JavaScript, given `SQLite` and `sealed`) runs in a fresh Node without error. */
function probeOk(probe) {
  const code =
    `const SQLite = require(${JSON.stringify(pkg)});\n` + `const sealed = ${JSON.stringify(sealedFile())};\n${probe}`;
  return spawnSync(process.execPath, ['-e', code], { cwd: ROOT, stdio: 'ignore' }).status === 0;
}

/** Whether `pkg` opens a database in a fresh Node (a fresh process: a failed require is cached). */
const loads = () => probeOk(`new SQLite(':memory:').prepare('select 1').get()`);

/** Whether the sealed addon loads and refuses ATTACH. */
const sealedLoads = () =>
  probeOk(`const db = new SQLite(':memory:', { nativeBinding: sealed });
let attached = true;
try { db.exec("ATTACH ':memory:' AS probe"); } catch (e) { attached = !/too many attached/.test(e.message); }
if (attached) process.exit(1);`);

/**
 * Where the sealed addon goes; src/db/sqlite-file.ts sealedAddonFile names the same file. Inside
 * node_modules so that `npm ci` starts it afresh; named by package, version and Node ABI so that
 * another Node or another better-sqlite3 never loads a build that is not its own.
 */
function sealedFile() {
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const abi = process.versions.modules;
  return join(
    ROOT,
    'node_modules',
    '.app-sqlite',
    `${pkg}-${version}-${process.platform}-${process.arch}-abi${abi}.node`,
  );
}

/** `npm run <name>` in `cwd`, as a promise of its success. */
function npmRun(name, cwd) {
  // npm runs this script with npm_execpath set to its own CLI; run by hand, `npm` from PATH.
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  return new Promise((resolve) => {
    const child = spawn(npm[0], [...npm[1], 'run', name], { cwd, stdio: 'inherit' });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

async function buildPlatformAddon() {
  if (loads()) {
    console.log(`sqlite-addon: ${pkg} loads on Node ${process.version}; nothing to build`);
    return true;
  }
  console.log(`sqlite-addon: building ${pkg} for Node ${process.version} (npm run ${script})`);
  if (!(await npmRun(script, dir)) || !loads()) {
    console.error(`sqlite-addon: ${pkg} still does not load on Node ${process.version} (see the build output above)`);
    return false;
  }
  console.log(`sqlite-addon: ${pkg} built`);
  return true;
}

/** A copy of the package's sources with the seal added to SQLite's compile-time options. */
function sealedSources(work) {
  const src = join(work, 'src');
  cpSync(dir, src, { recursive: true, filter: (p) => !/[/\\](build|prebuilds|node_modules)$/.test(p) });
  const definesFile = join(src, 'deps', 'defines.gypi');
  const defines = readFileSync(definesFile, 'utf8');
  const sealed = defines.replace(/'defines':\s*\[/, (m) => `${m}\n    '${SEAL_DEFINE}',`);
  if (sealed === defines) throw new Error(`${definesFile} has no 'defines' list to add ${SEAL_DEFINE} to`);
  writeFileSync(definesFile, sealed);
  return src;
}

async function buildSealedAddon() {
  const target = sealedFile();
  if (sealedLoads()) {
    console.log('sqlite-addon: the sealed addon for app SQL loads; nothing to build');
    return true;
  }
  console.log(`sqlite-addon: building the sealed addon for app SQL (${pkg} with ${SEAL_DEFINE})`);
  mkdirSync(join(target, '..'), { recursive: true });
  const work = mkdtempSync(join(target, '..', 'build-'));
  try {
    const src = sealedSources(work);
    // 12's build-release compiles (its install script would first fetch the published binary).
    if (!(await npmRun('build-release', src))) throw new Error('the build failed (see its output above)');
    const built = join(src, 'build', 'Release', 'better_sqlite3.node');
    copyFileSync(built, `${target}.tmp`);
    renameSync(`${target}.tmp`, target);
  } catch (err) {
    console.error(`sqlite-addon: cannot build the sealed addon: ${err.message}`);
    return false;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!sealedLoads()) {
    console.error('sqlite-addon: the sealed addon was built but does not load or does not refuse ATTACH');
    return false;
  }
  console.log(`sqlite-addon: sealed addon built: ${target}`);
  return true;
}

if (!existsSync(dir)) {
  // `npm ci --omit=dev` in a copy without it, or a broken install: nothing to build here.
  console.error(`sqlite-addon: ${dir} is missing; run npm ci first`);
  process.exit(1);
}
const results = await Promise.all([buildPlatformAddon(), buildSealedAddon()]);
if (results.includes(false)) process.exit(1);
