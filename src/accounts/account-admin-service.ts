// Administration of accounts: lock, unlock, cancel (with the user_cancel hook), reactivate,
// copy, context, roles and passwords. Every change runs in one transaction, is serialised per
// account on this instance, and invalidates the cached account state so it applies at once, on
// every instance (announced in the transaction, auth/auth-changes.ts).
import type { Kysely, Transaction } from 'kysely';
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
import { addTeamMember, membershipsOf } from '../teams/teams-repository.js';
import { recordEvent } from './events-repository.js';
import { findAccountListRow } from './account-queries.js';
import { accountListItem } from './account-views.js';
import type { AccountListItem } from './account-shapes.js';
import { HookFailedError, runCancelHook, type HookKind } from './cancel-hook.js';
import { assertPasswordRules, createAccount, type NewAccount } from './account-service.js';
import { assertGrantable, type AclRoleSource } from './valid-roles.js';

export interface AccountAdminDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  dataDir: string;
  appsDir: string;
  /** Drops cached account state after a change (immediate effect on this instance). */
  invalidate: (userId: string) => void;
  /** The connection that reaches the apps' data too (db/connect.ts), for the cancel hook. */
  withApps: Kysely<Database>;
  /** The lockout-guarded password check login uses: a wrong current password counts as a failure. */
  passwords: PasswordAttempts;
  /** The roles the apps' SRS definitions name (valid-roles.ts); none when absent. */
  aclRoles?: AclRoleSource;
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

  /** Runs one change to one account: serialised, transactional, cache invalidated after commit. */
  private async change(
    username: string,
    work: (trx: Transaction<Database>, user: UserRow) => Promise<void>,
    on: Kysely<Database> = this.db,
  ): Promise<AccountListItem> {
    const target = await this.requireUser(this.db, username);
    return this.mutex.run(target.id, async () => {
      const item = await on.transaction().execute(async (trx) => {
        const user = await this.requireUser(trx, username);
        await work(trx, user);
        // Other instances evict the account when (and only if) this commits.
        await announceAuthChange(trx, { users: [user.id] });
        return this.item(trx, user.id);
      });
      this.deps.invalidate(target.id);
      return item;
    });
  }

  async lock(actor: string, username: string): Promise<AccountListItem> {
    if (sameUsername(actor, username))
      throw invalid('cannot_lock_self', 'An administrator cannot lock their own account');
    return this.change(username, (trx, u) => lockUser(trx, u.id));
  }

  async unlock(username: string): Promise<AccountListItem> {
    return this.change(username, (trx, u) => unlockUser(trx, u.id));
  }

  async cancel(actor: string, username: string): Promise<AccountListItem> {
    if (sameUsername(actor, username))
      throw invalid('cannot_cancel_self', 'An administrator cannot cancel their own account');
    const target = await this.requireUser(this.db, username);
    let hook: HookKind = 'none';
    try {
      return await this.change(
        username,
        async (trx, u) => {
          await deactivateUser(trx, u.id);
          hook = await runCancelHook(trx, this.deps.dialect, this.deps.dataDir, {
            username: u.username,
            user_id: u.id,
            cancelled_by: actor,
          });
          await this.recordCancel(trx, actor, u.username, { hook, outcome: 'ok' });
          // The hook is the platform's: it reaches the apps' data too (schema `app`).
        },
        this.deps.withApps,
      );
    } catch (err) {
      if (!(err instanceof HookFailedError)) throw err;
      // The cancel rolled back; the attempt is still recorded, outside that transaction.
      await this.recordCancel(this.db, actor, target.username, {
        hook: err.hook,
        outcome: 'failed',
        error: err.message,
      });
      throw conflict('hook_failed', `The user_cancel hook failed: ${err.message}`);
    }
  }

  private async recordCancel(db: Db, actor: string, subject: string, data: Record<string, unknown>): Promise<void> {
    await recordEvent(db, { type: 'user_cancel', actor, subject, data });
  }

  async reactivate(actor: string, username: string): Promise<AccountListItem> {
    return this.change(username, async (trx, u) => {
      await reactivateUser(trx, u.id);
      await recordEvent(trx, { type: 'user_reactivate', actor, subject: u.username, data: {} });
    });
  }

  /** Adds the source's roles and teams to the target (a union: nothing is removed). */
  async copy(sourceUsername: string, targetUsername: string): Promise<AccountListItem> {
    const source = await this.requireUser(this.db, sourceUsername);
    const target = await this.requireUser(this.db, targetUsername);
    return this.mutex.runAll([source.id, target.id], async () => {
      const item = await this.db.transaction().execute(async (trx) => {
        for (const role of await userRoleNames(trx, source.id)) await grantRole(trx, target.id, role);
        for (const t of await membershipsOf(trx, source.id)) await addTeamMember(trx, target.id, t.team_id, t.level);
        await announceAuthChange(trx, { users: [target.id] });
        return this.item(trx, target.id);
      });
      this.deps.invalidate(target.id);
      return item;
    });
  }

  /** Sets the user's application context; the user must be allowed to use the app. */
  async setContext(username: string, app: string): Promise<AccountListItem> {
    if (!listApps(this.deps.appsDir).includes(app))
      throw invalid('unknown_app', `No application named ${app}`, [
        { field: 'app_name', rule: 'exists', message: `no application named ${app}` },
      ]);
    return this.change(username, async (trx, u) => {
      const roles = await userRoleNames(trx, u.id);
      if (!appsForRoles([app], roles).includes(app))
        throw forbidden('app_not_allowed', `${u.username} may not use the application ${app}`);
      await setUserApp(trx, u.id, app);
    });
  }

  /** Only a role something checks (valid-roles.ts); 400 role_unknown otherwise. */
  async assertGrantable(roles: readonly string[]): Promise<void> {
    await assertGrantable(roles, this.deps.appsDir, this.deps.aclRoles ?? (async () => []));
  }

  async grant(username: string, role: string): Promise<AccountListItem> {
    await this.requireUser(this.db, username);
    await this.assertGrantable([role]);
    return this.change(username, (trx, u) => grantRole(trx, u.id, role));
  }

  async revoke(actor: string, username: string, role: string): Promise<AccountListItem> {
    if (role === 'sys_administrator' && sameUsername(actor, username)) {
      throw invalid('cannot_revoke_self', 'An administrator cannot remove their own sys_administrator role');
    }
    return this.change(username, async (trx, u) => {
      if (!(await revokeRole(trx, u.id, role)))
        throw notFound('role_not_assigned', `${u.username} does not have the role ${role}`);
    });
  }

  async create(input: NewAccount): Promise<AccountListItem> {
    await this.assertGrantable(input.roles ?? []);
    const { id } = await createAccount(this.db, input);
    // Nothing of a new account is cached, but what is derived from the accounts must learn of it.
    this.deps.invalidate(id);
    return this.item(this.db, id);
  }

  /** An administrator sets a new password; every session of the user ends. */
  async resetPassword(username: string, password: string): Promise<AccountListItem> {
    assertPasswordRules(password);
    const hash = await hashPassword(password);
    return this.change(username, (trx, u) => replacePassword(trx, u.id, hash));
  }

  /** The user changes their own password, proving the current one; every session ends. */
  async changeOwnPassword(username: string, current: string, next: string): Promise<AccountListItem> {
    assertPasswordRules(next);
    const user = await this.requireUser(this.db, username);
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
    return this.resetPassword(username, next);
  }
}
