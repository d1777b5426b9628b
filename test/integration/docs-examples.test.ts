// The documentation's CLI examples work as written: every `npx platform-core …` line of the ```sh
// blocks of the pages below runs, in their order, from a folder laid out like a fresh clone (the
// repository's examples/ beside a new data/), and exits 0. The lines are read from the pages, so
// they cannot drift from them.
// `npx platform-core` becomes `node bin/platform-core.js` (what npx runs in the repository, without
// npx's own start-up); `serve` is stopped with SIGTERM once it listens and must then exit 0.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, CLI_TIMEOUT_MS, cliEnv, killChildren, REPO_ROOT, startServe } from '../support/cli-child.js';

const NPX_CLI = 'npx platform-core ';

/** The pages whose examples run, in this order: the later ones use what the earlier ones made
 *  (the database, the user alice). */
const PAGES = ['docs/getting-started.md', 'docs/identity.md', 'docs/reports.md'];

/** The CLI lines of the pages' ```sh blocks, comments kept (bash ignores them). */
function documentedCliExamples(): string[] {
  const examples: string[] = [];
  for (const page of PAGES) {
    const text = readFileSync(join(REPO_ROOT, page), 'utf8');
    for (const block of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
      for (const line of (block[1] ?? '').split('\n')) if (line.includes(NPX_CLI)) examples.push(line);
    }
  }
  return examples;
}

function runInBash(line: string, cwd: string): Promise<{ code: number | null; output: string }> {
  const command = line.replaceAll(NPX_CLI, `node ${JSON.stringify(BIN)} `);
  return new Promise((resolveRun) => {
    const child = spawn('bash', ['-eo', 'pipefail', '-c', command], { cwd, env: cliEnv({}) });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), CLI_TIMEOUT_MS);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, output });
    });
  });
}

const examples = documentedCliExamples();
const cwd = mkdtempSync(join(tmpdir(), 'docs-examples-'));
symlinkSync(join(REPO_ROOT, 'examples'), join(cwd, 'examples'));

afterAll(() => {
  killChildren();
  rmSync(cwd, { recursive: true, force: true });
});

describe('the CLI examples of the documentation', () => {
  it('are there to run, and name only sample files the repository has', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
    for (const line of examples) {
      for (const path of line.match(/\bexamples\/[\w./-]+/g) ?? [])
        expect(existsSync(join(REPO_ROOT, path))).toBe(true);
    }
  });

  // In the pages' order: the later lines use what the earlier ones made.
  it.each(examples.map((line, i) => [i + 1, line] as const))('%i. %s', async (_, line) => {
    const command = line.slice(line.indexOf(NPX_CLI) + NPX_CLI.length).replace(/\s+#.*$/, '');
    if (command.trim() === 'serve') {
      const server = await startServe({ env: {}, cwd, startTimeoutMs: CLI_TIMEOUT_MS });
      server.child.kill('SIGTERM');
      const exit = await server.exited;
      expect(exit, exit.stderr).toMatchObject({ code: 0 });
      return;
    }
    const run = await runInBash(line, cwd);
    expect(run.code, run.output).toBe(0);
  });
});
