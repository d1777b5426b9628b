// PostgreSQL connection pools that a dying or frozen server cannot crash or hang.
//
// - Every client has an 'error' listener from the moment it connects: pg emits 'error' on a
//   checked-out client whose backend dies between two queries (pg_terminate_backend, the OOM
//   killer, a restart), and an 'error' event nobody listens to ends the process.
// - Waits are bounded: connecting (and waiting for a pooled client) by `connectTimeoutMs`; a
//   query by the server's statement_timeout and, for a server that does not answer at all
//   (stopped, network gone), by a timer of our own that drops the connection.
// - Errors of a lost or unreachable connection (pg's own, without a SQLSTATE, and Node's socket
//   errors) are wrapped as CONNECTION_LOST, so database-errors.ts can tell them by code from
//   bugs and from the same socket errors elsewhere (a client hanging up).
import pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { CONNECTION_LOST } from './database-errors.js';

export interface PgPoolOptions {
  connectionString: string;
  max: number;
  /** Longest wait for a new connection, and for a client of the pool. */
  connectTimeoutMs: number;
  /** The server's statement_timeout for the pool's sessions (0: none). */
  statementTimeoutMs: number;
  /** Longest a query may go unanswered before its connection is dropped. */
  queryTimeoutMs: number;
  /** Shown in pg_stat_activity. */
  applicationName: string;
  types?: pg.CustomTypesConfig;
}

/** A pool's connections now: open ones, idle ones, and clients waiting for one. */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

export interface GuardedPool {
  /** For Kysely's PostgresDialect. */
  pool: PostgresPool;
  /** Read at each metrics scrape. */
  use(): PoolUse;
  end(): Promise<void>;
}

/** The error a client of ours raises for a connection that is gone or does not answer. */
export function connectionLost(message: string, cause?: unknown): Error {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code: CONNECTION_LOST });
}

/** A server's error (DatabaseError) keeps its SQLSTATE; anything else from a broken connection is wrapped. */
function tagged(err: unknown, brokenClient: boolean): unknown {
  if (err instanceof pg.DatabaseError || !brokenClient) return err;
  return connectionLost(err instanceof Error ? err.message : String(err), err);
}

/**
 * SQLSTATEs after which the server closes the session: terminated (pg_terminate_backend, an
 * administrator, shutdown), idle too long, or a connection exception. The client goes back to
 * the pool as broken even before its socket has closed, so no waiting request is handed it.
 */
const SESSION_ENDED = /^(57P0[1-5]|25P03|08[0-9A-Z]{3})$/;

/** Ends the socket at once: a graceful end would wait for a server that does not answer. */
export function dropConnection(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

export function isQueryable(client: pg.Client): boolean {
  const c = client as unknown as { _queryable?: boolean; _ending?: boolean; _ended?: boolean };
  return c._queryable !== false && !c._ending && !c._ended;
}

export function createPgPool(opts: PgPoolOptions): GuardedPool {
  const pool = new pg.Pool({
    connectionString: opts.connectionString,
    max: opts.max,
    connectionTimeoutMillis: opts.connectTimeoutMs,
    application_name: opts.applicationName,
    ...(opts.statementTimeoutMs > 0 ? { statement_timeout: opts.statementTimeoutMs } : {}),
    // A connection the server (or a firewall) dropped while idle is noticed and replaced.
    keepAlive: true,
    ...(opts.types ? { types: opts.types } : {}),
  });
  // An idle client losing its connection: the pool drops it and emits this.
  pool.on('error', () => undefined);
  // A checked-out client losing its connection: the query in flight fails (mapped to 503 by
  // code); the event itself must be heard or it ends the process.
  pool.on('connect', (client) => client.on('error', () => undefined));

  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapper = wrappers.get(client);
    if (!wrapper) {
      wrapper = guardedClient(client, opts.queryTimeoutMs);
      wrappers.set(client, wrapper);
    }
    return wrapper;
  };
  return {
    pool: {
      async connect() {
        try {
          return wrap(await pool.connect());
        } catch (err) {
          // Refused, reset, timed out, or the pool's own acquire timeout: no answer to work with.
          throw tagged(err, true);
        }
      },
      end: () => pool.end(),
    },
    use: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    end: () => pool.end(),
  };
}

function guardedClient(client: pg.PoolClient, queryTimeoutMs: number): PostgresPoolClient {
  let dropped = false;
  const query = async (text: string, values: ReadonlyArray<unknown>) => {
    const running = client.query(text, values as unknown[]);
    let timer: NodeJS.Timeout | undefined;
    const unanswered = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        dropped = true;
        // Heard here so its late rejection (once the socket is gone) is not unhandled.
        running.catch(() => undefined);
        dropConnection(client);
        reject(connectionLost(`the database did not answer within ${queryTimeoutMs} ms`));
      }, queryTimeoutMs);
    });
    try {
      return await Promise.race([running, unanswered]);
    } catch (err) {
      if (SESSION_ENDED.test(String((err as { code?: unknown }).code))) dropped = true;
      throw tagged(err, dropped || !isQueryable(client));
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    query: ((textOrCursor: unknown, values?: ReadonlyArray<unknown>) => {
      // A cursor (streamed rows) is returned as it is: its reads are bounded by statement_timeout.
      if (typeof textOrCursor !== 'string') return client.query(textOrCursor as never);
      return query(textOrCursor, values ?? []);
    }) as unknown as PostgresPoolClient['query'],
    // A broken client goes back with an error, so the pool closes it instead of reusing it.
    release: () => client.release(dropped || !isQueryable(client) ? connectionLost('connection lost') : undefined),
  };
}
