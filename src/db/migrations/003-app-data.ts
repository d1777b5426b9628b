import { sql, SqliteAdapter, type Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import {
  APP_LOGIN_KEY,
  APP_ROLE_NAME_SQL,
  APP_SCHEMA,
  directorySelect,
  DIRECTORY_TABLE,
  sqliteDirectoryTable,
} from '../app-data.js';
import type { PlatformMigration } from './platform-migration.js';

// The apps' data apart from the platform's tables (db/app-data.ts). Runs over
// the connection that reaches both (migrate.ts: migrateToLatest).
//
// Tables an earlier version created for apps beside the platform's (seeds and app SQL ran in
// the platform's database) move to the apps' side, so existing reports keep their data: on
// PostgreSQL from schema public into schema app (with their indexes and triggers; views stay in
// public, as one over the platform's tables would let report SQL read them with its owner's
// rights), on SQLite into the apps' file (schema, rows, indexes, triggers, and the views that
// can live there). "The platform's" is the list as of this migration.
const PLATFORM_TABLES = [
  'teams',
  'users',
  'team_members',
  'roles',
  'user_roles',
  'tokens',
  'instance_settings',
  'events',
  'login_failures',
  'kysely_migration',
  'kysely_migration_lock',
];

export const appData: PlatformMigration = {
  async up(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      // Nothing left to copy when migrate.ts ran the step before; the whole move otherwise.
      await sqliteCopyIntoAppFile(db);
      await sqliteRemoveFromPlatformFile(db);
    } else await postgresUp(db);
  },
  sqliteAppFileStep: sqliteCopyIntoAppFile,
  async down() {
    throw new Error('003-app-data cannot be undone: the apps’ tables would have to move back beside the platform’s');
  },
};

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

// ---------------------------------------------------------------------------------------------
// PostgreSQL

async function postgresUp(db: Kysely<any>): Promise<void> {
  const schema = quoteIdent(APP_SCHEMA);
  // The app role is the database's own (its name derives from the database's), so databases of
  // one cluster never share, or reset, each other's login. Creating it needs CREATEROLE once;
  // without it an administrator creates it (see docs/operations.md, PostgreSQL). The platform's user becomes a
  // member, so it has the owner's rights on what the app role creates; never the reverse.
  const password = randomBytes(24).toString('base64url');
  await sql
    .raw(
      `DO $do$
DECLARE
  r text := ${APP_ROLE_NAME_SQL};
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
    EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD %L', r, '${password}');
  ELSE
    EXECUTE format('ALTER ROLE %I LOGIN PASSWORD %L', r, '${password}');
  END IF;
  IF NOT pg_has_role(current_user, r, 'MEMBER') THEN
    EXECUTE format('GRANT %I TO %I', r, current_user);
  END IF;
  BEGIN
    EXECUTE format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO %I', current_database(), r);
  EXCEPTION WHEN insufficient_privilege THEN NULL; -- PUBLIC's default rights then serve
  END;
END
$do$`,
    )
    .execute(db);
  const { rows } = await sql.raw<{ name: string }>(`SELECT ${APP_ROLE_NAME_SQL} AS name`).execute(db);
  const role = quoteIdent(rows[0]!.name);
  const login = JSON.stringify({ user: rows[0]!.name, password });
  await db
    .insertInto('instance_settings')
    .values({ key: APP_LOGIN_KEY, value: login })
    .onConflict((oc: any) => oc.column('key').doUpdateSet({ value: login }))
    .execute();

  await sql.raw(`CREATE SCHEMA IF NOT EXISTS ${schema}`).execute(db);
  await sql.raw(`GRANT USAGE, CREATE ON SCHEMA ${schema} TO ${role}`).execute(db);

  const existing = await sql<{
    name: string;
  }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tableowner = current_user`.execute(db);
  for (const { name } of existing.rows) {
    if (!PLATFORM_TABLES.includes(name))
      await sql.raw(`ALTER TABLE public.${quoteIdent(name)} SET SCHEMA ${schema}`).execute(db);
  }
  // What the platform's user makes in `app` (moved tables, tables an administrator creates as
  // that user) is the apps' to use.
  const rights = 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER';
  await sql.raw(`GRANT ${rights} ON ALL TABLES IN SCHEMA ${schema} TO ${role}`).execute(db);
  await sql.raw(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`).execute(db);
  await sql.raw(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT ${rights} ON TABLES TO ${role}`).execute(db);
  await sql
    .raw(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${role}`)
    .execute(db);

  // The user directory: a view of non-secret columns, readable and nothing else. Its join makes
  // it not automatically updatable, and the default privileges above are taken back from it.
  const view = `${schema}.${quoteIdent(DIRECTORY_TABLE)}`;
  await sql.raw(`CREATE OR REPLACE VIEW ${view} WITH (security_barrier) AS ${directorySelect('public')}`).execute(db);
  await sql.raw(`REVOKE ALL ON ${view} FROM ${role}`).execute(db);
  await sql.raw(`GRANT SELECT ON ${view} TO ${role}`).execute(db);
}

// ---------------------------------------------------------------------------------------------
// SQLite

interface SchemaObject {
  type: 'table' | 'index' | 'trigger' | 'view';
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** `CREATE … <name>` → `CREATE … app."<name>"`: the same object, made in the apps' file. */
function inAppSchema(object: SchemaObject): string {
  const create = new RegExp(
    /^(\s*CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?)/.source +
      /("(?:[^"]|"")*"|\[[^\]]*\]|`(?:[^`]|``)*`|[^\s(]+)/.source,
    'i',
  );
  const text = object.sql ?? '';
  if (!create.test(text)) throw new Error(`003-app-data: cannot move ${object.type} ${object.name}: unexpected SQL`);
  return text.replace(create, (_whole, head: string) => `${head}${APP_SCHEMA}.${quoteIdent(object.name)}`);
}

/** What of the platform's file moves: the apps' tables, their indexes and triggers, and the views. */
async function objectsToMove(db: Kysely<any>) {
  const objects = (
    await sql<SchemaObject>`SELECT type, name, tbl_name, sql FROM main.sqlite_master ORDER BY rowid`.execute(db)
  ).rows;
  const isPlatform = (table: string) => PLATFORM_TABLES.includes(table) || table.startsWith('sqlite_');
  const tables = objects.filter((o) => o.type === 'table' && !isPlatform(o.name));
  const moved = new Set(tables.map((t) => t.name));
  // Indexes SQLite makes itself (autoindex: sql is null) come back with their tables.
  const dependents = objects.filter(
    (o) => (o.type === 'index' || o.type === 'trigger') && moved.has(o.tbl_name) && o.sql !== null,
  );
  const views = objects.filter((o) => o.type === 'view');
  const inApp = new Map(
    (await sql<{ name: string; type: string }>`SELECT name, type FROM app.sqlite_master`.execute(db)).rows.map((r) => [
      r.name,
      r.type,
    ]),
  );
  return { tables, dependents, views, inApp };
}

// In two parts, each in a transaction that writes one file (migrate.ts): the copy into the
// apps' file (the migration's sqliteAppFileStep), then the removal from the platform's with the
// migration's record (up). Killed in between, the next start finds the copy complete and only
// removes. Foreign keys are off meanwhile (migrate.ts): the tables move in creation order, and a
// reference to a platform table has no table to point to in the apps' file.

/** The copy: the tables with their rows, indexes and triggers, and the views that can live there. */
async function sqliteCopyIntoAppFile(db: Kysely<any>): Promise<void> {
  const app = APP_SCHEMA;
  const { tables, dependents, views, inApp } = await objectsToMove(db);
  for (const t of tables) {
    if (inApp.has(t.name)) {
      await assertSameRows(db, t.name);
      continue;
    }
    await sql.raw(inAppSchema(t)).execute(db);
    await sql.raw(`INSERT INTO ${app}.${quoteIdent(t.name)} SELECT * FROM main.${quoteIdent(t.name)}`).execute(db);
  }
  for (const o of dependents) if (!inApp.has(o.name)) await sql.raw(inAppSchema(o)).execute(db);
  await sql.raw(sqliteDirectoryTable(app)).execute(db);
  for (const v of views) {
    try {
      if (!inApp.has(v.name)) await sql.raw(inAppSchema(v)).execute(db);
    } catch {
      // A view over the platform's tables cannot live in the apps' file: it stays where it is.
    }
  }
}

/** The removal: what the copy put into the apps' file goes from the platform's. */
async function sqliteRemoveFromPlatformFile(db: Kysely<any>): Promise<void> {
  const { tables, views, inApp } = await objectsToMove(db);
  for (const v of views)
    if (inApp.get(v.name) === 'view') await sql.raw(`DROP VIEW main.${quoteIdent(v.name)}`).execute(db);
  for (const t of [...tables].reverse()) {
    if (inApp.get(t.name) !== 'table')
      throw new Error(`003-app-data: table ${t.name} was not copied into the apps' file`);
    await sql.raw(`DROP TABLE main.${quoteIdent(t.name)}`).execute(db);
  }
}

/** A table in both files: the copy of an interrupted earlier run, if it holds the same rows. */
async function assertSameRows(db: Kysely<any>, table: string): Promise<void> {
  const count = async (schema: string) =>
    Number(
      (await sql.raw<{ n: number }>(`SELECT COUNT(*) AS n FROM ${schema}.${quoteIdent(table)}`).execute(db)).rows[0]?.n,
    );
  if ((await count('main')) !== (await count(APP_SCHEMA))) {
    throw new Error(
      `003-app-data: table ${table} is in both the platform's and the apps' database file with different ` +
        `rows; move it by hand`,
    );
  }
}
