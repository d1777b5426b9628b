// The PostgreSQL escape corpus (report-sql-escapes-postgres.test.ts): what report SQL might try to
// get out of the app role, its transaction, its time limit or its session. Each attempt names
// how it must end: refused with the SQLSTATE of the reason (so that an attempt failing for
// another reason, a typo or a missing object, fails the test), stopped at the statement limit,
// or run to completion harmlessly (its effect is then checked by the test's common checks).

export interface Attempt {
  name: string;
  sql: string;
  outcome: 'ok' | 'timeout' | { failed: string };
}

export interface CorpusContext {
  /** A directory the database server could write to, were it allowed. */
  target: string;
  appRole: string;
  database: string;
}

const DENIED = { failed: '42501' };

/** Functions named like the cancel hook, as report SQL would plant them in schema app. */
export const PLANTED_CANCEL_HOOKS =
  "CREATE FUNCTION user_cancel(p text) RETURNS void LANGUAGE plpgsql AS $f$ BEGIN RAISE EXCEPTION 'planted'; " +
  'END $f$; CREATE FUNCTION user_cancel(p text, n int DEFAULT 0) RETURNS void LANGUAGE plpgsql AS $f$ BEGIN ' +
  "RAISE EXCEPTION 'planted overload'; END $f$";

export function escapeAttempts({ target, database }: CorpusContext): Attempt[] {
  const a = (name: string, sql: string, outcome: Attempt['outcome']): Attempt => ({ name, sql, outcome });
  return [
    // The platform's rows, directly and by stepping out of the role first.
    a('read password hashes', 'SELECT password_hash, security_stamp FROM public.users', DENIED),
    a('read the signing key', "SELECT value FROM public.instance_settings WHERE key = 'jwt_signing_key_v1'", DENIED),
    a('read token hashes with a row lock', 'SELECT token_hash FROM public.tokens FOR UPDATE', DENIED),
    a('RESET ROLE first', 'RESET ROLE; SELECT * FROM public.users', DENIED),
    a('SET ROLE to the platform’s user', 'SET ROLE postgres; SELECT * FROM public.users', DENIED),
    a('SET SESSION AUTHORIZATION', 'SET SESSION AUTHORIZATION postgres; SELECT * FROM public.users', DENIED),
    a('set_config of the role', "SELECT set_config('role', 'postgres', false)", DENIED),
    a('a DO block stepping back', 'DO $$ BEGIN RESET ROLE; PERFORM * FROM public.tokens; END $$', DENIED),
    a(
      'a function that steps back and restores its role',
      'CREATE FUNCTION leak() RETURNS SETOF text LANGUAGE plpgsql AS $f$ DECLARE r text := current_user; BEGIN ' +
        "RESET ROLE; RETURN QUERY SELECT password_hash::text FROM public.users; EXECUTE format('SET LOCAL ROLE %I', " +
        'r); END $f$; SELECT * FROM leak()',
      DENIED,
    ),
    a(
      'a SECURITY DEFINER function',
      'CREATE FUNCTION sd_leak() RETURNS SETOF text LANGUAGE sql SECURITY DEFINER AS $f$ SELECT password_hash ' +
        'FROM public.users $f$; SELECT * FROM sd_leak()',
      DENIED,
    ),
    a('search_path to the platform’s schema', 'SET search_path = public; SELECT * FROM users', DENIED),
    a('leave the transaction, then read', 'COMMIT; SELECT * FROM public.users', DENIED),
    a('a data-modifying CTE', 'WITH gone AS (DELETE FROM public.users RETURNING 1) SELECT count(*) FROM gone', DENIED),
    a('truncate the audit trail', 'TRUNCATE public.audit_log', DENIED),
    a('EXPLAIN ANALYZE a platform table', 'EXPLAIN ANALYZE SELECT * FROM public.users', DENIED),
    a('copy a platform table’s shape', 'CREATE TABLE users_shape (LIKE public.users INCLUDING ALL)', DENIED),
    a('COPY a platform table out', 'COPY public.users TO STDOUT', DENIED),
    // Rights and roles.
    a('ALTER ROLE self SUPERUSER', 'ALTER ROLE CURRENT_USER SUPERUSER', DENIED),
    a('ALTER ROLE self CREATEROLE BYPASSRLS', 'ALTER ROLE CURRENT_USER CREATEROLE CREATEDB BYPASSRLS', DENIED),
    a('ALTER ROLE self CONNECTION LIMIT', 'ALTER ROLE CURRENT_USER CONNECTION LIMIT 0', DENIED),
    a('CREATE ROLE', "CREATE ROLE escapee SUPERUSER LOGIN PASSWORD 'escapee'", DENIED),
    a('GRANT the platform’s role to self', 'GRANT postgres TO CURRENT_USER', DENIED),
    a(
      'GRANT the server file roles to self',
      'GRANT pg_read_server_files, pg_write_server_files, pg_execute_server_program TO CURRENT_USER',
      DENIED,
    ),
    a('GRANT on a platform table', 'GRANT SELECT ON public.users TO CURRENT_USER', DENIED),
    a(
      'ALTER DEFAULT PRIVILEGES of the platform’s user',
      'ALTER DEFAULT PRIVILEGES FOR ROLE postgres IN SCHEMA public GRANT SELECT ON TABLES TO PUBLIC',
      DENIED,
    ),
    a('ALTER DATABASE defaults', `ALTER DATABASE ${database} SET default_transaction_read_only = on`, DENIED),
    a('change the app role’s password', "ALTER ROLE CURRENT_USER PASSWORD 'changed-by-report-sql'", 'ok'),
    a(
      'give the app role defaults',
      'ALTER ROLE CURRENT_USER SET default_transaction_read_only = on; ALTER ROLE CURRENT_USER SET search_path = ' +
        "public; ALTER ROLE CURRENT_USER SET statement_timeout = 0; ALTER ROLE CURRENT_USER SET DateStyle = 'SQL, " +
        "DMY'; ALTER ROLE CURRENT_USER SET TimeZone = 'Pacific/Kiritimati'",
      'ok',
    ),
    a(
      'give the app role defaults in this database',
      `ALTER ROLE CURRENT_USER IN DATABASE ${database} SET lock_timeout = 1; ALTER ROLE CURRENT_USER IN DATABASE ` +
        `${database} SET idle_in_transaction_session_timeout = 1; ALTER ROLE CURRENT_USER IN DATABASE ${database} ` +
        "SET bytea_output = 'escape'",
      'ok',
    ),
    // Settings and the statement limit.
    a('SET LOCAL statement_timeout = 0', 'SET LOCAL statement_timeout = 0; SELECT pg_sleep(3600)', 'timeout'),
    a('sleep past the limit', 'SELECT pg_sleep(3600)', 'timeout'),
    a(
      'catch the cancel',
      'DO $$ BEGIN LOOP BEGIN PERFORM pg_sleep(3600); EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; END $$',
      'timeout',
    ),
    a('leave the transaction, lift the limit', 'COMMIT; SET statement_timeout = 0; SELECT pg_sleep(3600)', 'timeout'),
    a(
      'a deferred trigger sleeping at commit',
      'CREATE TABLE commit_nap (x int); CREATE FUNCTION commit_nap() RETURNS trigger LANGUAGE plpgsql SET ' +
        'statement_timeout = 0 AS $f$ BEGIN PERFORM pg_sleep(3600); RETURN NULL; END $f$; CREATE CONSTRAINT ' +
        'TRIGGER nap AFTER INSERT ON commit_nap DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ' +
        'commit_nap(); INSERT INTO commit_nap VALUES (1)',
      'timeout',
    ),
    a(
      'session settings left for the next report',
      'SET statement_timeout = 0; SET lock_timeout = 0; SET idle_in_transaction_session_timeout = 0; SET ' +
        "search_path = public, app; SET DateStyle = 'SQL, DMY'; SET default_transaction_read_only = on; SET " +
        "bytea_output = 'escape'; SET TimeZone = 'Asia/Tokyo'; SET default_transaction_isolation = 'serializable'",
      'ok',
    ),
    a('session_replication_role', 'SET session_replication_role = replica', DENIED),
    a('a superuser setting', "SET log_statement = 'none'", DENIED),
    a('ALTER SYSTEM, outside the transaction', 'COMMIT; ALTER SYSTEM SET max_connections = 1', DENIED),
    a('reload the configuration', 'SELECT pg_reload_conf()', DENIED),
    // Locks.
    a('the old start-up advisory lock', 'SELECT pg_advisory_lock(28771, 14)', 'ok'),
    a('Kysely’s migration advisory lock', 'SELECT pg_advisory_lock(3853314791062309107)', 'ok'),
    a('many shared advisory locks', 'SELECT count(pg_advisory_lock_shared(k)) FROM generate_series(1, 100) k', 'ok'),
    a('LOCK the start lock’s relation', 'LOCK TABLE public.platform_start_lock IN SHARE UPDATE EXCLUSIVE MODE', DENIED),
    a('LOCK a platform table', 'LOCK TABLE public.users IN ACCESS EXCLUSIVE MODE', DENIED),
    a('a prepared INSERT holding a lock', "PREPARE hold AS INSERT INTO public.audit_log (id) VALUES ('x')", 'ok'),
    // Transactions and session state.
    a('PREPARE TRANSACTION', "PREPARE TRANSACTION 'escape'", { failed: '55000' }),
    a(
      'a cursor WITH HOLD',
      'DECLARE held CURSOR WITH HOLD FOR SELECT * FROM generate_series(1, 1000000); FETCH 1 FROM held',
      'ok',
    ),
    a('LISTEN to the platform’s channel', 'LISTEN platform_core_auth_changes', 'ok'),
    a('a temp table shadowing an app table', "CREATE TEMP TABLE demo_customers AS SELECT 'poisoned' AS name", 'ok'),
    a('a temp view shadowing the directory', 'CREATE TEMP VIEW platform_users AS SELECT 1 AS user_id', 'ok'),
    a(
      'temp functions first on the search_path',
      "CREATE FUNCTION pg_temp.pg_backend_pid() RETURNS int LANGUAGE sql AS 'SELECT 1'; SET search_path = pg_temp, " +
        'app, pg_catalog',
      'ok',
    ),
    a(
      'an operator of its own before pg_catalog',
      "CREATE FUNCTION always_equal(int, int) RETURNS boolean LANGUAGE sql AS 'SELECT true'; CREATE OPERATOR = " +
        '(LEFTARG = int, RIGHTARG = int, FUNCTION = always_equal); SET search_path = app, pg_catalog',
      'ok',
    ),
    a(
      'temp views shadowing the catalogs the platform reads on the connection',
      'CREATE TEMP VIEW pg_stat_activity AS SELECT 0 AS pid, now() AS backend_start; CREATE TEMP VIEW ' +
        'pg_db_role_setting AS SELECT 0::oid AS setrole, 0::oid AS setdatabase; CREATE TEMP VIEW pg_roles AS SELECT ' +
        "'nobody'::name AS rolname, 0::oid AS oid; SET search_path = pg_temp, app, pg_catalog; ALTER ROLE " +
        "CURRENT_USER SET DateStyle = 'SQL, DMY'",
      'ok',
    ),
    a('terminate its own backend', 'SELECT pg_terminate_backend(pg_backend_pid())', { failed: '57P01' }),
    // Files, programs, server paths.
    a('COPY TO a file', `COPY (SELECT 'x') TO '${target}/copy'`, DENIED),
    a('COPY TO PROGRAM', `COPY (SELECT 'x') TO PROGRAM 'touch ${target}/program'`, DENIED),
    a('COPY FROM a file', "CREATE TEMP TABLE loot (line text); COPY loot FROM '/etc/passwd'", DENIED),
    a('COPY FROM PROGRAM', "CREATE TEMP TABLE loot (line text); COPY loot FROM PROGRAM 'id'", DENIED),
    a('lo_import', "SELECT lo_import('/etc/passwd')", DENIED),
    a('lo_export', `SELECT lo_export(lo_from_bytea(0, 'x'), '${target}/lo')`, DENIED),
    a('pg_read_file', "SELECT pg_read_file('/etc/passwd')", DENIED),
    a('pg_read_binary_file of the configuration', "SELECT pg_read_binary_file('postgresql.conf')", DENIED),
    a('pg_ls_dir', "SELECT pg_ls_dir('.')", DENIED),
    a('pg_stat_file', "SELECT pg_stat_file('pg_hba.conf')", DENIED),
    a('the server’s paths', "SELECT current_setting('data_directory'), current_setting('hba_file')", DENIED),
    a('pg_file_settings', 'SELECT * FROM pg_file_settings', DENIED),
    a('pg_hba_file_rules', 'SELECT * FROM pg_hba_file_rules', DENIED),
    // Extensions and code the server would run.
    a('CREATE EXTENSION dblink', 'CREATE EXTENSION dblink', DENIED),
    a('CREATE EXTENSION postgres_fdw', 'CREATE EXTENSION postgres_fdw', DENIED),
    a('call dblink', `SELECT dblink_connect('dbname=${database}')`, { failed: '42883' }),
    a('a C function', "CREATE FUNCTION shell() RETURNS int LANGUAGE c AS '/bin/sh', 'main'", DENIED),
    a('LOAD a library', "LOAD '/usr/lib/postgresql/15/lib/dblink.so'", DENIED),
    a(
      'an event trigger',
      'CREATE FUNCTION on_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $f$ BEGIN END $f$; CREATE EVENT TRIGGER ' +
        'on_ddl ON ddl_command_start EXECUTE FUNCTION on_ddl()',
      DENIED,
    ),
    // Catalogs and the platform's sessions.
    a('pg_authid', 'SELECT rolname, rolpassword FROM pg_authid', DENIED),
    a('pg_shadow', 'SELECT * FROM pg_shadow', DENIED),
    a('pg_statistic', 'SELECT * FROM pg_statistic', DENIED),
    a('pg_largeobject', 'SELECT * FROM pg_largeobject', DENIED),
    a(
      'pg_stats of the platform’s columns',
      "SELECT attname, most_common_vals::text FROM pg_stats WHERE schemaname = 'public'",
      'ok',
    ),
    a(
      'the platform’s queries in pg_stat_activity',
      'SELECT usename, query FROM pg_stat_activity WHERE usename IS DISTINCT FROM current_user',
      'ok',
    ),
    a(
      'terminate the platform’s sessions',
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename IS DISTINCT FROM current_user',
      DENIED,
    ),
    a(
      'cancel the platform’s sessions',
      'SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE usename IS DISTINCT FROM current_user',
      DENIED,
    ),
    a('CHECKPOINT', 'CHECKPOINT', DENIED),
    // Objects where the platform looks.
    a('CREATE SCHEMA', 'CREATE SCHEMA escape', DENIED),
    a('a table in the platform’s schema', 'CREATE TABLE public.users_copy (x int)', DENIED),
    a(
      'a cancel hook in platform_hooks',
      "CREATE FUNCTION platform_hooks.user_cancel(p text) RETURNS void LANGUAGE sql AS 'SELECT 1'",
      DENIED,
    ),
    a('cancel hooks planted in schema app', PLANTED_CANCEL_HOOKS, 'ok'),
    a(
      'replace the directory view',
      'CREATE OR REPLACE VIEW platform_users AS SELECT password_hash AS user_id FROM public.users',
      DENIED,
    ),
    a('write through the directory view', "UPDATE platform_users SET username = 'mallory'", { failed: '55000' }),
    a('a rule on a platform table', 'CREATE RULE quiet AS ON INSERT TO public.audit_log DO INSTEAD NOTHING', DENIED),
    a(
      'a trigger on a platform table',
      'CREATE FUNCTION on_users() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN RETURN NEW; END $f$; CREATE ' +
        'TRIGGER on_users BEFORE UPDATE ON public.users FOR EACH ROW EXECUTE FUNCTION on_users()',
      DENIED,
    ),
    a('a policy on a platform table', 'CREATE POLICY everyone ON public.users USING (true)', DENIED),
    a('NOTIFY the platform’s channel', `NOTIFY platform_core_auth_changes, '{"all":true}'`, 'ok'),
  ];
}
