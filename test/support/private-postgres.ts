// A PostgreSQL cluster of one test file's own, for tests that stop, freeze or kill the server:
// doing that to the run's shared cluster (global-setup.ts) would break every other test file.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import {
  createCluster,
  destroyCluster,
  findPgBinaries,
  runPg,
  startCluster,
  startWatchdog,
  type Cluster,
} from './global-setup.js';

export interface PrivatePostgres {
  /** URL of the maintenance database `postgres`. */
  baseUrl: string;
  /** Creates a database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** The postmaster and every process it started (backends, background workers). */
  processes(): number[];
  /** SIGSTOP / SIGCONT to all of them: a server that accepts connections but never answers. */
  freeze(): void;
  thaw(): void;
  /** pg_ctl stop -m immediate, and start again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Resolves once a new connection can run a query. */
  waitUntilQueryable(timeoutMs?: number): Promise<void>;
  /** Runs one statement on a connection of its own (never one of the service's). */
  query<R extends pg.QueryResultRow>(databaseUrl: string, text: string, values?: unknown[]): Promise<R[]>;
  destroy(): Promise<void>;
}

/** null when this machine has no PostgreSQL server binaries. */
export async function startPrivatePostgres(): Promise<PrivatePostgres | null> {
  const bins = findPgBinaries();
  if (!bins) return null;
  const cluster: Cluster = await createCluster(bins);
  const watchdog = startWatchdog(cluster);
  const baseUrl = await startCluster(cluster);
  const postmasterPid = (): number =>
    Number(readFileSync(join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = (pid: number): number[] => {
    try {
      return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return []; // pgrep exits 1 when there are none
    }
  };
  const processes = () => {
    const pid = postmasterPid();
    return [pid, ...children(pid)];
  };
  const query = async <R extends pg.QueryResultRow>(
    url: string,
    text: string,
    values: unknown[] = [],
  ): Promise<R[]> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  // The shared cluster trades durability for speed (synchronous_commit off); a test of lost
  // writes after a crash needs the default: a commit is acknowledged once its WAL is written.
  await query(baseUrl, 'alter system set synchronous_commit = on');
  await query(baseUrl, 'select pg_reload_conf()');
  return {
    baseUrl,
    async createDatabase(name) {
      await query(baseUrl, `CREATE DATABASE ${name}`);
      const url = new URL(baseUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    processes,
    freeze() {
      const pids = processes();
      // The postmaster first, so it forks nothing new while its children are stopped.
      for (const pid of pids) process.kill(pid, 'SIGSTOP');
    },
    thaw() {
      for (const pid of processes().reverse()) process.kill(pid, 'SIGCONT');
    },
    async stop() {
      await runPg(cluster, bins.pgCtl, ['-D', cluster.dataDir, '-m', 'immediate', '-w', 'stop']);
    },
    async start() {
      await runPg(cluster, bins.pgCtl, ['-D', cluster.dataDir, '-l', cluster.logFile, '-w', '-t', '60', 'start']);
    },
    async waitUntilQueryable(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          await query(baseUrl, 'select 1');
          return;
        } catch (err) {
          if (Date.now() > deadline) throw err;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    },
    query,
    async destroy() {
      watchdog.kill();
      await destroyCluster(cluster);
    },
  };
}
