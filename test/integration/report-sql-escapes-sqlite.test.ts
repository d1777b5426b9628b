// Report SQL on SQLite cannot open any database file but the apps' one, whatever it does first:
// a corpus of escape attempts (the probe's reproduction and its variants), each run as an SRS
// command through the HTTP API. After each one no platform row has changed, no secret is in
// the answer, no file was written, and ordinary reports still see the apps' real data (no
// connection poisoned for the next report). Seeds, which run at start, are held the same way.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase } from '../support/databases.js';
import { ADMIN, startInstance } from '../support/instance.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';
import { platformSecrets, platformSnapshot } from './platform-snapshot.js';

/** One attempt: its commands (one SRS definition each, run in order, one request each). */
interface Attempt {
  name: string;
  steps: string[];
}

/** `s` as an SQL string literal. */
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

function attempts(platformFile: string, canary: string): Attempt[] {
  const p = lit(platformFile);
  const c = (name: string) => lit(join(canary, name));
  const fromMainFile =
    "(SELECT replace(file, '-apps.sqlite', '.sqlite') FROM main.pragma_database_list WHERE name='main')";
  const one = (name: string, sql: string): Attempt => ({ name, steps: [sql] });
  return [
    one(
      'the probe’s reproduction',
      "CREATE TEMP VIEW pragma_database_list AS SELECT 'main' AS name, 0 AS seq, '' AS file; " +
        `ATTACH DATABASE ${fromMainFile} AS p; SELECT key, value FROM p.instance_settings`,
    ),
    {
      name: 'the reproduction split over two reports (shadow view kept in the connection)',
      steps: [
        "CREATE TEMP VIEW pragma_database_list AS SELECT 'main' AS name, 0 AS seq, '' AS file; SELECT 1 AS ok",
        `ATTACH DATABASE ${fromMainFile} AS p; SELECT key, value FROM p.instance_settings`,
      ],
    },
    one('attach by literal path', `ATTACH DATABASE ${p} AS p; SELECT * FROM p.users`),
    one('attach by expression', `ATTACH ${fromMainFile} AS p; SELECT password_hash FROM p.users`),
    one(
      'attach by concatenation',
      `ATTACH DATABASE ${lit(platformFile.slice(0, 5))} || ${lit(platformFile.slice(5))} AS p; SELECT * FROM p.tokens`,
    ),
    one('attach with a relative path', "ATTACH DATABASE 'platform-core.sqlite' AS p; SELECT * FROM p.users"),
    one('attach as a URI', `ATTACH DATABASE ${lit(`file:${platformFile}?mode=ro`)} AS p; SELECT * FROM p.users`),
    one('attach in memory', "ATTACH DATABASE ':memory:' AS m; CREATE TABLE m.t (x); SELECT 1 AS ok"),
    one('attach a new file', `ATTACH DATABASE ${c('new.db')} AS x; CREATE TABLE x.t (a); SELECT 1 AS ok`),
    one('attach after COMMIT', `COMMIT; ATTACH DATABASE ${p} AS p; SELECT * FROM p.users`),
    one('attach after END', `END; ATTACH DATABASE ${p} AS p; SELECT * FROM p.users`),
    one('attach after ROLLBACK', `ROLLBACK; ATTACH DATABASE ${p} AS p; SELECT * FROM p.users`),
    one('attach in a savepoint', `SAVEPOINT s; ATTACH DATABASE ${p} AS p; RELEASE s; SELECT * FROM p.users`),
    one(
      'shadowing pragma_database_list with a temp table',
      'CREATE TEMP TABLE pragma_database_list (seq, name, file); ' + `ATTACH DATABASE ${p} AS p; SELECT * FROM p.users`,
    ),
    one(
      'shadowing pragma_database_list with a view in the apps’ file',
      "CREATE VIEW IF NOT EXISTS pragma_database_list AS SELECT 0 AS seq, 'main' AS name, '' AS file; " +
        `ATTACH DATABASE ${p} AS p; SELECT * FROM p.users`,
    ),
    one(
      'shadowing the database list through a CTE',
      "WITH pragma_database_list AS (SELECT 'main' AS name) SELECT * FROM pragma_database_list; " +
        `ATTACH ${p} AS p; SELECT * FROM p.users`,
    ),
    one('shadowing sqlite_master', 'CREATE TEMP VIEW sqlite_master AS SELECT 1 AS x; SELECT 1 AS ok'),
    one('shadowing sqlite_temp_master', 'CREATE VIEW sqlite_temp_master AS SELECT 1 AS x; SELECT 1 AS ok'),
    one('detaching main', 'DETACH DATABASE main; SELECT 1 AS ok'),
    one('detaching temp', 'DETACH DATABASE temp; SELECT 1 AS ok'),
    one('VACUUM INTO a new file', `VACUUM INTO ${c('copy.db')}`),
    one('VACUUM INTO the platform’s file', `VACUUM INTO ${p}`),
    one('VACUUM INTO after COMMIT', `COMMIT; VACUUM INTO ${c('copy2.db')}`),
    one('VACUUM after COMMIT', 'COMMIT; VACUUM'),
    one(
      'load_extension of a system library',
      "SELECT load_extension('/usr/lib/x86_64-linux-gnu/libsqlite3.so.0') AS x",
    ),
    one('load_extension of fileio', "SELECT load_extension('fileio') AS x"),
    one('readfile', `SELECT readfile(${p}) AS x`),
    one('writefile', `SELECT writefile(${c('w.txt')}, 'x') AS x`),
    one('the attach function by name', `SELECT sqlite_attach(${p}, 'p', NULL) AS x`),
    one('fts3_tokenizer pointer', "SELECT fts3_tokenizer('simple') AS x"),
    one('dbstat of another schema', "SELECT * FROM dbstat('p')"),
    one('sqlite_dbpage', 'SELECT * FROM sqlite_dbpage'),
    one('writable schema', "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = 'x' WHERE 0; SELECT 1 AS ok"),
    one('writable schema after COMMIT', 'COMMIT; PRAGMA writable_schema = ON; SELECT 1 AS ok'),
    one('journal mode off', 'PRAGMA journal_mode = OFF; SELECT 1 AS ok'),
    one('journal mode after COMMIT', 'COMMIT; PRAGMA journal_mode = DELETE; SELECT 1 AS ok'),
    one('temp_store_directory', `PRAGMA temp_store_directory = ${c('')}; SELECT 1 AS ok`),
    one('platform tables by name', 'SELECT * FROM users'),
    one('platform tables through main', "SELECT value FROM main.instance_settings WHERE key LIKE 'jwt%'"),
    one('the user directory cannot be used to write accounts', "UPDATE platform_users SET username = 'mallory'"),
    {
      name: 'a temp view shadowing the apps’ table for the next report',
      steps: ["CREATE TEMP VIEW demo_customers AS SELECT 'fake' AS name; SELECT 1 AS ok"],
    },
    {
      name: 'a temp table shadowing the apps’ table for the next report',
      steps: ["CREATE TEMP TABLE demo_customers AS SELECT 'fake' AS name; SELECT 1 AS ok"],
    },
    {
      name: 'a temp trigger left for the next report',
      steps: [
        'CREATE TEMP TABLE IF NOT EXISTS seen (x); CREATE TEMP TRIGGER spy AFTER INSERT ON seen BEGIN ' +
          "SELECT RAISE(ABORT, 'poisoned'); END; SELECT 1 AS ok",
      ],
    },
    {
      name: 'an exclusive lock left in the connection',
      steps: ['PRAGMA locking_mode = EXCLUSIVE; SELECT COUNT(*) AS n FROM demo_customers'],
    },
    {
      name: 'query_only left in the connection',
      steps: ['PRAGMA query_only = ON; SELECT 1 AS ok'],
    },
    {
      name: 'a renamed apps’ table is not the platform’s',
      steps: ['CREATE TEMP VIEW users AS SELECT 1 AS password_hash; SELECT * FROM users'],
    },
  ];
}

const ATTEMPT_NAMES = attempts('/platform.sqlite', '/canary').map((a) => a.name);

/** Ordinary SQL a later report runs: it must see the apps' real rows. */
const CHECK = "SELECT COUNT(*) AS n FROM demo_customers WHERE name <> 'fake'; ";

describe('report SQL on SQLite reaches no file but the apps’ one', () => {
  let f: SrsFixture;
  let platformFile: string;
  let canary: string;
  let next = 800;
  const srsDir = () => join(f.appsDir, 'demo', 'srs');
  const data = (id: number) => f.as(f.adminJwt, `/api/srs/${id}/data.json?app_name=demo`);
  /** Installs `sql` as a one-command definition; its id. */
  const install = (sql: string, command = 'escape') => {
    const id = next++;
    const text = sql.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    writeFileSync(
      join(srsDir(), `${id}-escape.xml`),
      `<srs label="Escape ${id}"><def><itm model="command" name="${command}">${text}</itm></def></srs>`,
    );
    return id;
  };
  let realCount: number;
  let checkId: number;
  let before: Record<string, string>;
  let secrets: string[];
  let dataDir: string;
  let dataFiles: string[];

  beforeAll(async () => {
    f = await startSrsFixture('sqlite');
    platformFile = f.inst.services.database.description;
    canary = join(f.appsDir, 'canary');
    mkdirSync(canary);
    checkId = install(`${CHECK}SELECT COUNT(*) AS n FROM demo_customers`, 'check');
    const r = await data(checkId);
    expect(r.status, r.text).toBe(200);
    realCount = r.body.data.check[0].n;
    expect(realCount).toBeGreaterThan(0);
    before = await platformSnapshot(f.inst.services.database.db);
    secrets = await platformSecrets(f.inst.services.database.db);
    // Password hashes and stamps of three accounts, and the signing key at least.
    expect(secrets.length).toBeGreaterThanOrEqual(7);
    dataDir = join(platformFile, '..');
    dataFiles = readdirSync(dataDir).sort();
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it('has at least 40 attempts', () => {
    expect(ATTEMPT_NAMES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(ATTEMPT_NAMES)('%s: no platform row read or changed, no file written, no report poisoned', async (name) => {
    const attempt = attempts(platformFile, canary).find((a) => a.name === name);
    if (!attempt) throw new Error(`no attempt ${name}`);
    for (const step of attempt.steps) {
      const r = await data(install(step));
      expect([200, 422], `${r.status} ${r.text.slice(0, 300)}`).toContain(r.status);
      for (const secret of secrets) expect(r.text, 'a secret in the answer').not.toContain(secret);
      expect(r.text).not.toMatch(/argon2|security_stamp|password_hash"\s*:\s*"/);
    }
    // Every command process, whichever ran the attempt, still sees the apps' real rows.
    const checks = await Promise.all([0, 1, 2, 3].map(() => data(checkId)));
    for (const r of checks) {
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      expect(r.body.data.check).toEqual([{ n: realCount }]);
    }
    expect(await platformSnapshot(f.inst.services.database.db)).toEqual(before);
    expect(readdirSync(canary)).toEqual([]);
    // Nothing written beside the platform's files, or where a relative name would land.
    expect(readdirSync(dataDir).sort()).toEqual(dataFiles);
    expect(existsSync(join(process.cwd(), 'platform-core.sqlite'))).toBe(false);
  });

  it('objects planted in the apps’ schema stop nothing of the platform: cancel, user directory, restart', async () => {
    // SQLite refuses to attach a schema whose view names another database ("malformed"): the
    // platform's connections must not depend on attaching the apps' file.
    const planted = await data(install('CREATE VIEW planted_users AS SELECT * FROM main.users'));
    expect(planted.status, planted.text).toBe(200);
    const created = await f.as(f.adminJwt, '/api/core/account/create', {
      method: 'POST',
      json: { username: 'planted.victim', password: 'planted-password-1' },
    });
    expect(created.status, created.text).toBe(201);
    const directory = await data(install('SELECT username FROM platform_users ORDER BY username', 'people'));
    expect(directory.status, directory.text).toBe(200);
    expect(directory.body.data.people.map((p: { username: string }) => p.username)).toContain('planted.victim');
    const cancelled = await f.as(f.adminJwt, '/api/core/account/cancel/planted.victim', { method: 'POST' });
    expect(cancelled.status, cancelled.text).toBe(200);
    const inst = await startInstance(f.db, { APPS_DIR: f.appsDir });
    try {
      expect((await inst.request('/readyz')).status).toBe(200);
      const jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
      const r = await inst.request(`/api/srs/${checkId}/data.json?app_name=demo`, {
        headers: { Authorization: `Bearer ${jwt}` },
      });
      expect(r.body.data.check).toEqual([{ n: realCount }]);
    } finally {
      await inst.stop();
    }
  });

  it('the demo app still renders afterwards', async () => {
    const r = await f.as(f.adminJwt, '/api/srs/1/invoice.frx.pdf?app_name=demo&order_id=1004');
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
  });

  it('a seed trying the same fails alone: the server starts, no platform row is read or changed', async () => {
    const db = f.inst.services.database.db;
    const before = await platformSnapshot(db);
    // The seed's own transaction holds the platform file's write lock, so what it could do is
    // read: it copies the settings into a table of the apps' file for a report to read later.
    const seed =
      "CREATE TEMP VIEW pragma_database_list AS SELECT 'main' AS name, 0 AS seq, '' AS file;\n" +
      `ATTACH DATABASE ${lit(platformFile)} AS p;\n` +
      'CREATE TABLE seed_loot AS SELECT key, value FROM p.instance_settings;\n';
    writeFileSync(join(f.appsDir, 'other', 'seed.sql'), seed);
    const inst = await startInstance(f.db, { APPS_DIR: f.appsDir });
    try {
      expect((await inst.request('/healthz')).status).toBe(200);
      await expect.poll(() => inst.logs(), { timeout: 5000 }).toContain('the seed seed.sql of app other failed');
      expect(await platformSnapshot(db)).toEqual(before);
    } finally {
      await inst.stop();
    }
    const loot = await data(install('SELECT * FROM seed_loot'));
    for (const secret of secrets) expect(loot.text).not.toContain(secret);
    expect(loot.status).toBe(422);
  });
});
