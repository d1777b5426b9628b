#!/usr/bin/env node
// Builds the better-sqlite3 addon that this Node loads, and only that one (`npm run sqlite-addon`;
// `npm ci` and `npm rebuild` run it as the root package's postinstall script).
//
// Two versions are installed (src/db/sqlite-file.ts loadSqlite picks one): better-sqlite3 12 on
// Node 20 (13 needs Node 22+) and 13, aliased better-sqlite3-napi, on Node 22+ (12 crashes on
// Node 24.19+). Their own install scripts are denied in package.json "allowScripts": each would
// run on every Node, and 12's compiles SQLite from source where no prebuilt binary can be
// downloaded (about a minute of two cores, wasted on Node 22+). Here the one this Node needs is
// built when it does not load yet, with the command its own install script has: so the same
// prebuilt download or source build as before, once. Switching Node versions later: run this
// again (the server's error names it).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

/** Whether `pkg` opens a database in a fresh Node (a fresh process: a failed require is cached). */
function loads() {
  const probe = `new (require(${JSON.stringify(pkg)}))(':memory:').prepare('select 1').get()`;
  return spawnSync(process.execPath, ['-e', probe], { cwd: ROOT, stdio: 'ignore' }).status === 0;
}

if (!existsSync(dir)) {
  // `npm ci --omit=dev` in a copy without it, or a broken install: nothing to build here.
  console.error(`sqlite-addon: ${dir} is missing; run npm ci first`);
  process.exit(1);
}
if (loads()) {
  console.log(`sqlite-addon: ${pkg} loads on Node ${process.version}; nothing to build`);
  process.exit(0);
}
console.log(`sqlite-addon: building ${pkg} for Node ${process.version} (npm run ${script})`);
// npm runs this script with npm_execpath set to its own CLI; run by hand, `npm` from PATH.
const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
const built = spawnSync(npm[0], [...npm[1], 'run', script], { cwd: dir, stdio: 'inherit' });
if (built.status !== 0 || !loads()) {
  console.error(`sqlite-addon: ${pkg} still does not load on Node ${process.version} (see the build output above)`);
  process.exit(1);
}
console.log(`sqlite-addon: ${pkg} built`);
