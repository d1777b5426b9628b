// PostgreSQL lets any role change its own password, report SQL's app role included. The platform
// keeps the app role's password (instance_settings): a login refused for its password puts it
// back, and reports keep working on new connections. On a cluster of this file's own
// (private-postgres.ts), whose pg_hba.conf asks the app role for its password: the shared
// cluster trusts every local login.
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.js';
import { makeSrsAppsDir } from './srs-fixture.js';
import { loadAppLogin } from '../../src/srs/app-role.js';

const server = await startPrivatePostgres();
if (!server) {
  if (process.env.REQUIRE_POSTGRES === '1')
    throw new Error('REQUIRE_POSTGRES=1 but no PostgreSQL server binaries were found');
  process.stderr.write('app-role-login-postgres: PostgreSQL tests SKIPPED (no server binaries)\n');
}

describe.skipIf(!server)('the app role’s login on PostgreSQL', () => {
  const pgs = server as PrivatePostgres;
  let dataDir: string;
  let appsDir: string;
  let databaseUrl: string;
  let inst: Instance;
  let jwt: string;
  let login: { user: string; password: string };
  const report = (id: number, text: string) => {
    writeFileSync(
      join(appsDir, 'demo', 'srs', `${id}-login.xml`),
      `<srs label="Login"><def><itm model="command" name="x">${text}</itm></def></srs>`,
    );
    return inst.request(`/api/srs/${id}/data.json?app_name=demo`, { headers: { Authorization: `Bearer ${jwt}` } });
  };
  /** Ends the app role's connections, so the next report logs in afresh. */
  const newConnections = async () => {
    const db = inst.services.database.db;
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where usename = ${login.user}`.execute(db);
    await expect
      .poll(async () => (await sql`select pid from pg_stat_activity where usename = ${login.user}`.execute(db)).rows)
      .toEqual([]);
  };
  /** A login of the app role's own with `password`: the SQLSTATE it is refused with, or 'ok'. */
  const tryLogin = async (password: string) => {
    const url = new URL(databaseUrl);
    url.username = login.user;
    url.password = password;
    const client = new pg.Client({ connectionString: url.toString() });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return 'ok';
    } catch (err) {
      return (err as { code?: string }).code;
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'platform-core-app-login-'));
    appsDir = makeSrsAppsDir();
    databaseUrl = await pgs.createDatabase('applogin');
    inst = await startInstance(
      { kind: 'postgres', databaseUrl, dataDir },
      { APPS_DIR: appsDir, Settings__RenderWorkers: '1' },
    );
    jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
    login = await loadAppLogin(inst.services.database.db);
    // From now on the app role must give its password; every other login stays trusted.
    const [hba] = await pgs.query<{ setting: string }>(
      databaseUrl,
      "select setting from pg_settings where name = 'hba_file'",
    );
    writeFileSync(
      hba!.setting,
      `host all ${login.user} 127.0.0.1/32 scram-sha-256\n${readFileSync(hba!.setting, 'utf8')}`,
    );
    await pgs.query(databaseUrl, 'select pg_reload_conf()');
  });
  afterAll(async () => {
    await inst?.stop();
    await pgs?.destroy();
    await rm(dataDir, { recursive: true, force: true });
    await rm(appsDir, { recursive: true, force: true });
  });

  it('the app role logs in with its kept password, and only with it', async () => {
    expect(await tryLogin('not-the-password')).toBe('28P01');
    expect(await tryLogin(login.password)).toBe('ok');
    await newConnections();
    const r = await report(901, 'SELECT COUNT(*) AS n FROM demo_customers');
    expect(r.status, r.text).toBe(200);
  });

  it('report SQL changing the app role’s password: the platform puts it back and reports keep working', async () => {
    const changed = await report(902, "ALTER ROLE CURRENT_USER PASSWORD 'changed-by-report-sql'");
    expect(changed.status, changed.text).toBe(200);
    expect(await tryLogin(login.password)).toBe('28P01');
    await newConnections();
    const next = await report(903, 'SELECT COUNT(*) AS n FROM demo_customers');
    expect(next.status, next.text).toBe(200);
    expect(next.body.data.x[0].n).toBeGreaterThan(0);
    expect(await tryLogin(login.password)).toBe('ok');
    expect(await tryLogin('changed-by-report-sql')).toBe('28P01');
    expect(inst.logs()).toMatch(/the app role’s login was refused: its password is put back/);
  });
});
