import type { Kysely, Migration } from 'kysely';

// Written with Kysely's schema builder only (no dialect-specific SQL) so SQLite and PostgreSQL
// get the same tables.
export const initial: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('teams')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('short', 'varchar(32)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(256)', (c) => c.notNull())
      .addColumn('type', 'varchar(32)', (c) => c.notNull().defaultTo('internal'))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('username', 'varchar(256)', (c) => c.notNull())
      .addColumn('normalized_username', 'varchar(256)', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text')
      .addColumn('security_stamp', 'varchar(64)', (c) => c.notNull())
      .addColumn('email_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('phone_number', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('lockout_enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('lockout_end', 'varchar(32)')
      .addColumn('access_failed_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('last_activity', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id'))
      .addColumn('app_name', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('first_name', 'varchar(256)', (c) => c.notNull().defaultTo(''))
      .addColumn('last_name', 'varchar(256)', (c) => c.notNull().defaultTo(''))
      .addColumn('home', 'varchar(256)')
      .addColumn('color', 'varchar(7)')
      .addColumn('short', 'varchar(4)')
      .addColumn('currency', 'varchar(3)', (c) => c.notNull().defaultTo('EUR'))
      .addColumn('avatar', 'varchar(2048)')
      .addColumn('properties', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();

    await db.schema
      .createTable('team_members')
      .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('level', 'varchar(64)')
      .addPrimaryKeyConstraint('team_members_pk', ['user_id', 'team_id'])
      .execute();

    await db.schema
      .createTable('roles')
      .addColumn('name', 'varchar(128)', (c) => c.primaryKey())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('user_roles')
      .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role_name', 'varchar(128)', (c) => c.notNull().references('roles.name').onDelete('cascade'))
      .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_name'])
      .execute();

    await db.schema
      .createTable('tokens')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('login_provider', 'varchar(64)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
      .addColumn('used_at', 'varchar(32)')
      .addUniqueConstraint('tokens_user_name_unique', ['user_id', 'name'])
      .execute();

    await db.schema
      .createTable('instance_settings')
      .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('events')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('type', 'varchar(64)', (c) => c.notNull())
      .addColumn('actor', 'varchar(256)')
      .addColumn('subject', 'varchar(256)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();

    await db.schema.createIndex('user_roles_role_idx').on('user_roles').column('role_name').execute();
    await db.schema.createIndex('team_members_team_idx').on('team_members').column('team_id').execute();
    await db.schema.createIndex('events_type_created_idx').on('events').columns(['type', 'created_at']).execute();
  },
  async down(db: Kysely<any>) {
    for (const t of [
      'events',
      'instance_settings',
      'tokens',
      'user_roles',
      'roles',
      'team_members',
      'users',
      'teams',
    ]) {
      await db.schema.dropTable(t).execute();
    }
  },
};
