// The compiled `platform-core` command in a child process (`node bin/platform-core.js …`, so
// dist/ must be built), as an operator runs it: to completion, or `serve` kept running.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(REPO_ROOT, 'bin', 'platform-core.js');

/**
 * This process's environment minus everything that configures an instance (so a developer's
 * own DATABASE_URL or Settings__* cannot leak into a test), plus `extra` (undefined values left out).
 */
export function cliEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(settings__.*|database_url|data_dir|port|host|apps_dir|config_file|log_level|platform_admin_.*)$/i.test(k))
      continue;
    env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** Children still running: `killChildren` in afterAll, so a failed test never leaves one behind. */
const children = new Set<ChildProcess>();

export function killChildren(): void {
  for (const child of children) child.kill('SIGKILL');
}

export interface CliResult {
  /** null when the process was ended by a signal (the timeout's SIGKILL). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** For failure messages: everything the command said. */
export const said = (r: CliResult): string =>
  `exit ${r.code ?? r.signal} after ${r.ms} ms\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;

export const CLI_TIMEOUT_MS = 30_000;

export interface CliOptions {
  env: Record<string, string | undefined>;
  /** Default: the data dir, so no appsettings.json of the repository or the developer is read. */
  cwd?: string;
  uid?: number;
  gid?: number;
}

export function spawnCli(args: string[], opts: CliOptions): ChildProcess {
  const cwd = opts.cwd ?? opts.env.DATA_DIR ?? REPO_ROOT;
  const spawnOptions: SpawnOptions = { cwd, env: cliEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'] };
  if (opts.uid !== undefined) Object.assign(spawnOptions, { uid: opts.uid, gid: opts.gid ?? opts.uid });
  const child = spawn(process.execPath, [BIN, ...args], spawnOptions);
  children.add(child);
  child.once('close', () => children.delete(child));
  child.stdin!.on('error', () => undefined); // EPIPE when the command exits without reading
  return child;
}

/**
 * Runs `platform-core <args>` to completion. stdin gets `input` and is then closed (a command
 * waiting for stdin would otherwise hang the test); killed after `timeoutMs` (default 30 s).
 */
export function runCli(args: string[], opts: CliOptions & { input?: string; timeoutMs?: number }): Promise<CliResult> {
  const started = Date.now();
  return new Promise((resolveRun, reject) => {
    const child = spawnCli(args, opts);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdin!.end(opts.input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? CLI_TIMEOUT_MS);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

export interface ServeProcess {
  child: ChildProcess;
  /** A URL that reaches the server, from the "platform-core listening on" log line. */
  url: string;
  /** The JSON log lines written to stdout so far. */
  logLines(): Array<Record<string, unknown>>;
  /** Resolves with how the process ended and when (Date.now()). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number; stderr: string }>;
  /** Resolves with the first log line whose msg matches. */
  logged(msg: RegExp): Promise<Record<string, unknown>>;
}

/** Starts `platform-core serve` and waits until it listens (at most `startTimeoutMs`). */
export async function startServe(opts: {
  env: Record<string, string | undefined>;
  cwd?: string;
  startTimeoutMs: number;
}): Promise<ServeProcess> {
  const child = spawnCli(['serve'], { env: { PORT: '0', HOST: '127.0.0.1', ...opts.env }, cwd: opts.cwd });
  child.stdin!.end();
  const lines: Array<Record<string, unknown>> = [];
  const waiting: Array<{ msg: RegExp; resolve: (line: Record<string, unknown>) => void }> = [];
  let pending = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  child.stdout!.setEncoding('utf8').on('data', (s: string) => {
    pending += s;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const text = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        line = { msg: text };
      }
      lines.push(line);
      for (const w of [...waiting]) {
        if (w.msg.test(String(line.msg))) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number; stderr: string }>(
    (resolveExit) => child.once('close', (code, signal) => resolveExit({ code, signal, at: Date.now(), stderr })),
  );
  const logged = (msg: RegExp): Promise<Record<string, unknown>> => {
    const seen = lines.find((l) => msg.test(String(l.msg)));
    return seen ? Promise.resolve(seen) : new Promise((resolveLine) => waiting.push({ msg, resolve: resolveLine }));
  };
  let timer: NodeJS.Timeout | undefined;
  const listening = await Promise.race([
    logged(/^platform-core listening on /),
    exited.then((e) =>
      Promise.reject(new Error(`serve ended before listening (exit ${e.code ?? e.signal}): ${e.stderr}`)),
    ),
    new Promise<never>(
      (_, reject) =>
        (timer = setTimeout(() => reject(new Error('serve did not start listening in time')), opts.startTimeoutMs)),
    ),
  ]).finally(() => clearTimeout(timer));
  return { child, url: String(listening.url), logLines: () => [...lines], exited, logged };
}

export function expectSuccess(r: CliResult): void {
  expect(r.code, said(r)).toBe(0);
}

/** Exited by itself with `message` on stderr (and `code` when given), as one message, not a crash. */
export function expectFailure(r: CliResult, message: RegExp, code?: number): void {
  expect(r.signal, said(r)).toBeNull(); // exited by itself, not killed by the timeout
  if (code === undefined) expect(r.code, said(r)).not.toBe(0);
  else expect(r.code, said(r)).toBe(code);
  expect(r.stderr, said(r)).toMatch(message);
  expect(r.stderr, said(r)).not.toMatch(/\n\s+at /);
}
