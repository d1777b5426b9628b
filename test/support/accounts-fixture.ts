// A started instance with an administrator JWT and helpers to act as anyone.
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, type NewAccount } from '../../src/accounts/account-service.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';
import { ADMIN, passwordFor, startInstance, type Instance } from './instance.js';
import { CLI_ACTOR } from '../../src/audit/audit-actions.js';

/** An APPS_DIR with the apps `demo` and `other`, so app tests do not depend on the repo's apps/. */
export function makeAppsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pc-apps-'));
  for (const app of ['demo', 'other']) {
    mkdirSync(join(dir, app, 'templates'), { recursive: true });
    mkdirSync(join(dir, app, 'srs'), { recursive: true });
  }
  return dir;
}

export interface AccountsFixture {
  db: TestDatabase;
  inst: Instance;
  adminJwt: string;
  appsDir: string;
  /** Creates an account and returns a JWT for it. */
  user(username: string, opts?: Partial<NewAccount>): Promise<string>;
  as(jwt: string | null, method: 'GET' | 'POST', path: string, json?: unknown): ReturnType<Instance['request']>;
}

export async function startAccountsFixture(
  kind: DatabaseKind,
  env: Record<string, string> = {},
): Promise<AccountsFixture> {
  const db = await createTestDatabase(kind);
  const appsDir = makeAppsDir();
  const inst = await startInstance(db, { APPS_DIR: appsDir, ...env });
  const adminJwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
  return {
    db,
    inst,
    adminJwt,
    appsDir,
    async user(username, opts = {}) {
      const password = passwordFor(username);
      await createAccount(inst.services.database.db, { username, password, ...opts }, CLI_ACTOR);
      return inst.jwtFor(username, password);
    },
    as(jwt, method, path, json) {
      return inst.request(path, {
        method,
        headers: jwt ? { Authorization: `Bearer ${jwt}` } : {},
        ...(json !== undefined ? { json } : {}),
      });
    },
  };
}
