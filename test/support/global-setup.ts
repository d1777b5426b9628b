// Vitest globalSetup: gives the test run a PostgreSQL server so that every database test runs
// against PostgreSQL as well as SQLite.
//
// Order of preference:
//   1. PG_TEST_URL set by the user: use that server as it is, start nothing.
//   2. PostgreSQL server binaries on this machine: start a throwaway cluster in a fresh temp
//      dir on a free loopback port, and remove it again at the end of the run.
//   3. Neither: say loudly that the PostgreSQL half is skipped; with REQUIRE_POSTGRES=1 (as CI
//      sets it) fail the run instead, so a machine without PostgreSQL can't pass CI silently.
//
// The URL reaches the test files through project.provide('pgUrl') / inject('pgUrl'): test files
// run in forked workers, and provide/inject is vitest's supported channel into them. It is also
// put in process.env.PG_TEST_URL for anything that runs in this process.

import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import {
  accessSync,
  appendFileSync,
  chownSync,
  constants,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL (database "postgres") of the test PostgreSQL server, or null when skipped. */
    pgUrl: string | null;
  }
}

const execFileAsync = promisify(execFile);

const SKIP_MESSAGE =
  'PostgreSQL tests SKIPPED: no PostgreSQL server binaries found (set REQUIRE_POSTGRES=1 to make this an error)';

export interface PgBinaries {
  initdb: string;
  pgCtl: string;
}

/** A cluster this setup started, so it can be stopped again. */
export interface Cluster {
  bins: PgBinaries;
  tempDir: string;
  dataDir: string;
  logFile: string;
  asPostgres: boolean;
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const userUrl = process.env.PG_TEST_URL?.trim();
  if (userUrl) {
    // The user's own server: we neither start nor stop anything, and leave the variable as it is.
    process.stdout.write(`PostgreSQL tests use PG_TEST_URL (${redact(userUrl)})\n`);
    project.provide('pgUrl', userUrl);
    return undefined;
  }

  const bins = findPgBinaries();
  if (!bins) {
    if (process.env.REQUIRE_POSTGRES === '1') {
      throw new Error(
        'PostgreSQL tests REQUIRED (REQUIRE_POSTGRES=1) but no PostgreSQL server binaries found: ' +
          'install the postgresql package, or set PG_TEST_URL to a server to use',
      );
    }
    const bar = '='.repeat(SKIP_MESSAGE.length);
    process.stderr.write(`\n${bar}\n${SKIP_MESSAGE}\n${bar}\n\n`);
    project.provide('pgUrl', null);
    return undefined;
  }

  // Binaries are present, so from here on a failure is a real problem and fails the run even
  // without REQUIRE_POSTGRES: silently skipping would hide it.
  const cluster = await createCluster(bins);
  // Safety nets, because pg_ctl detaches the server into a session of its own: it outlives
  // vitest, and a killed test run would leave it running and its files behind.
  // - An 'exit' listener covers vitest exiting without running the teardown (uncaught error,
  //   process.exit). It may only do synchronous work, hence the sync variant.
  // - A watchdog process covers what no listener sees: SIGKILL, or SIGTERM (Node exits on it
  //   without 'exit' events), e.g. from a timeout that kills the test command.
  const onExit = (): void => destroyClusterSync(cluster);
  process.once('exit', onExit);
  const watchdog = startWatchdog(cluster);

  let url: string;
  try {
    url = await startCluster(cluster);
  } catch (err) {
    process.removeListener('exit', onExit);
    watchdog.kill();
    destroyClusterSync(cluster);
    throw err;
  }

  process.stdout.write(`PostgreSQL tests use a throwaway cluster at ${url} (${bins.pgCtl})\n`);
  process.env.PG_TEST_URL = url;
  project.provide('pgUrl', url);

  return async () => {
    process.removeListener('exit', onExit);
    watchdog.kill();
    // We set it, so we unset it: in watch mode a later setup must not take our dead cluster's
    // URL for one the user gave.
    if (process.env.PG_TEST_URL === url) delete process.env.PG_TEST_URL;
    await destroyCluster(cluster);
  };
}

// ---------------------------------------------------------------------------------------------
// Finding the binaries

/**
 * Debian/Ubuntu keep the server binaries off PATH in /usr/lib/postgresql/<major>/bin (only the
 * client wrappers are on PATH), so look there first, newest major version first; then PATH
 * (other distributions, Homebrew, a self-built server).
 */
export function findPgBinaries(): PgBinaries | null {
  const candidates: string[] = [];
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    for (const v of versions) candidates.push(join(debianRoot, v, 'bin'));
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir) candidates.push(dir);

  for (const dir of candidates) {
    const initdb = join(dir, 'initdb');
    const pgCtl = join(dir, 'pg_ctl');
    // pg_ctl must come from the same installation as initdb: a cluster made by one major
    // version can't be started by another.
    if (isExecutable(initdb) && isExecutable(pgCtl)) return { initdb, pgCtl };
  }
  return null;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Creating, starting and removing the cluster

export async function createCluster(bins: PgBinaries): Promise<Cluster> {
  // PostgreSQL refuses to run as root (initdb and postgres both exit), so as root everything runs
  // as the `postgres` OS user, which the Debian package creates, and the temp dir is handed to it.
  const asPostgres = process.getuid?.() === 0;
  // /tmp rather than os.tmpdir() when root: TMPDIR may point into root's home, which the
  // postgres user can't enter.
  const tempDir = mkdtempSync(join(asPostgres ? '/tmp' : tmpdir(), 'pg-test-'));
  const cluster: Cluster = {
    bins,
    tempDir,
    dataDir: join(tempDir, 'data'),
    logFile: join(tempDir, 'postgres.log'),
    asPostgres,
  };

  try {
    if (asPostgres) {
      const { uid, gid } = postgresUser();
      chownSync(tempDir, uid, gid);
    }
    await runPg(cluster, bins.initdb, [
      '-D',
      cluster.dataDir,
      '-A',
      'trust', // loopback only, throwaway data: no passwords needed
      '-U',
      'postgres',
      '-E',
      'UTF8',
      // The C locale exists everywhere; a machine without generated locales makes initdb fail.
      '--locale=C',
      '--no-sync', // nothing here has to survive a crash
    ]);
  } catch (err) {
    rmSync(tempDir, { recursive: true, force: true });
    throw err;
  }
  return cluster;
}

/** Starts the server on a free port and returns the base URL once it answers queries. */
export async function startCluster(cluster: Cluster): Promise<string> {
  // Picking a free port and then binding it is racy (another process can take it in between);
  // a few attempts with fresh ports makes a clash very unlikely to fail the run.
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    // Appended settings override the earlier defaults in postgresql.conf; writing them to the
    // file avoids the shell quoting that `pg_ctl -o "..."` would need. Appending as root keeps
    // the file's owner (postgres).
    appendFileSync(
      join(cluster.dataDir, 'postgresql.conf'),
      [
        '',
        '# added by test/support/global-setup.ts',
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        // Keep the socket out of /var/run/postgresql (may not exist, or belong to a system
        // server) and inside the temp dir, which is removed afterwards.
        `unix_socket_directories = '${cluster.tempDir}'`,
        // Speed over durability: the cluster is thrown away after the run.
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        // Every test file gets its own database and pool; leave room for that.
        'max_connections = 200',
        '',
      ].join('\n'),
    );
    try {
      // -w waits until the server accepts connections; -t bounds that wait.
      await runPg(cluster, cluster.bins.pgCtl, [
        '-D',
        cluster.dataDir,
        '-l',
        cluster.logFile,
        '-w',
        '-t',
        '60',
        'start',
      ]);
      const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
      await waitUntilQueryable(url);
      return url;
    } catch (err) {
      lastError = err;
      // Stop whatever half-started before trying another port.
      try {
        await runPg(cluster, cluster.bins.pgCtl, ['-D', cluster.dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // not running: fine
      }
    }
  }
  throw new Error(
    `could not start the test PostgreSQL server: ${errorText(lastError)}\n--- server log ---\n${logTail(cluster)}`,
  );
}

export async function destroyCluster(cluster: Cluster): Promise<void> {
  try {
    // immediate: no checkpoint, no waiting for clients; the data is deleted next anyway.
    await runPg(cluster, cluster.bins.pgCtl, ['-D', cluster.dataDir, '-m', 'immediate', '-w', 'stop']);
  } catch (err) {
    // The tests have already run and reported; a server that died on its own must not turn a
    // green run red here, but it is worth a line.
    process.stderr.write(`warning: stopping the test PostgreSQL server failed: ${errorText(err)}\n`);
  } finally {
    rmSync(cluster.tempDir, { recursive: true, force: true });
  }
}

export function destroyClusterSync(cluster: Cluster): void {
  try {
    const [cmd, args] = commandLine(cluster, cluster.bins.pgCtl, [
      '-D',
      cluster.dataDir,
      '-m',
      'immediate',
      '-w',
      'stop',
    ]);
    execFileSync(cmd, args, { cwd: cluster.tempDir, stdio: 'ignore', timeout: 30_000 });
  } catch {
    // not running, or already gone
  }
  rmSync(cluster.tempDir, { recursive: true, force: true });
}

/**
 * A detached shell that waits for this vitest process to go away, by whatever means, and then
 * stops the cluster and deletes its files. Detached (own session) so that killing vitest's
 * process group does not take the watchdog down with it. Killed by the normal teardown.
 */
export function startWatchdog(cluster: Cluster): ChildProcess {
  const [cmd, args] = commandLine(cluster, cluster.bins.pgCtl, [
    '-D',
    cluster.dataDir,
    '-m',
    'immediate',
    '-w',
    'stop',
  ]);
  const script = [
    `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done`,
    `${[cmd, ...args].map(shellQuote).join(' ')} >/dev/null 2>&1`,
    `rm -rf ${shellQuote(cluster.tempDir)}`,
  ].join('; ');
  const child = spawn('/bin/sh', ['-c', script], { cwd: '/', detached: true, stdio: 'ignore' });
  child.unref();
  return child;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Runs a PostgreSQL binary, as the postgres user when we are root; output only on failure. */
export async function runPg(cluster: Cluster, bin: string, args: string[]): Promise<void> {
  const [cmd, fullArgs] = commandLine(cluster, bin, args);
  try {
    // cwd: the postgres user may not be allowed into our working directory (e.g. under /root),
    // and the PostgreSQL tools complain when they can't stat it.
    await execFileAsync(cmd, fullArgs, { cwd: cluster.tempDir, timeout: 120_000 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`${[cmd, ...fullArgs].join(' ')} failed: ${errorText(err)}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

function commandLine(cluster: Cluster, bin: string, args: string[]): [string, string[]] {
  if (!cluster.asPostgres) return [bin, args];
  // runuser (util-linux) switches user without PAM password prompts or a login shell; su is the
  // fallback where runuser is missing.
  for (const runuser of ['/usr/sbin/runuser', '/sbin/runuser']) {
    if (isExecutable(runuser)) return [runuser, ['-u', 'postgres', '--', bin, ...args]];
  }
  return ['su', ['postgres', '-s', '/bin/sh', '-c', [bin, ...args].map(shellQuote).join(' ')]];
}

function postgresUser(): { uid: number; gid: number } {
  // /etc/passwd rather than `id`, which would need another process; the Debian package
  // creates the user as a plain local account.
  for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
    const [name, , uid, gid] = line.split(':');
    if (name === 'postgres' && uid && gid) return { uid: Number(uid), gid: Number(gid) };
  }
  throw new Error(
    'running as root, and PostgreSQL refuses to run as root, but there is no "postgres" OS user to run it as ' +
      '(install the postgresql package, or create the user)',
  );
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolvePort(port) : reject(new Error('no port assigned'))));
    });
  });
}

/** pg_ctl -w already waited; this also proves the TCP listener and trust auth work. */
async function waitUntilQueryable(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

function logTail(cluster: Cluster): string {
  try {
    return readFileSync(cluster.logFile, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
