// Running `platform-core render` for real: `node bin/platform-core.js render …` on the compiled
// dist/ (built first when it is missing or older than the sources).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const BIN = join(REPO_ROOT, 'bin', 'platform-core.js');

function newestMtime(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Builds dist/ when the render command is missing or any source is newer than it. */
export function ensureBuilt(): void {
  const entry = join(REPO_ROOT, 'dist', 'cli', 'render-command.js');
  if (existsSync(entry) && statSync(entry).mtimeMs >= newestMtime(join(REPO_ROOT, 'src'))) return;
  const build = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args` (60 s at most), in the repository (or `opts.cwd`) with this
 *  process's environment (or `opts.env`). */
export function runCli(
  args: string[],
  timeoutMs = 60_000,
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? REPO_ROOT,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** The text of the HTML's lines and runs, in document order, entities decoded. */
export function htmlTexts(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<(div|span) class="[lr]"[^>]*>([^<]*)<\/\1>/g)) {
    out.push(
      (m[2] as string)
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&'),
    );
  }
  return out;
}
