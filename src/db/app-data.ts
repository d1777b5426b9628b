// Where the apps' own data lives, apart from the platform's tables. Report SQL
// (SRS commands) and app seeds are written by app developers; they must not reach users,
// password hashes, tokens, stamps or the signing key.
//
// - PostgreSQL: the apps' tables live in schema `app`. Their SQL runs on connections of its own
//   that log in as the database's app role (`platform_core_app_<digest of the database name>`,
//   created by migration 003 with a generated password kept in instance_settings), which has
//   every right in `app` and none on the platform's tables. A login of its own, not `SET ROLE`
//   on the platform's connection: there the SQL could step back with `RESET ROLE` inside a
//   function of its own and restore the role before returning, unseen by any check between
//   statements.
// - SQLite: the apps' tables live in a database file of their own beside the platform's; SRS
//   command processes and seeds open only that file. The platform's own code that must reach
//   both (the user_cancel hook, the copy of the user directory) uses a connection on which that
//   file is attached as schema `app`, so on both databases the platform writes `app.<table>`.
import { basename, dirname, join } from 'node:path';

/** The schema (PostgreSQL) or attached database name (SQLite) of the apps' data. */
export const APP_SCHEMA = 'app';

/** PostgreSQL: the app role's name, as an SQL expression (it derives from the database's). */
export const APP_ROLE_NAME_SQL = `'platform_core_app_' || substr(md5(current_database()), 1, 12)`;

/** PostgreSQL: where the app role's login is kept (instance_settings, JSON `{user, password}`). */
export const APP_LOGIN_KEY = 'app_login_v1';

/** The apps' SQLite file beside the platform's: `platform-core.sqlite` → `platform-core-apps.sqlite`. */
export function appDataFileFor(platformFile: string): string {
  const stem = basename(platformFile).replace(/\.(sqlite3?|db)$/i, '');
  return join(dirname(platformFile), `${stem}-apps.sqlite`);
}

/**
 * The read-only user directory apps may query as `platform_users`: non-secret columns only
 * (no password hash, stamp, lockout state or phone number). On PostgreSQL a view in `app`; on
 * SQLite a table of the apps' file that the platform rewrites (srs/platform-directory.ts).
 */
export const DIRECTORY_TABLE = 'platform_users';

export const DIRECTORY_COLUMNS = [
  'user_id',
  'username',
  'first_name',
  'last_name',
  'user_short',
  'user_color',
  'team_id',
  'team_name',
  'app_name',
  'is_active',
  'created_at',
] as const;

/** The directory's rows from the platform's tables in `schema` (`public`, or SQLite's `main`). */
export const directorySelect = (schema: string): string =>
  `SELECT u.id AS user_id, u.username, u.first_name, ` +
  `u.last_name, u.short AS user_short, u.color AS user_color,
  u.team_id, t.name AS team_name, u.app_name, u.is_active, u.created_at
  FROM ${schema}.users u JOIN ${schema}.teams t ON t.id = u.team_id`;

/** SQLite: the directory copy's table in the apps' file (`schema`: how the file is named there). */
export const sqliteDirectoryTable = (schema: string): string =>
  `CREATE TABLE IF NOT EXISTS ${schema}.${DIRECTORY_TABLE} ` +
  `(${DIRECTORY_COLUMNS.map((c) => `${c} ${c === 'is_active' ? 'INTEGER' : 'TEXT'}`).join(', ')}, PRIMARY ` +
  `KEY (user_id))`;
