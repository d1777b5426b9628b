// Report SQL cannot escape the app role on PostgreSQL: a corpus of escape attempts, each run as an
// SRS command through the HTTP API. After each one: no platform row changed, the answer holds no
// secret, no file was written, no statement or lock of it is left, and the next ordinary report
// (on the same pooled connection, then on a new one) and the demo app answer exactly as before.
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import { CLI_ACTOR } from '../../src/audit/audit-actions.js';
import { loadAppLogin } from '../../src/srs/app-role.js';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';
import { commandFailureCause, fileListing, platformSecrets, platformSnapshot } from './platform-snapshot.js';
import { escapeAttempts, type Attempt } from './report-sql-escapes-postgres.corpus.js';

const onPostgres = testDatabaseKinds().includes('postgres');
const LIMIT_SECONDS = 2;

/** The ordinary report run after each attempt: the session's state as a report sees it. */
const PROBE_SQL = `CREATE TEMP TABLE probe_write (x int); INSERT INTO probe_write VALUES (1); DROP TABLE probe_write;
SELECT current_user AS who, session_user AS login, current_setting('statement_timeout') AS statement_timeout,
  current_setting('search_path') AS search_path, current_setting('transaction_read_only') AS read_only,
  current_setting('DateStyle') AS datestyle, current_setting('TimeZone') AS timezone,
  current_setting('lock_timeout') AS lock_timeout, current_setting('default_transaction_isolation') AS isolation,
  current_setting('idle_in_transaction_session_timeout') AS idle_timeout, current_setting('bytea_output') AS bytea,
  (SELECT count(*) FROM pg_prepared_statements) AS prepared, (SELECT count(*) FROM pg_cursors) AS cursors,
  (SELECT count(*) FROM pg_listening_channels()) AS listening,
  (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()) AS advisory_locks,
  (SELECT count(*) FROM pg_class WHERE relnamespace = pg_my_temp_schema()) AS temp_relations,
  (SELECT count(*) FROM demo_customers) AS customers, (SELECT min(name) FROM demo_customers) AS first_customer,
  (SELECT count(*) FROM platform_users) AS directory`;

const xmlText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe.runIf(onPostgres)('report SQL escape attempts on PostgreSQL', () => {
  let f: SrsFixture;
  let appRole: string;
  let target: string;
  let attempts: Attempt[];
  let probeBaseline: unknown;
  let demoBaseline: unknown;
  let secrets: string[];
  let dataDirFiles: string[];
  let firstSnapshot: Record<string, string>;
  const platform = () => f.inst.services.database.db;
  const srsDir = () => join(f.appsDir, 'demo', 'srs');
  const data = (id: number | string, query = '') => f.as(f.adminJwt, `/api/srs/${id}/data.json?app_name=demo${query}`);
  const probe = async () => {
    const r = await data(699);
    expect(r.status, r.text).toBe(200);
    return r.body.data.state;
  };
  const demo = async () => {
    const r = await data(1, '&order_id=1004');
    expect(r.status, r.text).toBe(200);
    return r.body.data;
  };
  const appBackends = async () =>
    (
      await sql<{ pid: number; state: string | null }>`
        select pid, state from pg_stat_activity where usename = ${appRole}`.execute(platform())
    ).rows;
  /** The reports pool's connections now (total, idle, waiting). */
  const reportsPool = () =>
    (f.inst.services.metrics as unknown as { databasePools: Map<string, () => { total: number }> }).databasePools.get(
      'reports',
    )!();
  /** Ends every app-role connection from outside, so the next report logs in afresh. */
  const newConnections = async () => {
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where usename = ${appRole}`.execute(platform());
    await expect.poll(appBackends).toEqual([]);
    await expect.poll(() => reportsPool().total).toBe(0);
  };

  beforeAll(async () => {
    f = await startSrsFixture('postgres', { Settings__SrsStatementTimeoutSeconds: String(LIMIT_SECONDS) });
    appRole = (await loadAppLogin(platform())).user;
    // Where the server (another OS user) could write, were it allowed: a file there is the SQL's.
    target = mkdtempSync(join(tmpdir(), 'pc-escape-target-'));
    chmodSync(target, 0o777);
    attempts = escapeAttempts({ target, appRole, database: new URL(f.db.databaseUrl!).pathname.slice(1) });
    // A token, so that token hashes are among the secrets looked for.
    const token = await f.as(f.adminJwt, '/api/core/token/create/escape-corpus', { method: 'POST' });
    expect(token.status, token.text).toBe(201);
    await createAccount(platform(), { username: 'victim', password: 'a password for that account' }, CLI_ACTOR);
    writeFileSync(
      join(srsDir(), '699-probe.xml'),
      '<srs label="Probe"><def><itm model="command" name="state" opts="dtsingle">' +
        `${xmlText(PROBE_SQL)}</itm></def></srs>`,
    );
    probeBaseline = await probe();
    demoBaseline = await demo();
    secrets = await platformSecrets(platform());
    dataDirFiles = fileListing(f.db.dataDir);
    firstSnapshot = await platformSnapshot(platform());
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
    if (target) rmSync(target, { recursive: true, force: true });
  });

  it('the corpus has at least 40 attempts, each under a name of its own', () => {
    expect(attempts.length).toBeGreaterThanOrEqual(40);
    expect(new Set(attempts.map((a) => a.name)).size).toBe(attempts.length);
  });

  for (const [i, name] of escapeAttempts({ target: '', appRole: '', database: '' })
    .map((a) => a.name)
    .entries()) {
    it(`${name}: nothing of the platform is read or changed, and reports run as before`, async () => {
      const attempt = attempts[i]!;
      const id = 800 + i;
      writeFileSync(
        join(srsDir(), `${id}-escape.xml`),
        `<srs label="Escape"><def><itm model="command" name="escape">${xmlText(attempt.sql)}</itm></def></srs>`,
      );
      const before = await platformSnapshot(platform());
      const r = await data(id);
      const cause = commandFailureCause(f.inst.logs(), r.headers.get('x-request-id'));
      const outcome = attempt.outcome;
      if (outcome === 'ok') expect(r.status, r.text).toBe(200);
      else if (outcome === 'timeout') {
        expect(r.status, r.text).toBe(422);
        expect(r.body.message).toMatch(/ran longer than the statement timeout/);
      } else {
        expect(r.status, r.text).toBe(422);
        expect(r.body.data.code).toBe('command_failed');
        expect(cause.code, `${cause.code}: ${cause.message}`).toBe(outcome.failed);
      }
      // Nothing read, changed or written.
      for (const secret of secrets) expect(r.text.includes(secret), 'a secret in the answer').toBe(false);
      expect(await platformSnapshot(platform())).toEqual(before);
      expect(readdirSync(target)).toEqual([]);
      expect(fileListing(f.db.dataDir)).toEqual(dataDirFiles);
      // Nothing of it still runs or holds a lock.
      await expect.poll(async () => (await appBackends()).filter((b) => b.state !== 'idle')).toEqual([]);
      const advisory = await sql<{ n: number }>`
        select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where a.usename = ${appRole} and l.locktype = 'advisory'`.execute(platform());
      expect(advisory.rows[0]!.n).toBe(0);
      // The next report, on the same connection and then on a new one, sees what it saw before.
      expect(await probe()).toEqual(probeBaseline);
      expect(await demo()).toEqual(demoBaseline);
      await newConnections();
      expect(await probe()).toEqual(probeBaseline);
      // Settings it gave the app role itself are gone, not only overridden.
      const roleSettings = await sql<{ n: number }>`
        select count(*)::int as n from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
        where r.rolname = ${appRole}`.execute(platform());
      expect(roleSettings.rows[0]!.n).toBe(0);
    });
  }

  it('after the corpus: no platform row changed, an account cancels, and the demo app renders', async () => {
    const now = await platformSnapshot(platform());
    // Only the test's own requests wrote: no row of the audit trail was added by report SQL.
    expect({ ...now, audit_log: '' }).toEqual({ ...firstSnapshot, audit_log: '' });
    expect(now.audit_log).toBe(firstSnapshot.audit_log);
    const cancel = await f.as(f.adminJwt, '/api/core/account/cancel/victim', { method: 'POST' });
    expect(cancel.status, cancel.text).toBe(200);
    const pdf = await f.bytes(f.adminJwt, '/api/srs/1/invoice.frx.pdf?app_name=demo&order_id=1004');
    expect(pdf.status).toBe(200);
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    const html = await f.as(f.adminJwt, '/api/srs/2/sales-by-customer.frx.html?app_name=demo');
    expect(html.status).toBe(200);
    expect(existsSync(join(target, 'copy'))).toBe(false);
  });
});
