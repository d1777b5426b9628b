// Keeps an instance's auth caches in step with changes it did not make: the PostgreSQL listener
// (announcements of other instances and the CLI) or, on SQLite, the poller of the file's change
// counter (the CLI). Started before the instance serves, closed with it.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DialectName } from '../db/connect.js';
import type { Authenticator } from './authenticator.js';
import { AuthChangeListener } from './auth-change-listener.js';
import { SqliteChangePoller } from './sqlite-change-poller.js';

export interface AuthChangeWatch {
  close(): Promise<void>;
}

export interface AuthChangeWatchOptions {
  dialect: DialectName;
  databaseUrl: string | null;
  db: Kysely<any>;
  connectTimeoutMs: number;
  auth: Authenticator;
  logger: Logger;
  /** Also told of every change seen (what is derived from the accounts, e.g. the directory copy). */
  onChange: () => void;
}

export async function startAuthChangeWatch(opts: AuthChangeWatchOptions): Promise<AuthChangeWatch> {
  const { auth, onChange } = opts;
  if (opts.dialect === 'postgresql' && opts.databaseUrl) {
    const listener = new AuthChangeListener({
      connectionString: opts.databaseUrl,
      connectTimeoutMs: opts.connectTimeoutMs,
      onChange: (change) => {
        auth.applyChange(change);
        onChange();
      },
      onResync: () => {
        auth.clear();
        onChange();
      },
      logger: opts.logger,
    });
    await listener.start();
    return listener;
  }
  const poller = new SqliteChangePoller(opts.db, {
    onChange: () => {
      auth.clear();
      onChange();
    },
    onError: (err) => opts.logger.warn({ err }, 'could not read the database change counter; retrying'),
  });
  await poller.start();
  return poller;
}
