// Administration of accounts: lock, unlock, cancel (with the user_cancel hook), reactivate,
// copy, context, roles and passwords. Every change runs in one transaction, is serialised per
// account on this instance, and invalidates the cached account state so it applies at once, on
// every instance (announced in the transaction, auth/auth-changes.ts).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { Database, Db, UserRow } from '../db/schema.js';
import type { DialectName } from '../db/connect.js';
import { invalid, conflict, forbidden, notFound, unauthenticated } from '../lib/errors.js';
import { isoMicros } from '../lib/time.js';
import { KeyedMutex } from '../lib/keyed-mutex.js';
import { hashPassword } from '../auth/passwords.js';
import type { PasswordAttempts } from '../auth/password-attempts.js';
import { announceAuthChange } from '../auth/auth-changes.js';
import { appsForRoles, listApps } from '../apps/apps-directory.js';
import {
  deactivateUser,
  findUserByUsername,
  lockUser,
  reactivateUser,
  replacePassword,
  setUserApp,
  unlockUser,
  userRoleNames,
} from '../identity/users-repository.js';
import { sameUsername } from '../identity/usernames.js';
import { grantRole, revokeRole } from './roles-repository.js';
import { ADMIN_PASSWORD_FILE } from './bootstrap.js';
import { addTeamMember, membershipsOf } from '../teams/teams-repository.js';
import { recordAudit } from '../audit/audit-repository.js';
import type { AuditAction, AuditActor } from '../audit/audit-actions.js';
import { findAccountListRow } from './account-queries.js';
import { accountListItem } from './account-views.js';
import type { AccountListItem } from './account-shapes.js';
import { cancelHookInstalled, HookFailedError, runCancelHook, type HookKind } from './cancel-hook.js';
import { createAccount, type NewAccount } from './account-service.js';
import { assertPasswordRules, type PasswordPolicy } from '../auth/password-policy.js';
import { assertGrantable, grantableRoles, type AclRoleSource, type GrantableRole } from './valid-roles.js';

export interface AccountAdminDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  dataDir: string;
  appsDir: string;
  /** Drops cached account state after a change (immediate effect on this instance). */
  invalidate: (userId: string) => void;
  /** The connection that reaches the apps' data too (db/connect.ts), for the cancel hook. */
  withApps: Kysely<Database>;
  /** SQLite: why the apps' file is not attached to `withApps` (db/connect.ts), or null. */
  appsAttachError?: string | null;
  /** The lockout-guarded password check login uses: a wrong current password counts as a failure. */
  passwords: PasswordAttempts;
  /** What a new password must be (Settings:PasswordMinLength and the fixed rules). */
  passwordPolicy: PasswordPolicy;
  /** The roles the apps' SRS definitions name (valid-roles.ts); none when absent. */
  aclRoles?: AclRoleSource;
  /** Warnings of the cancel hook (a function found but not run). */
  logger?: Pick<Logger, 'warn'>;
}

export class AccountAdminService {
  private readonly mutex = new KeyedMutex();

  constructor(private readonly deps: AccountAdminDeps) {}

  private get db() {
    return this.deps.db;
  }

  async item(db: Db, userId: string): Promise<AccountListItem> {
    const row = await findAccountListRow(db, userId);
    if (!row) throw notFound('user_not_found', 'User not found');
    return accountListItem(row, isoMicros());
  }

  private async requireUser(db: Db, username: string): Promise<UserRow> {
    const u = await findUserByUsername(db, username);
    if (!u) throw notFound('user_not_found', `User ${username} not found`);
    return u;
  }

  /**
   * Runs one change to one account: serialised, transactional, recorded in the audit trail in
   * the same transaction, cache invalidated after commit.
   */
  private async change(
    by: AuditActor,
    username: string,
    action: AuditAction,
    work: (trx: Transaction<Database>, user: UserRow) => Promise<Record<string, unknown> | undefined | void>,
    on: Kysely<Database> = this.db,
  ): Promise<AccountListItem> {
    const target = await this.requireUser(this.db, username);
    return this.mutex.run(target.id, async () => {
      const item = await on.transaction().execute(async (trx) => {
        const user = await this.requireUser(trx, username);
        const data = (await work(trx, user)) ?? {};
        await recordAudit(trx, { action, by, subject: user.username, subjectId: user.id, data });
        // Other instances evict the account when (and only if) this commits.
        await announceAuthChange(trx, { users: [user.id] });
        return this.item(trx, user.id);
      });
      this.deps.invalidate(target.id);
      return item;
    });
  }

  async lock(by: AuditActor, username: string): Promise<AccountListItem> {
    if (by.username !== null && sameUsername(by.username, username))
      throw invalid('cannot_lock_self', 'An administrator cannot lock their own account');
    return this.change(by, username, 'account_lock', (trx, u) => lockUser(trx, u.id));
  }

  async unlock(by: AuditActor, username: string): Promise<AccountListItem> {
    return this.change(by, username, 'account_unlock', (trx, u) => unlockUser(trx, u.id));
  }

  async cancel(by: AuditActor, username: string): Promise<AccountListItem> {
    const actor = by.username ?? 'cli';
    if (sameUsername(actor, username))
      throw invalid('cannot_cancel_self', 'An administrator cannot cancel their own account');
    const target = await this.requireUser(this.db, username);
    let hook: HookKind = 'none';
    try {
      const on = this.cancelConnection();
      return await this.change(
        by,
        username,
        'account_cancel',
        async (trx, u) => {
          await deactivateUser(trx, u.id);
          const outcome = await runCancelHook(trx, this.deps.dialect, this.deps.dataDir, {
            username: u.username,
            user_id: u.id,
            cancelled_by: actor,
          });
          hook = outcome.hook;
          for (const why of outcome.ignored) this.deps.logger?.warn({ username: u.username }, `not run: ${why}`);
          // The hook is the platform's: it reaches the apps' data too (schema `app`).
          return { hook };
        },
        on,
      ).catch((err: unknown) => {
        // The apps' schema, which app SQL writes, stopped parsing since the hook's connection
        // attached it: the hook cannot run, the rest of the platform is unaffected.
        if (on !== this.db && (err as { code?: unknown }).code === 'SQLITE_CORRUPT')
          throw new HookFailedError('sql_file', (err as Error).message);
        throw err;
      });
    } catch (err) {
      if (!(err instanceof HookFailedError)) throw err;
      // The cancel rolled back, its audit row with it; the broken hook is recorded on its own
      // (an administrator must learn that the app's cleanup fails).
      await recordAudit(this.db, {
        action: 'cancel_hook_failed',
        by,
        subject: target.username,
        subjectId: target.id,
        data: { hook: err.hook, error: err.message },
      });
      throw conflict('hook_failed', `The user_cancel hook failed: ${err.message}`);
    }
  }

  /**
   * Where a cancellation runs. On SQLite only an installed hook file needs the connection with
   * the apps' file attached; without one the platform's own connection serves, so nothing app SQL
   * does to the apps' file's schema can stop cancellations.
   */
  private cancelConnection(): Kysely<Database> {
    if (this.deps.dialect !== 'sqlite') return this.deps.withApps;
    if (!cancelHookInstalled(this.deps.dataDir)) return this.db;
    if (this.deps.appsAttachError)
      throw new HookFailedError('sql_file', `the apps' database cannot be attached: ${this.deps.appsAttachError}`);
    return this.deps.withApps;
  }

  async reactivate(by: AuditActor, username: string): Promise<AccountListItem> {
    return this.change(by, username, 'account_reactivate', (trx, u) => reactivateUser(trx, u.id));
  }

  /** Adds the source's roles and teams to the target (a union: nothing is removed). */
  async copy(by: AuditActor, sourceUsername: string, targetUsername: string): Promise<AccountListItem> {
    const source = await this.requireUser(this.db, sourceUsername);
    const target = await this.requireUser(this.db, targetUsername);
    return this.mutex.runAll([source.id, target.id], async () => {
      const item = await this.db.transaction().execute(async (trx) => {
        const roles = await userRoleNames(trx, source.id);
        const teams = await membershipsOf(trx, source.id);
        for (const role of roles) await grantRole(trx, target.id, role);
        for (const t of teams) await addTeamMember(trx, target.id, t.team_id, t.level);
        await recordAudit(trx, {
          action: 'account_copy',
          by,
          subject: target.username,
          subjectId: target.id,
          data: { from: source.username, roles, teams: teams.map((t) => t.team_id) },
        });
        await announceAuthChange(trx, { users: [target.id] });
        return this.item(trx, target.id);
      });
      this.deps.invalidate(target.id);
      return item;
    });
  }

  /** Sets the user's application context; the user must be allowed to use the app. */
  async setContext(by: AuditActor, username: string, app: string): Promise<AccountListItem> {
    if (!listApps(this.deps.appsDir).includes(app))
      throw invalid('unknown_app', `No application named ${app}`, [
        { field: 'app_name', rule: 'exists', message: `no application named ${app}` },
      ]);
    return this.change(by, username, 'context_change', async (trx, u) => {
      const roles = await userRoleNames(trx, u.id);
      if (!appsForRoles([app], roles).includes(app))
        throw forbidden('app_not_allowed', `${u.username} may not use the application ${app}`);
      await setUserApp(trx, u.id, app);
      return { app, previous: u.app_name };
    });
  }

  /** Only a role something checks (valid-roles.ts); 400 role_unknown otherwise. */
  async assertGrantable(roles: readonly string[]): Promise<void> {
    await assertGrantable(roles, this.deps.appsDir, this.deps.aclRoles ?? (async () => []));
  }

  /** The roles that may be granted (valid-roles.ts), each with its kind and what it is for. */
  async grantableRoles(): Promise<GrantableRole[]> {
    return grantableRoles(this.deps.appsDir, this.deps.aclRoles ?? (async () => []));
  }

  async grant(by: AuditActor, username: string, role: string): Promise<AccountListItem> {
    await this.requireUser(this.db, username);
    await this.assertGrantable([role]);
    return this.change(by, username, 'role_grant', async (trx, u) => {
      await grantRole(trx, u.id, role);
      return { role };
    });
  }

  async revoke(by: AuditActor, username: string, role: string): Promise<AccountListItem> {
    if (role === 'sys_administrator' && by.username !== null && sameUsername(by.username, username)) {
      throw invalid('cannot_revoke_self', 'An administrator cannot remove their own sys_administrator role');
    }
    return this.change(by, username, 'role_revoke', async (trx, u) => {
      if (!(await revokeRole(trx, u.id, role)))
        throw notFound('role_not_assigned', `${u.username} does not have the role ${role}`);
      return { role };
    });
  }

  async create(by: AuditActor, input: NewAccount): Promise<AccountListItem> {
    await this.assertGrantable(input.roles ?? []);
    const { id } = await createAccount(this.db, input, by, this.deps.passwordPolicy);
    // Nothing of a new account is cached, but what is derived from the accounts must learn of it.
    this.deps.invalidate(id);
    return this.item(this.db, id);
  }

  /** An administrator sets a new password; every session of the user ends. */
  async resetPassword(by: AuditActor, username: string, password: string): Promise<AccountListItem> {
    return this.replacePassword(by, username, password, 'password_set');
  }

  private async replacePassword(
    by: AuditActor,
    username: string,
    password: string,
    action: 'password_set' | 'password_change',
  ): Promise<AccountListItem> {
    // The rules judge the password against the account's own username, not the one typed in the URL.
    const user = await this.requireUser(this.db, username);
    assertPasswordRules(password, user.username, this.deps.passwordPolicy);
    const hash = await hashPassword(password);
    return this.change(by, username, action, (trx, u) => replacePassword(trx, u.id, hash));
  }

  /** The user changes their own password, proving the current one; every session ends. */
  async changeOwnPassword(by: AuditActor, username: string, current: string, next: string): Promise<AccountListItem> {
    const user = await this.requireUser(this.db, username);
    assertPasswordRules(next, user.username, this.deps.passwordPolicy, 'new_password');
    const check = await this.deps.passwords.check(
      {
        kind: 'account',
        userId: user.id,
        passwordHash: user.password_hash,
        lockoutEnabled: user.lockout_enabled === 1,
      },
      current,
    );
    if (check.outcome !== 'ok') this.deps.invalidate(user.id);
    if (check.outcome === 'locked') throw unauthenticated('account_locked', 'The account is locked');
    if (check.outcome === 'wrong')
      throw invalid('invalid_current_password', 'The current password is wrong', [
        { field: 'current_password', rule: 'matches', message: 'current_password is wrong' },
      ]);
    if (user.must_change_password === 1 && next === current)
      throw invalid('password_unchanged', 'The new password must differ from the one-time password', [
        { field: 'new_password', rule: 'differs', message: 'new_password must differ from current_password' },
      ]);
    const item = await this.replacePassword(by, username, next, 'password_change');
    // The one-time bootstrap password is spent: its file goes, so nobody else reads it later.
    if (user.must_change_password === 1) rmSync(join(this.deps.dataDir, ADMIN_PASSWORD_FILE), { force: true });
    return item;
  }
}
