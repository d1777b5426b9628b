import type { Kysely, Migration } from 'kysely';

// The audit trail (src/audit/): one row per security-relevant action, written in the action's
// own transaction. It replaces the `events` table, which recorded cancellations and
// reactivations only: those rows move over under the trail's action names.
export const audit: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('at', 'varchar(32)', (c) => c.notNull())
      .addColumn('action', 'varchar(64)', (c) => c.notNull())
      .addColumn('actor', 'varchar(256)')
      .addColumn('actor_id', 'varchar(36)')
      .addColumn('subject', 'varchar(256)')
      .addColumn('subject_id', 'varchar(36)')
      .addColumn('client', 'varchar(64)')
      .addColumn('via', 'varchar(32)')
      .addColumn('request_id', 'varchar(64)')
      .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
    await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at', 'id']).execute();
    await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor', 'at']).execute();
    await db.schema.createIndex('audit_log_actor_id_idx').on('audit_log').columns(['actor_id', 'at']).execute();
    await db.schema.createIndex('audit_log_subject_id_idx').on('audit_log').columns(['subject_id', 'at']).execute();
    await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'at']).execute();

    const renamed: Record<string, string> = { user_cancel: 'account_cancel', user_reactivate: 'account_reactivate' };
    const old = await db.selectFrom('events').selectAll().execute();
    const idOf = async (username: string | null): Promise<string | null> =>
      username === null
        ? null
        : ((await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst())?.id ?? null);
    for (const e of old) {
      await db
        .insertInto('audit_log')
        .values({
          id: e.id,
          at: e.created_at,
          action: renamed[e.type] ?? e.type,
          actor: e.actor,
          actor_id: await idOf(e.actor),
          subject: e.subject,
          subject_id: await idOf(e.subject),
          data: e.data,
        })
        .execute();
    }
    await db.schema.dropTable('events').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema
      .createTable('events')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('type', 'varchar(64)', (c) => c.notNull())
      .addColumn('actor', 'varchar(256)')
      .addColumn('subject', 'varchar(256)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
    await db.schema.dropTable('audit_log').execute();
  },
};
