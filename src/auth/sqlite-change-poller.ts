// SQLite: sees what another process (the CLI, while the server runs) committed to the platform's
// file within a poll interval. `PRAGMA data_version` on the server's connection changes exactly
// when another connection has committed to that file since the last read: no table is read and
// the server's own writes on this connection do not count. The apps' file is not attached to
// this connection, so reports and SRS commands writing their data leave it unchanged; the
// server's second connection (withApps) changes it only when it writes the platform's tables
// (a cancel), which is rare. A change clears the auth caches: the poller cannot say which rows.
import { sql, type Kysely } from 'kysely';

export const SQLITE_POLL_INTERVAL_MS = 250;

export interface SqliteChangePollerOptions {
  intervalMs?: number;
  /** Another connection committed to the platform's file. */
  onChange: () => void;
  onError: (err: unknown) => void;
}

export class SqliteChangePoller {
  private version: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Kysely<any>,
    private readonly opts: SqliteChangePollerOptions,
  ) {}

  async start(): Promise<void> {
    this.version = await this.read();
    this.schedule();
  }

  private async read(): Promise<number> {
    const { rows } = await sql<{ data_version: number }>`pragma data_version`.execute(this.db);
    return Number(rows[0]?.data_version);
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.polling = this.poll().finally(() => {
        this.polling = null;
        this.schedule();
      });
    }, this.opts.intervalMs ?? SQLITE_POLL_INTERVAL_MS).unref();
  }

  private async poll(): Promise<void> {
    try {
      const version = await this.read();
      if (version !== this.version) {
        this.version = version;
        this.opts.onChange();
      }
    } catch (err) {
      // Closed underneath us at shutdown, or a transient error: the next poll tries again.
      if (!this.closed) this.opts.onError(err);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.polling;
  }
}
