// The repository stands on its own: a fresh clone of the committed HEAD, in a temporary folder with
// nothing beside it (no shared folder, no FastReport checkout, none of their variables set), loads
// every test file, and runs the tests that use FastReport's demos and prepared reports with none
// skipped. node_modules is linked from this checkout (an install would take minutes). Only in a git
// work tree (CI's is a clone); elsewhere it says so and is skipped.

import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO_ROOT = realpathSync(fileURLToPath(new URL('../../', import.meta.url)));

/** This checkout's top level when it is a git work tree (else undefined). */
function gitTopLevel(): string | undefined {
  try {
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    return realpathSync(top) === REPO_ROOT ? top : undefined;
  } catch {
    return undefined;
  }
}
const IN_GIT = gitTopLevel() !== undefined;
if (!IN_GIT) console.warn('standalone-clone.test.ts: skipped, this checkout is not a git work tree');

/** Test files that read FastReport's demos, reference output and prepared reports, each of the
 *  ways they do. Left out for CI time, reading the same folder: the demo census (two minutes),
 *  the Stress-Test at full size (needs the build), the PDF renders of single demos. */
const DEMO_TESTS = [
  'test/report/engine/fpx.test.ts',
  'test/report/engine/fastreport-reference.test.ts',
  'test/report/engine/demos.test.ts',
  'test/report/engine/adv-matrix-demos.test.ts',
  'test/report/engine/maps.test.ts',
  'test/report/frx/inherit.test.ts',
  'test/report/export/barcode-patterns.test.ts',
];
/** Fewer tests than this in those files means some were not run. */
const DEMO_TEST_FLOOR = 200;
/** Fewer tests than this in the whole suite means collection lost files. */
const SUITE_FLOOR = 2000;

/** The environment of a child run: this one's (the REQUIRE_* settings pass through) without
 *  vitest's own variables and without anything pointing outside the clone. */
function childEnv(tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { TMPDIR: tmp };
  for (const [k, v] of Object.entries(process.env)) {
    if (
      /^VITEST/.test(k) ||
      k === 'TMPDIR' ||
      k === 'SHARED_DIR' ||
      k === 'FASTREPORT_REPO' ||
      k === 'FASTREPORT_FIXTURES_DIR'
    )
      continue;
    env[k] = v;
  }
  // The run's PostgreSQL server when there is one; collecting needs none, and no demo test uses
  // it, so a placeholder keeps the child from starting a cluster of its own.
  env.PG_TEST_URL = process.env.PG_TEST_URL || 'postgres://unused@127.0.0.1:1/unused';
  return env;
}

/** Runs vitest in `cwd` with a temp folder of its own (`tmp`). */
function vitest(cwd: string, tmp: string, args: string[]): Promise<{ code: number; output: string }> {
  const bin = join(cwd, 'node_modules', 'vitest', 'vitest.mjs');
  mkdirSync(tmp, { recursive: true });
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd, env: childEnv(tmp), maxBuffer: 64 * 1024 * 1024, timeout: 540_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

/** Left out of the listing: it mounts a tmpfs when it is loaded and unmounts it in
 *  afterAll, which `vitest list` never runs. */
const NOT_LISTED = 'test/integration/storage-full.test.ts';

/** Tests collected per file (paths relative to `root`), by `vitest list`. */
async function collected(root: string, out: string, tmp: string): Promise<Map<string, number>> {
  // One process for every file (no isolation): a tenth of the time, and a file that fails to
  // load fails the same way.
  const r = await vitest(root, tmp, ['list', `--json=${out}`, '--exclude', NOT_LISTED, '--no-isolate']);
  expect(r.code, r.output.slice(-4000)).toBe(0);
  const counts = new Map<string, number>();
  for (const t of JSON.parse(readFileSync(out, 'utf8')) as { file: string }[]) {
    const file = relative(root, t.file);
    counts.set(file, (counts.get(file) ?? 0) + 1);
  }
  return counts;
}

interface Assertion {
  fullName: string;
  status: string;
  failureMessages: string[];
}

describe.runIf(IN_GIT)('a fresh clone of the repository', () => {
  let dir = '';
  let clone = '';

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'standalone-clone-'));
    // Tests run the CLI as the user nobody, who must reach the clone as it reaches this checkout
    // (the temp folders are made 0700).
    chmodSync(dirname(dir), 0o755);
    chmodSync(dir, 0o755);
    clone = join(dir, 'platform-core');
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    execFileSync('git', ['clone', '-q', '--no-local', '--no-checkout', REPO_ROOT, clone]);
    execFileSync('git', ['-C', clone, 'checkout', '-q', '--detach', head]);
    symlinkSync(realpathSync(join(REPO_ROOT, 'node_modules')), join(clone, 'node_modules'));
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has nothing beside it and its demo fixtures inside', () => {
    expect(existsSync(join(dir, 'shared'))).toBe(false);
    expect(existsSync(join(clone, 'test/fixtures/fastreport/Reports/nwind.xml'))).toBe(true);
    expect(existsSync(join(clone, 'test/fixtures/fastreport-reference/results.tsv'))).toBe(true);
  });

  it('loads every test file, and collects tests from each', async () => {
    // `vitest list` exits non-zero when a file fails to load (a missing fixture, an import of a
    // file outside the clone); every committed test file must be listed.
    const listed = await collected(clone, join(dir, 'clone-list.json'), join(dir, 'tmp-clone-list'));
    const committedTestFiles = execFileSync('git', ['ls-files', 'test'], { cwd: clone, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.test.ts') && f !== NOT_LISTED);
    expect([...listed.keys()].sort()).toEqual(committedTestFiles.sort());
    expect([...listed.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(SUITE_FLOOR);
  }, 600_000);

  it('runs the FastReport demo and comparison tests with none skipped', async () => {
    const out = join(dir, 'demo-run.json');
    const r = await vitest(clone, join(dir, 'tmp-demo-run'), [
      'run',
      ...DEMO_TESTS,
      '--reporter=json',
      `--outputFile=${out}`,
    ]);
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      numTotalTests: number;
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
      testResults: { name: string; status: string; message: string; assertionResults: Assertion[] }[];
    };
    const failures = report.testResults.flatMap((f) => [
      ...(f.message ? [`${relative(clone, f.name)}: ${f.message}`] : []),
      ...f.assertionResults
        .filter((a) => a.status !== 'passed')
        .map((a) => `${a.fullName}: ${a.status} ${a.failureMessages.join('\n').slice(0, 2000)}`),
    ]);
    expect(failures).toEqual([]);
    expect(r.code, r.output.slice(-4000)).toBe(0);
    const files = report.testResults.map((f) => `${relative(clone, f.name)}: ${f.status}`).sort();
    expect(files).toEqual(DEMO_TESTS.map((f) => `${f}: passed`).sort());
    expect([report.numFailedTests, report.numPendingTests, report.numTodoTests]).toEqual([0, 0, 0]);
    expect(report.numPassedTests).toBe(report.numTotalTests);
    expect(report.numPassedTests).toBeGreaterThan(DEMO_TEST_FLOOR);
  }, 600_000);
});
