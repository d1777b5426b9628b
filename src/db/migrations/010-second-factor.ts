import type { Kysely, Migration } from 'kysely';

// The second factor:
// - users.mfa_failed_count / mfa_failed_at / mfa_lockout_end: wrong codes counted and locked as
//   wrong passwords are (auth/lockout.ts), apart from them;
// - mfa_totp: an account's TOTP secret (encrypted, auth/secret-box.ts), pending until confirmed
//   by a first code, and the last time step a code was accepted for (no code is taken twice);
// - mfa_recovery_codes: single-use codes, stored as digests;
// - mfa_challenges: the short-lived tokens a password login hands out when a second factor is
//   due, stored as digests and deleted when used.
export const secondFactor: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('users')
      .addColumn('mfa_failed_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('users').addColumn('mfa_failed_at', 'varchar(32)').execute();
    await db.schema.alterTable('users').addColumn('mfa_lockout_end', 'varchar(32)').execute();
    await db.schema
      .createTable('mfa_totp')
      .addColumn('user_id', 'varchar(36)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('confirmed_at', 'varchar(32)')
      .addColumn('last_step', 'integer')
      .execute();
    await db.schema
      .createTable('mfa_recovery_codes')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_digest', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('used_at', 'varchar(32)')
      .execute();
    await db.schema
      .createIndex('mfa_recovery_codes_user_idx')
      .on('mfa_recovery_codes')
      .columns(['user_id', 'code_digest'])
      .execute();
    await db.schema
      .createTable('mfa_challenges')
      .addColumn('token_digest', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('mfa_challenges_expires_at_idx').on('mfa_challenges').column('expires_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('mfa_challenges').execute();
    await db.schema.dropTable('mfa_recovery_codes').execute();
    await db.schema.dropTable('mfa_totp').execute();
    await db.schema.alterTable('users').dropColumn('mfa_lockout_end').execute();
    await db.schema.alterTable('users').dropColumn('mfa_failed_at').execute();
    await db.schema.alterTable('users').dropColumn('mfa_failed_count').execute();
  },
};
