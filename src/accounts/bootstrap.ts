// First-start setup: the default team, the system roles, and an administrator when none exists.
// A generated administrator password is written to <data dir>/initial-admin-password and is
// one-time: the account must replace it at its first sign-in (auth-hook.ts refuses everything
// else), and the file is deleted once it has (account-admin-service.ts). A password the operator
// chose (PLATFORM_ADMIN_PASSWORD) is theirs and signs in normally.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ensureDefaultTeam } from '../teams/teams-repository.js';
import { ensureRole, SYSTEM_ROLES } from './roles-repository.js';
import { countUsersWithRole } from '../identity/users-repository.js';
import { createAccount } from './account-service.js';
import { AppError } from '../lib/errors.js';
import { ConfigError } from '../config/config.js';
import type { PasswordPolicy } from '../auth/password-policy.js';
import { STARTUP_ACTOR } from '../audit/audit-actions.js';

export interface BootstrapOptions {
  dataDir: string;
  adminUsername: string | null;
  adminPassword: string | null;
  /** What PLATFORM_ADMIN_PASSWORD must be, as any password set. */
  passwordPolicy: PasswordPolicy;
}

export interface BootstrapResult {
  /** Set when an administrator was created in this call. */
  createdAdmin?: { username: string; passwordFile?: string };
}

export const ADMIN_PASSWORD_FILE = 'initial-admin-password';

export async function bootstrapInstance(db: Kysely<Database>, opts: BootstrapOptions): Promise<BootstrapResult> {
  await ensureDefaultTeam(db);
  for (const role of SYSTEM_ROLES) await ensureRole(db, role);
  if ((await countUsersWithRole(db, 'sys_administrator')) > 0) return {};

  const username = opts.adminUsername ?? 'admin';
  const generated = opts.adminPassword === null;
  const password = opts.adminPassword ?? randomBytes(18).toString('base64url');
  try {
    await createAccount(
      db,
      { username, password, roles: [...SYSTEM_ROLES], mustChangePassword: generated },
      STARTUP_ACTOR,
      opts.passwordPolicy,
    );
  } catch (err) {
    // Another instance starting at the same moment created it first.
    if (err instanceof AppError && err.code === 'user_exists') return {};
    // The operator's password breaks a rule: the start stops and says which.
    if (err instanceof AppError && err.kind === 'invalid' && !generated)
      throw new ConfigError(`PLATFORM_ADMIN_PASSWORD: ${err.message}`);
    throw err;
  }
  if (!generated) return { createdAdmin: { username } };
  mkdirSync(opts.dataDir, { recursive: true });
  const file = join(opts.dataDir, ADMIN_PASSWORD_FILE);
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { createdAdmin: { username, passwordFile: file } };
}
