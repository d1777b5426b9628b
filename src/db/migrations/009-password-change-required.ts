import type { Kysely, Migration } from 'kysely';

// An account whose password must be replaced before it may do anything else: the bootstrap
// administrator's generated password is for one sign-in only (accounts/bootstrap.ts). A session
// of such an account reaches only the change of its own password, its session and the logout
// (http/auth-hook.ts). Every existing account signs in as before (0).
export const passwordChangeRequired: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('users')
      .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('users').dropColumn('must_change_password').execute();
  },
};
