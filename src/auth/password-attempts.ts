// A password check under the lockout rule (lockout.ts), the one way login and a password change
// verify a password. Known and unknown usernames take the same steps (reserve a failure, verify,
// lock at the limit) with the same number of queries and one verification of the same cost, so
// neither the answers nor their timing tell whether an account exists.
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema.js';
import {
  lockIfLimitReached,
  reserveAttempt,
  resetFailures,
  sweepUnknownFailures,
  unknownUsernameDigest,
  type LockoutPolicy,
  type LockoutSubject,
} from './lockout.js';
import type { PasswordHasher } from './passwords.js';
import { announceAuthChange } from './auth-changes.js';
import type { Metrics } from '../metrics/metrics.js';

/** Whose password is checked: an account (with its stored hash), or a username without one. */
export type PasswordOwner =
  | { kind: 'account'; userId: string; passwordHash: string | null; lockoutEnabled: boolean }
  | { kind: 'unknown'; normalizedUsername: string };

export type PasswordCheck =
  | { outcome: 'ok'; needsRehash: boolean }
  /** lockedNow: this failure reached the limit and locked the subject. */
  | { outcome: 'wrong'; lockedNow: boolean }
  /** Locked out (or every allowed failure is taken by attempts in flight): nothing was verified. */
  | { outcome: 'locked' };

/** How often the store of unknown usernames is swept, at most. */
const SWEEP_INTERVAL_MS = 60_000;

export class PasswordAttempts {
  private lastSweep = 0;

  constructor(
    private readonly db: Kysely<Database>,
    readonly hasher: PasswordHasher,
    private readonly policy: LockoutPolicy,
    private readonly onBackgroundError: (err: unknown) => void,
    private readonly metrics?: Metrics,
  ) {}

  /**
   * `record` (the audit trail) runs in the transaction of the check's last write (the lock or
   * the reset of the count), or on its own when the subject was locked and nothing was verified.
   */
  async check(
    owner: PasswordOwner,
    password: string,
    record?: (db: Db, check: PasswordCheck) => Promise<void>,
  ): Promise<PasswordCheck> {
    const subject: LockoutSubject =
      owner.kind === 'account'
        ? { kind: 'account', userId: owner.userId }
        : { kind: 'unknown', usernameDigest: unknownUsernameDigest(owner.normalizedUsername) };
    const counted = owner.kind === 'unknown' || owner.lockoutEnabled;
    if (counted && !(await reserveAttempt(this.db, subject, this.policy))) {
      const locked: PasswordCheck = { outcome: 'locked' };
      await record?.(this.db, locked);
      return locked;
    }

    const stored = owner.kind === 'account' && owner.passwordHash !== null ? owner.passwordHash : this.hasher.dummyHash;
    const verification = await this.hasher.verify(password, stored);
    if (!verification.ok) {
      const wrong = await this.db.transaction().execute(async (trx) => {
        const result: PasswordCheck = {
          outcome: 'wrong',
          lockedNow: counted && (await lockIfLimitReached(trx, subject, this.policy)),
        };
        await record?.(trx, result);
        // A lock ends the account's sessions on every instance: announced on commit.
        if (result.lockedNow && owner.kind === 'account') await announceAuthChange(trx, { users: [owner.userId] });
        return result;
      });
      if (wrong.outcome === 'wrong' && wrong.lockedNow)
        this.metrics?.lockout(owner.kind === 'account' ? 'account' : 'unknown_username');
      if (owner.kind === 'unknown') this.sweepNowAndThen();
      return wrong;
    }
    const ok: PasswordCheck = { outcome: 'ok', needsRehash: verification.needsRehash };
    // Only an account's own hash can match (the dummy never does).
    if (owner.kind === 'account' || record)
      await this.db.transaction().execute(async (trx) => {
        if (owner.kind === 'account') await resetFailures(trx, owner.userId);
        await record?.(trx, ok);
      });
    return ok;
  }

  private sweepNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    sweepUnknownFailures(this.db, this.policy, now).catch(this.onBackgroundError);
  }
}
