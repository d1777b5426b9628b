import type { Kysely, Migration } from 'kysely';

// The login rate limit's fixed windows (auth/rate-limit.ts), in the database so that every
// instance on it counts into the same windows (it was per process). Keyed by a digest of the
// key, which holds a username: the plain text is never stored. Ended windows are swept by
// window_start.
export const loginRateWindows: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('login_rate_windows')
      .addColumn('key_digest', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('window_start', 'varchar(32)', (c) => c.notNull())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('login_rate_windows_window_start_idx')
      .on('login_rate_windows')
      .column('window_start')
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('login_rate_windows').execute();
  },
};
