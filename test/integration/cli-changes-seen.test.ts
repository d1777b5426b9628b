// The CLI next to a running server, on both databases: a role change made by
// the CLI is honoured by the server within 1 s (PostgreSQL: the NOTIFY the CLI sends in its
// transaction; SQLite: the server polls PRAGMA data_version), although the server caches
// account state for 30 s; and a fresh login always sees the current roles, even of a change the
// server was never told about. Spawns the compiled CLI (dist/, `npm run build`).
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { startInstance, type Instance } from '../support/instance.js';
import { createAccount } from '../../src/accounts/account-service.js';
import { openSqliteFile } from '../../src/db/sqlite-file.js';
import { CLI_ACTOR } from '../../src/audit/audit-actions.js';

const BIN = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'bin', 'platform-core.js');
/** Needs sys_administrator. */
const ADMIN_ONLY = '/api/core/token/browse';
const AGREE_MS = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bearer = (t: string) => ({ headers: { Authorization: `Bearer ${t}` } });

/** Runs the CLI against the test database; resolves when it has exited (its change committed). */
function cli(db: TestDatabase, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(settings__.*|database_url|data_dir|config_file|platform_admin_.*)$/i.test(k)) env[k] = v;
  env.DATA_DIR = db.dataDir;
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: db.dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** Polls every 50 ms until `path` answers `status`; the ms since `since`, or null past `giveUpMs`. */
async function answeredAfter(
  inst: Instance,
  jwt: string,
  path: string,
  status: number,
  since: number,
  giveUpMs: number,
): Promise<number | null> {
  for (;;) {
    const r = await inst.request(path, bearer(jwt));
    const elapsed = Date.now() - since;
    if (r.status === status) return elapsed;
    if (elapsed > giveUpMs) return null;
    await sleep(50);
  }
}

describe.each(testDatabaseKinds())('CLI changes seen by the running server on %s', (kind) => {
  let db: TestDatabase;
  let inst: Instance;
  const password = 'cli-seen-password-1';

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    // 30 s: without the announcement or the poll the server would keep its cached roles that long.
    inst = await startInstance(db, { Settings__AuthCacheSeconds: '30' });
    for (const username of ['cli.revoked', 'cli.fresh', 'cli.quiet'])
      await createAccount(
        inst.services.database.db,
        {
          username,
          password,
          roles: username === 'cli.revoked' ? ['sys_administrator'] : [],
        },
        CLI_ACTOR,
      );
  }, 60_000);
  afterAll(async () => {
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('a role revoked (then granted) by the CLI is honoured within 1 s', async () => {
    const jwt = await inst.jwtFor('cli.revoked', password);
    expect((await inst.request(ADMIN_ONLY, bearer(jwt))).status).toBe(200);
    const revoked = await cli(db, ['role', 'revoke', 'cli.revoked', 'sys_administrator']);
    expect(revoked.code, revoked.stderr).toBe(0);
    const refusedAfter = await answeredAfter(inst, jwt, ADMIN_ONLY, 403, Date.now(), AGREE_MS + 2000);
    console.log(`${kind}: a role revoked by the CLI was refused after ${refusedAfter} ms`);
    expect(refusedAfter).not.toBeNull();
    expect(refusedAfter!).toBeLessThan(AGREE_MS);

    const granted = await cli(db, ['role', 'grant', 'cli.revoked', 'sys_administrator']);
    expect(granted.code, granted.stderr).toBe(0);
    const acceptedAfter = await answeredAfter(inst, jwt, ADMIN_ONLY, 200, Date.now(), AGREE_MS + 2000);
    expect(acceptedAfter).not.toBeNull();
    expect(acceptedAfter!).toBeLessThan(AGREE_MS);
  }, 60_000);

  it('a fresh login sees a role granted by the CLI', async () => {
    const before = await inst.jwtFor('cli.fresh', password);
    // The server now caches the account without the role.
    expect((await inst.request(ADMIN_ONLY, bearer(before))).status).toBe(403);
    const granted = await cli(db, ['role', 'grant', 'cli.fresh', 'sys_administrator']);
    expect(granted.code, granted.stderr).toBe(0);
    const fresh = await inst.jwtFor('cli.fresh', password);
    expect((await inst.request(ADMIN_ONLY, bearer(fresh))).status).toBe(200);
  }, 60_000);

  it('a fresh login sees the current roles even of a change the server was never told of', async () => {
    // Let the server's caches settle after the CLI runs above (SQLite: one poll clears them).
    await sleep(600);
    const before = await inst.jwtFor('cli.quiet', password);
    expect((await inst.request(ADMIN_ONLY, bearer(before))).status).toBe(403);
    // Written on the server's own connection: no announcement, and on SQLite no change of the
    // data_version the server polls (it counts other connections' commits only).
    const { id } = await inst.services.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'cli.quiet')
      .executeTakeFirstOrThrow();
    await inst.services.database.db
      .insertInto('user_roles')
      .values({ user_id: id, role_name: 'sys_administrator' })
      .execute();
    await sleep(600);
    // The old session still has the cached state (the cache lifetime applies to it) ...
    expect((await inst.request(ADMIN_ONLY, bearer(before))).status).toBe(403);
    // ... but a new login starts from the current one, on its very first request.
    const fresh = await inst.jwtFor('cli.quiet', password);
    expect((await inst.request(ADMIN_ONLY, bearer(fresh))).status).toBe(200);
  });

  it.runIf(kind === 'sqlite')(
    "neither the server's own writes nor the apps' file clear the caches; a CLI commit does",
    async () => {
      const clear = vi.spyOn(inst.services.auth, 'clear');
      try {
        const jwt = await inst.jwtFor('cli.revoked', password);
        for (let i = 0; i < 3; i++) {
          expect((await inst.request(ADMIN_ONLY, bearer(jwt))).status).toBe(200);
          const token = await inst.request(`/api/core/token/create/quiet-${i}/cli.revoked`, {
            method: 'POST',
            ...bearer(jwt),
          });
          expect(token.status).toBe(201);
          expect(
            (await inst.request(`/api/core/token/delete/quiet-${i}/cli.revoked`, { method: 'POST', ...bearer(jwt) }))
              .status,
          ).toBe(200);
        }
        // What SRS commands do: another process writing the apps' file.
        const apps = openSqliteFile(inst.services.database.appDataFile!);
        try {
          apps.exec('create table if not exists scratch (n integer); insert into scratch values (1);');
        } finally {
          apps.close();
        }
        await sleep(800);
        expect(clear).not.toHaveBeenCalled();

        const added = await cli(db, ['team', 'add', 'cli-team', 'A team from the CLI']);
        expect(added.code, added.stderr).toBe(0);
        await vi.waitFor(() => expect(clear).toHaveBeenCalledTimes(1), { timeout: AGREE_MS, interval: 25 });
      } finally {
        clear.mockRestore();
      }
    },
    60_000,
  );
});
