import type { Kysely, Migration } from 'kysely';

// Lockout that cannot tell known usernames from unknown ones:
// - users.access_failed_at: when the latest failed password was counted, so a failure count is
//   forgotten after a quiet lockout window, as it must be for usernames without an account
//   (their store expires);
// - login_failures: the same counter and lockout for usernames that have no account, keyed by a
//   digest of the normalised username (people type passwords into the username field; the
//   plain text is never stored). Shared by every instance on one database, like the lockout.
export const loginFailures: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('access_failed_at', 'varchar(32)').execute();
    await db.schema
      .createTable('login_failures')
      .addColumn('username_digest', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('failed_count', 'integer', (c) => c.notNull())
      .addColumn('failed_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('lockout_end', 'varchar(32)')
      .execute();
    await db.schema.createIndex('login_failures_failed_at_idx').on('login_failures').column('failed_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('login_failures').execute();
    await db.schema.alterTable('users').dropColumn('access_failed_at').execute();
  },
};
