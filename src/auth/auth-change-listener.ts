// PostgreSQL: LISTENs for the auth changes of every instance and the CLI (auth-changes.ts) on a
// connection of its own (a pooled one would be handed to queries and lose the LISTEN), and
// evicts the named cache entries as they arrive. When the connection drops it reconnects with
// backoff; until it is back nothing is evicted from outside, so changes made elsewhere are seen
// when the cached entries expire (Settings:AuthCacheSeconds). Notifications sent meanwhile are
// lost, so after every (re)connect the caches are cleared.
//
// Nothing here may crash the process: an unhandled 'error' event on a pg Client would, so every
// client gets a handler before it connects, and every failure ends in a scheduled reconnect.
import pg from 'pg';
import type { Logger } from 'pino';
import { AUTH_CHANGES_CHANNEL, decodeAuthChange, type AuthChange } from './auth-changes.js';

/** The listener's application_name in pg_stat_activity, so operators (and tests) can find it. */
export const LISTENER_APPLICATION_NAME = 'platform-core auth listener';

/** Reconnect delays: 250 ms, doubling, at most 10 s. */
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;
/** A connection dead without a word (a cut network) is found by a ping this often. */
const PING_INTERVAL_MS = 15_000;

export interface AuthChangeListenerOptions {
  connectionString: string;
  connectTimeoutMs: number;
  /** Evicts what one notification names. */
  onChange: (change: AuthChange) => void;
  /** Evicts everything: called after each (re)connect, when notifications may have been missed. */
  onResync: () => void;
  logger: Pick<Logger, 'warn' | 'info'>;
}

export class AuthChangeListener {
  private client: pg.Client | null = null;
  private closed = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private lostAt: number | null = null;
  private connecting: Promise<void> | null = null;

  constructor(private readonly opts: AuthChangeListenerOptions) {}

  /** True while LISTEN is active (for tests and health reporting). */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Connects once; on failure it keeps retrying in the background and never throws. */
  async start(): Promise<void> {
    await this.connectOnce();
  }

  private connectOnce(): Promise<void> {
    this.retryTimer = null;
    this.connecting = this.connect()
      .catch((err: unknown) => this.retryLater(err))
      .finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.opts.connectionString,
      connectionTimeoutMillis: this.opts.connectTimeoutMs,
      query_timeout: this.opts.connectTimeoutMs,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, null));
    client.on('notification', (msg) => {
      if (msg.channel === AUTH_CHANGES_CHANNEL) this.opts.onChange(decodeAuthChange(msg.payload));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${AUTH_CHANGES_CHANNEL}`);
    } catch (err) {
      client.end().catch(() => undefined);
      this.retryLater(err);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.failures = 0;
    // Anything may have changed while no notification could arrive.
    this.opts.onResync();
    if (this.lostAt !== null)
      this.opts.logger.info({ downMs: Date.now() - this.lostAt }, 'auth change listener reconnected');
    this.lostAt = null;
    this.pingTimer = setInterval(() => this.ping(client), PING_INTERVAL_MS).unref();
  }

  private ping(client: pg.Client): void {
    client.query('select 1').catch((err: unknown) => this.lost(client, err));
  }

  /** The active client failed or ended: drop it and reconnect. Stale clients are ignored. */
  private lost(client: pg.Client, err: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.lostAt = Date.now();
    this.opts.logger.warn(
      { err },
      'auth change listener lost its connection; until it is back, changes made elsewhere are seen within ' +
        'Settings:AuthCacheSeconds',
    );
    this.retryLater(null);
  }

  private retryLater(err: unknown): void {
    if (this.closed || this.retryTimer) return;
    const delay = Math.min(FIRST_RETRY_MS * 2 ** this.failures, MAX_RETRY_MS);
    this.failures += 1;
    if (err) this.opts.logger.warn({ err, retryInMs: delay }, 'auth change listener could not connect');
    this.retryTimer = setTimeout(() => void this.connectOnce(), delay).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.retryTimer = null;
    this.pingTimer = null;
    await this.connecting;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
