// The `platform-core` command's usage, run for real (`node bin/platform-core.js …` on the compiled
// dist/): help, version, usage errors, and a bad setting stopping `serve` before it creates anything.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess, killChildren, REPO_ROOT, runCli, said } from '../support/cli-child.js';

const HELP_HEADLINE = 'platform-core <command>';

beforeAll(() => {
  // bin/platform-core.js runs the compiled CLI; `npm test` builds first, a direct vitest run
  // may not have.
  if (!existsSync(join(REPO_ROOT, 'dist', 'cli', 'main.js'))) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  }
}, 180_000);

afterAll(killChildren);

describe('platform-core CLI: usage', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'platform-core-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('--help and help print the help text and exit 0', async () => {
    for (const args of [['--help'], ['help'], ['user', 'add', '--help']]) {
      const r = await runCli(args, { env: { DATA_DIR: dataDir } });
      expectSuccess(r);
      expect(r.stdout, said(r)).toContain(HELP_HEADLINE);
      expect(r.stdout, said(r)).toContain('token create');
    }
  });

  it('--version, -v and version print the package version and exit 0; --help lists them', async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const args of [['--version'], ['-v'], ['version']]) {
      const r = await runCli(args, { env: { DATA_DIR: dataDir } });
      expectSuccess(r);
      expect(r.stdout, said(r)).toBe(`platform-core ${version}\n`);
      expect(r.stderr, said(r)).toBe('');
    }
    const help = await runCli(['--help'], { env: { DATA_DIR: dataDir } });
    expect(help.stdout, said(help)).toMatch(/^ {2}version, --version, -v {2,}/m);
  });

  it('an unknown command exits 2 with the help text', async () => {
    const r = await runCli(['frobnicate', 'now'], { env: { DATA_DIR: dataDir } });
    expectFailure(r, /unknown command: frobnicate now/, 2);
    expect(r.stderr).toContain(HELP_HEADLINE);
    expect(r.stdout).toBe('');
  });

  it('no command at all exits 2 with the help text', async () => {
    const r = await runCli([], { env: { DATA_DIR: dataDir } });
    expect(r.code, said(r)).toBe(2);
    expect(r.stdout + r.stderr).toContain(HELP_HEADLINE);
  });

  it('an unknown subcommand exits 2', async () => {
    const r = await runCli(['user', 'delete', 'alice'], { env: { DATA_DIR: dataDir } });
    expectFailure(r, /unknown command: user delete alice/, 2);
  });

  it('an option without its value exits 2', async () => {
    const r = await runCli(['token', 'create', 'ci', '--user'], { env: { DATA_DIR: dataDir } });
    expectFailure(r, /--user needs a value/, 2);
  });

  // A bad setting must stop `serve` at once with a message naming it, before anything is
  // created in the data directory.
  it.each([
    ['Settings__JwtExpireHours', 'abc', /Settings:JwtExpireHours/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL/],
    ['PORT', '70000', /PORT/],
    ['Settings__AuthCacheSeconds', '61', /Settings:AuthCacheSeconds/],
  ])('serve with %s=%s exits non-zero naming the setting', async (name, value, message) => {
    const dir = await mkdtemp(join(tmpdir(), 'platform-core-cli-badcfg-'));
    try {
      const r = await runCli(['serve'], {
        env: { DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', [name]: value },
        timeoutMs: 15_000,
      });
      expectFailure(r, message);
      expect(r.ms).toBeLessThan(15_000);
      expect(readdirSync(dir), 'nothing may be created with a bad configuration').toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
