import { sql, SqliteAdapter, type Kysely, type Migration } from 'kysely';
import { APP_ROLE_NAME_SQL } from '../app-data.js';

// PostgreSQL: the schema of the platform's hooks (accounts/cancel-hook.ts), made by and for the
// platform's role, with no right for the app role: report SQL can create functions in schema
// `app`, so a hook looked up there could be one it planted, or be made ambiguous by an overload
// of its own. A user_cancel(text) the operator installed in `app` earlier moves here when the
// platform's role may move it and its owner is not a role report SQL can act as. SQLite's hook
// is a file in the data directory: nothing to do there.
const SCHEMA = 'platform_hooks';

export const hookSchema: Migration = {
  async up(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    await sql.raw(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`).execute(db);
    await sql
      .raw(
        `DO $do$
DECLARE
  f regprocedure := to_regprocedure('app.user_cancel(text)');
  app_role text := ${APP_ROLE_NAME_SQL};
BEGIN
  IF f IS NOT NULL AND to_regprocedure('${SCHEMA}.user_cancel(text)') IS NULL AND EXISTS (
    SELECT 1 FROM pg_proc p WHERE p.oid = f AND pg_has_role(current_user, p.proowner, 'USAGE')
      AND NOT (EXISTS (SELECT 1 FROM pg_roles WHERE rolname = app_role) AND pg_has_role(app_role, p.proowner, 'USAGE'))
  ) THEN
    ALTER FUNCTION app.user_cancel(text) SET SCHEMA ${SCHEMA};
  END IF;
END
$do$`,
      )
      .execute(db);
  },
  async down(db: Kysely<any>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    await sql
      .raw(
        `DO $do$
BEGIN
  IF to_regprocedure('${SCHEMA}.user_cancel(text)') IS NOT NULL AND to_regprocedure('app.user_cancel(text)') IS NULL
  THEN
    ALTER FUNCTION ${SCHEMA}.user_cancel(text) SET SCHEMA app;
  END IF;
END
$do$`,
      )
      .execute(db);
    await sql.raw(`DROP SCHEMA IF EXISTS ${SCHEMA}`).execute(db);
  },
};
