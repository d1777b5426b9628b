import { sql, type Kysely, type Migration } from 'kysely';

// The paged account directory of the admin console (accounts/account-directory.ts):
// one index per sort, whose expressions are exactly the query's ORDER BY (else neither database
// uses it), each ending in the unique normalized_username that makes the order total; and the
// columns the stats and the status filter count by. Expression indexes are plain SQL that both
// SQLite (3.9+) and PostgreSQL accept, given through the schema builder.
const INDEXES: Array<[name: string, columns: ReturnType<typeof sql>]> = [
  ['users_name_sort_idx', sql`lower(last_name), lower(first_name), normalized_username`],
  ['users_created_at_sort_idx', sql`created_at, normalized_username`],
  ['users_last_activity_sort_idx', sql`coalesce(last_activity, created_at), normalized_username`],
  ['users_last_activity_idx', sql`last_activity`],
  ['users_lockout_end_idx', sql`lockout_end`],
  ['users_is_active_idx', sql`is_active, normalized_username`],
];

export const consoleIndexes: Migration = {
  async up(db: Kysely<any>) {
    for (const [name, columns] of INDEXES) await db.schema.createIndex(name).on('users').expression(columns).execute();
  },
  async down(db: Kysely<any>) {
    for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
  },
};
