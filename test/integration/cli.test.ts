// The `platform-core` command, run for real: `node bin/platform-core.js …` in a child process
// (so it runs the compiled dist/, exactly as an operator would), against a test database of
// every kind, while a server instance uses the same database.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrations } from '../../src/db/migrations/index.js';
import {
  expectFailure,
  expectSuccess,
  killChildren,
  REPO_ROOT,
  runCli,
  said,
  startServe,
} from '../support/cli-child.js';

const TOKEN_VALUE = /^pct_[A-Za-z0-9_-]{38}$/;

const ALICE_PASSWORD = 'hers: a long enough password';
const BOB_PASSWORD = 'his: another long password';

// ---------------------------------------------------------------------------------------------
// Running the CLI

function dbEnv(db: TestDatabase): Record<string, string | undefined> {
  return { DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl };
}

/**
 * The files under `dir` (recursively) that contain any of `needles`, plus how many files were
 * searched. Runs in a child process on purpose: this process holds the test instance's SQLite
 * connection, and opening and closing the database files with plain fs calls here would drop
 * the POSIX locks SQLite holds on them (closing any descriptor of a file releases all of the
 * process's locks on it), which corrupts the WAL coordination with the CLI processes.
 */
function filesContaining(dir: string, needles: string[]): { searched: string[]; found: string[] } {
  const script = `
    const { readdirSync, readFileSync } = require('node:fs');
    const { join } = require('node:path');
    const { dir, needles } = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
    const searched = [], found = [];
    const walk = (d) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.isFile()) {
          searched.push(p);
          const content = readFileSync(p);
          if (needles.some((n) => content.includes(n))) found.push(p);
        }
      }
    };
    walk(dir);
    process.stdout.write(JSON.stringify({ searched, found }));
  `;
  const r = spawnSync(process.execPath, ['-e', script], { input: JSON.stringify({ dir, needles }), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scanning ${dir} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { searched: string[]; found: string[] };
}

// ---------------------------------------------------------------------------------------------

beforeAll(() => {
  // bin/platform-core.js runs the compiled CLI; `npm test` builds first, a direct vitest run
  // may not have.
  if (!existsSync(join(REPO_ROOT, 'dist', 'cli', 'main.js'))) {
    const build = spawnSync('npm', ['run', 'build'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      shell: process.platform === 'win32',
    });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  }
}, 180_000);

afterAll(killChildren);

describe.each(testDatabaseKinds())('platform-core CLI on %s', (kind) => {
  let db: TestDatabase;
  let instance: Instance | undefined;
  const cli = (args: string[], input?: string) =>
    runCli(args, { env: dbEnv(db), ...(input !== undefined ? { input } : {}) });
  const server = (): Instance => {
    if (!instance) throw new Error('the server instance did not start (see the earlier failure)');
    return instance;
  };
  const dbOf = () => server().services.database.db;
  const userNamed = (username: string) =>
    dbOf().selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    try {
      await instance?.stop();
    } finally {
      await dropTestDatabase(db);
    }
  });

  it('migrate creates the schema, exits 0, and is idempotent', async () => {
    const first = await cli(['migrate']);
    expectSuccess(first);
    expect(first.stdout).toMatch(/up to date/);

    const second = await cli(['migrate']);
    expectSuccess(second);

    const handle = openDatabase({ databaseUrl: db.databaseUrl ?? null, dataDir: db.dataDir, poolSize: 1 });
    try {
      const applied = await handle.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect((applied as { name: string }[]).map((r) => r.name).sort()).toEqual(Object.keys(migrations).sort());
      // The system roles exist after migrate (the CLI ensures them).
      const roles = (await handle.db.selectFrom('roles').select('name').execute()).map((r) => r.name);
      expect(roles).toEqual(expect.arrayContaining(['sys_administrator', 'sys_tokens']));
    } finally {
      await handle.close();
    }
    if (kind === 'sqlite') expect(existsSync(join(db.dataDir, 'platform-core.sqlite'))).toBe(true);
  });

  it('a server instance starts on the database the CLI migrated', async () => {
    // AuthCacheSeconds 0: the instance re-reads account state on every request, so changes the
    // CLI makes are visible at once (with the default, only within 30 s).
    instance = await startInstance(db, {
      Settings__AuthCacheSeconds: '0',
      Settings__LoginRateLimitPerUser: '100000',
      Settings__LoginRateLimitPerAddress: '100000',
    });
    expect(instance.config.settings.authCacheSeconds).toBe(0);
    expect((await instance.request('/healthz')).status).toBe(200);
    expect((await instance.login(ADMIN.username, ADMIN.password)).status).toBe(200);
  });

  it('user add --password-stdin creates a user who can log in over HTTP (while the server runs)', async () => {
    const r = await cli(
      ['user', 'add', 'alice', '--password-stdin', '--role', 'sys_tokens', '--team', 'COM'],
      `${ALICE_PASSWORD}\n`,
    );
    expectSuccess(r);
    expect(r.stdout).toMatch(/^created user alice \([0-9a-f-]{36}\)\n$/);
    // The password is never echoed.
    expect(r.stdout + r.stderr).not.toContain(ALICE_PASSWORD);

    const ok = await server().login('alice', ALICE_PASSWORD);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.username).toBe('alice');
    expect(typeof ok.body.data.token).toBe('string');

    const wrong = await server().login('alice', `${ALICE_PASSWORD}x`);
    expect(wrong.status, wrong.text).toBe(401);

    // The trailing newline of the input is not part of the password.
    expect((await server().login('alice', `${ALICE_PASSWORD}\n`)).status).toBe(401);

    const alice = await userNamed('alice');
    expect(alice).toBeDefined();
    const roles = await dbOf().selectFrom('user_roles').select('role_name').where('user_id', '=', alice!.id).execute();
    expect(roles.map((x) => x.role_name)).toEqual(['sys_tokens']);
    const teams = await dbOf()
      .selectFrom('team_members')
      .innerJoin('teams', 'teams.id', 'team_members.team_id')
      .select('teams.short')
      .where('team_members.user_id', '=', alice!.id)
      .execute();
    expect(teams.map((t) => t.short)).toEqual(['COM']);
  });

  it('user add of an existing user exits non-zero with a clear message and changes nothing', async () => {
    const before = await userNamed('alice');
    const r = await cli(['user', 'add', 'alice', '--password-stdin'], 'a different password\n');
    expectFailure(r, /alice already exists/);
    expect(r.stdout).toBe('');
    // Same account, old password still works, new one does not.
    expect((await userNamed('alice'))?.password_hash).toBe(before?.password_hash);
    expect((await server().login('alice', 'a different password')).status).toBe(401);
  });

  it('user add without --password-stdin exits 2 with usage and creates nothing', async () => {
    const r = await cli(['user', 'add', 'carol'], 'carol password 123\n');
    expectFailure(r, /--password-stdin/, 2);
    const noName = await cli(['user', 'add', '--password-stdin'], 'whatever password\n');
    expectFailure(noName, /usage: platform-core user add/, 2);
    expect(await userNamed('carol')).toBeUndefined();
  });

  it('user add refuses a password that breaks the rules', async () => {
    const r = await cli(['user', 'add', 'carol', '--password-stdin'], 'short\n');
    expectFailure(r, /password must have at least 12\b/);
    const empty = await cli(['user', 'add', 'carol', '--password-stdin'], '');
    expectFailure(empty, /password must have at least 12\b/);
    const named = await cli(['user', 'add', 'carol', '--password-stdin'], 'Carol keeps a long secret\n');
    expectFailure(named, /must not contain the username/);
    const common = await cli(['user', 'add', 'carol', '--password-stdin'], 'qwerty123456\n');
    expectFailure(common, /common or breached/);
    expect(await userNamed('carol')).toBeUndefined();
    expect((await server().login('carol', 'short')).status).toBe(401);
  });

  it('user add refuses an unknown team and an invalid username', async () => {
    const team = await cli(
      ['user', 'add', 'carol', '--password-stdin', '--team', 'NOPE'],
      'a password for the team test\n',
    );
    expectFailure(team, /Team NOPE not found/);
    const reserved = await cli(['user', 'add', 'api', '--password-stdin'], 'api password 1234\n');
    expectFailure(reserved, /username/);
    expect(await userNamed('carol')).toBeUndefined();
    expect(await userNamed('api')).toBeUndefined();
  });

  it('role grant / role revoke take effect on the running server', async () => {
    const jwt = await server().jwtFor('alice', ALICE_PASSWORD);
    const browse = () => server().request('/api/core/token/browse', { headers: { authorization: `Bearer ${jwt}` } });
    expect((await browse()).status).toBe(403);

    const grant = await cli(['role', 'grant', 'alice', 'sys_administrator']);
    expectSuccess(grant);
    expect(grant.stdout).toMatch(/granted sys_administrator to alice/);
    const granted = await browse();
    expect(granted.status, granted.text).toBe(200);
    expect(Array.isArray(granted.body.data.items)).toBe(true);

    // Granting again is harmless.
    expectSuccess(await cli(['role', 'grant', 'alice', 'sys_administrator']));

    const revoke = await cli(['role', 'revoke', 'alice', 'sys_administrator']);
    expectSuccess(revoke);
    expect(revoke.stdout).toMatch(/revoked sys_administrator from alice/);
    const revoked = await browse();
    expect(revoked.status, revoked.text).toBe(403);

    const again = await cli(['role', 'revoke', 'alice', 'sys_administrator']);
    expectSuccess(again);
    expect(again.stdout).toMatch(/did not have/);
  });

  it('role grant refuses an unknown user, a bad role name and a missing argument', async () => {
    expectFailure(await cli(['role', 'grant', 'nobody', 'sys_administrator']), /no such user: nobody/, 2);
    expectFailure(await cli(['role', 'grant', 'alice', 'bad role!']), /invalid role name/, 2);
    expectFailure(await cli(['role', 'grant', 'alice']), /usage: platform-core role/, 2);
  });

  it('team add creates a team once; the second identical call fails', async () => {
    const r = await cli(['team', 'add', 'SALES', 'Sales Team']);
    expectSuccess(r);
    expect(r.stdout).toMatch(/created team SALES/);

    const dup = await cli(['team', 'add', 'SALES', 'Sales Team']);
    expectFailure(dup, /SALES already exists/);

    const rows = await dbOf().selectFrom('teams').selectAll().where('short', '=', 'SALES').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ short: 'SALES', name: 'Sales Team', type: 'internal' });

    expectFailure(
      await cli(['team', 'add', 'PARTNERS', 'Partners', '--type', 'vendor']),
      /--type must be internal or external/,
      2,
    );
    expectFailure(await cli(['team', 'add', 'bad short', 'Name']), /team short/, 2);
    expectSuccess(await cli(['team', 'add', 'PARTNERS', 'Partner', 'Companies', '--type', 'external']));
    const partners = await dbOf().selectFrom('teams').selectAll().where('short', '=', 'PARTNERS').executeTakeFirst();
    expect(partners).toMatchObject({ name: 'Partner Companies', type: 'external' });
  });

  it('user add --team puts the user in that team', async () => {
    const r = await cli(['user', 'add', 'bob', '--password-stdin', '--team', 'SALES'], `${BOB_PASSWORD}\n`);
    expectSuccess(r);
    const bob = await userNamed('bob');
    const sales = await dbOf().selectFrom('teams').selectAll().where('short', '=', 'SALES').executeTakeFirstOrThrow();
    expect(bob?.team_id).toBe(sales.id);
    const memberships = await dbOf()
      .selectFrom('team_members')
      .select('team_id')
      .where('user_id', '=', bob!.id)
      .execute();
    expect(memberships.map((m) => m.team_id)).toEqual([sales.id]);
    expect((await server().login('bob', BOB_PASSWORD)).status).toBe(200);
  });

  it('token create prints only the value, which authenticates and is stored nowhere', async () => {
    const r = await cli(['token', 'create', 'ci', '--user', 'alice']);
    expectSuccess(r);
    // Exactly one line: the value, so `TOKEN=$(platform-core token create …)` just works.
    const lines = r.stdout.split('\n');
    expect(lines, said(r)).toHaveLength(2);
    expect(lines[1]).toBe('');
    const value = lines[0]!;
    expect(value).toMatch(TOKEN_VALUE);
    expect(r.stderr).not.toContain(value);

    const own = await server().request('/api/core/token/user', { headers: { authorization: `Token ${value}` } });
    expect(own.status, own.text).toBe(200);
    expect(own.body.data.items).toEqual([
      expect.objectContaining({
        username: 'alice',
        name: 'ci',
        value: null,
        token_created_by: 'cli',
        loginprovider: 'api',
      }),
    ]);
    expect(own.text).not.toContain(value);

    // Every token gets its own value.
    const other = await cli(['token', 'create', 'ci2', '--user', 'bob']);
    expectSuccess(other);
    expect(other.stdout.trim()).toMatch(TOKEN_VALUE);
    expect(other.stdout.trim()).not.toBe(value);

    // The value is in no table …
    const rows = await dbOf().selectFrom('tokens').selectAll().execute();
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(value);
    expect(JSON.stringify(rows)).not.toContain(value.slice(4)); // not even without its prefix
    // … in no file of the data directory (the SQLite database and its WAL) …
    await server().services.auth.activity.flush();
    const scan = filesContaining(db.dataDir, [value, value.slice(4)]);
    if (kind === 'sqlite') expect(scan.searched.some((f) => f.endsWith('platform-core.sqlite'))).toBe(true);
    expect(scan.found, 'files holding the token value').toEqual([]);
    // … and in no line the server logged.
    expect(server().logs()).toContain('"msg"');
    expect(server().logs()).not.toContain(value.slice(4));
  });

  it('token create refuses a duplicate name, an unknown user and a bad name, printing no value', async () => {
    for (const [args, message] of [
      [['token', 'create', 'ci', '--user', 'alice'], /already has a token named ci/],
      [['token', 'create', 'ci', '--user', 'nobody'], /User nobody not found/],
      [['token', 'create', 'bad name!', '--user', 'alice'], /token name/],
      [['token', 'create', 'ci3'], /usage: platform-core token create/],
    ] as const) {
      const r = await cli([...args]);
      expectFailure(r, message);
      expect(r.stdout, said(r)).not.toMatch(/pct_/);
    }
    expect(await dbOf().selectFrom('tokens').select('name').execute()).toHaveLength(2);
  });

  it('CLI writes succeed while the server is busy writing to the same database', async () => {
    // The server keeps writing (each password login updates the failure counter; each token
    // create is a read-then-write transaction) while several CLI processes write at the same
    // time, in a few rounds. On SQLite every one of them must wait for the others' locks
    // (WAL + busy_timeout), never fail with "database is locked".
    const jwt = await server().jwtFor('alice', ALICE_PASSWORD);
    let stop = false;
    let serverWrites = 0;
    const failures: string[] = [];
    const loop = (async () => {
      for (let n = 0; !stop; n++) {
        const res =
          n % 2 === 0
            ? await server().login('bob', BOB_PASSWORD)
            : await server().request(`/api/core/token/create/http-${n}`, {
                method: 'POST',
                headers: { authorization: `Bearer ${jwt}` },
              });
        if (res.status === 200 || res.status === 201) serverWrites++;
        else failures.push(`${res.status} ${res.text}`);
      }
    })();
    const ROUNDS = 3;
    // Only roles something checks may be granted: three system roles bob lacks.
    const roleOf = (round: number) => ['srs_administrator', 'app_administrator', 'sys_tokens'][round - 1]!;
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        const results = await Promise.all([
          cli(['team', 'add', `BUSY${round}`, `Busy ${round}`]),
          cli(['user', 'add', `dave${round}`, '--password-stdin'], `dave password ${round}\n`),
          cli(['role', 'grant', 'bob', roleOf(round)]),
          cli(['token', 'create', `busy${round}`, '--user', 'bob']),
          cli(['token', 'create', `busy${round}`, '--user', 'alice']),
        ]);
        for (const r of results) expectSuccess(r);
      }
    } finally {
      stop = true;
      await loop;
    }
    expect(failures, 'server requests that failed while the CLI wrote').toEqual([]);
    expect(serverWrites).toBeGreaterThan(0);

    const shorts = (await dbOf().selectFrom('teams').select('short').where('short', 'like', 'BUSY%').execute()).map(
      (t) => t.short,
    );
    expect(shorts.sort()).toEqual(['BUSY1', 'BUSY2', 'BUSY3']);
    const bob = await userNamed('bob');
    const bobRoles = (
      await dbOf().selectFrom('user_roles').select('role_name').where('user_id', '=', bob!.id).execute()
    ).map((r) => r.role_name);
    expect(bobRoles).toEqual(expect.arrayContaining([roleOf(1), roleOf(2), roleOf(3)]));
    const busyTokens = await dbOf().selectFrom('tokens').select('name').where('name', 'like', 'busy%').execute();
    expect(busyTokens).toHaveLength(2 * ROUNDS);
    for (let round = 1; round <= ROUNDS; round++) {
      const login = await server().login(`dave${round}`, `dave password ${round}`);
      expect(login.status, login.text).toBe(200);
    }
  });
});

// `serve` itself: starts, answers, writes the generated admin password to a 0600 file without
// ever printing it, and exits 0 on SIGTERM.
describe.each(testDatabaseKinds())('platform-core serve on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await dropTestDatabase(db);
  });

  it('starts with PORT=0, serves /healthz, and shuts down gracefully on SIGTERM', async () => {
    const serve = await startServe({ env: dbEnv(db), startTimeoutMs: 30_000 });
    let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    void serve.exited.then((e) => (exitInfo = e));
    const output = () =>
      serve
        .logLines()
        .map((l) => JSON.stringify(l))
        .join('\n');
    try {
      // The listening address (PORT=0 picks a free port) comes from the log line.
      const url = serve.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(url).not.toMatch(/:0$/);

      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { data: { database: string } }).data.database).toBe(
        kind === 'sqlite' ? 'sqlite' : 'postgresql',
      );

      // No PLATFORM_ADMIN_*: the administrator "admin" got a generated password in a 0600 file.
      const file = join(db.dataDir, 'initial-admin-password');
      expect(existsSync(file), output()).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const password = readFileSync(file, 'utf8').trim();
      expect(password.length).toBeGreaterThanOrEqual(16);
      expect(output()).toContain(file);
      expect(output()).not.toContain(password);

      const login = await fetch(`${url}/api/core/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      });
      expect(login.status).toBe(200);
      // The generated password is one-time: its session must replace it first.
      expect(((await login.json()) as { data: { password_change_required: boolean } }).data).toMatchObject({
        password_change_required: true,
      });

      // The CLI works next to a `serve` process too.
      expectSuccess(await runCli(['team', 'add', 'OPS', 'Operations'], { env: dbEnv(db) }));

      const sigtermAt = Date.now();
      serve.child.kill('SIGTERM');
      const result = await Promise.race([serve.exited, new Promise<null>((r) => setTimeout(() => r(null), 10_000))]);
      expect(result, `serve did not exit within 10 s of SIGTERM:\n${output()}`).not.toBeNull();
      expect({ code: result!.code, signal: result!.signal }, output()).toEqual({ code: 0, signal: null });
      expect(Date.now() - sigtermAt).toBeLessThan(10_000);
      expect(output()).toMatch(/shutting down/);
      expect(output() + result!.stderr).not.toContain(password);
    } finally {
      if (!exitInfo) serve.child.kill('SIGKILL');
      await serve.exited;
    }
  });
});
