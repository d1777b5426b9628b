import type { Kysely, Migration } from 'kysely';

// Tokens that expire and tokens with less power: `expires_at` is the ISO UTC instant
// from which the token no longer authenticates (null: never), `roles` a JSON array of the role
// names the token may use, always intersected with the owner's current roles (null: all of them,
// as before). Both nullable, so every existing token keeps working as it did.
export const tokenLimits: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('tokens').addColumn('expires_at', 'varchar(32)').execute();
    await db.schema.alterTable('tokens').addColumn('roles', 'text').execute();
    // `platform-core token prune` deletes by expiry.
    await db.schema.createIndex('tokens_expires_at_idx').on('tokens').column('expires_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('tokens_expires_at_idx').execute();
    await db.schema.alterTable('tokens').dropColumn('roles').execute();
    await db.schema.alterTable('tokens').dropColumn('expires_at').execute();
  },
};
