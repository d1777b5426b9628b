// A password check under the lockout rule (lockout.ts), the one way login and a password change
// verify a password. Known and unknown usernames take the same steps (reserve a failure, verify,
// lock at the limit) with the same number of queries and one verification of the same cost, so
// neither the answers nor their timing tell whether an account exists.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
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
  | { outcome: 'wrong' }
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

  async check(owner: PasswordOwner, password: string): Promise<PasswordCheck> {
    const subject: LockoutSubject =
      owner.kind === 'account'
        ? { kind: 'account', userId: owner.userId }
        : { kind: 'unknown', usernameDigest: unknownUsernameDigest(owner.normalizedUsername) };
    const counted = owner.kind === 'unknown' || owner.lockoutEnabled;
    if (counted && !(await reserveAttempt(this.db, subject, this.policy))) return { outcome: 'locked' };

    const stored = owner.kind === 'account' && owner.passwordHash !== null ? owner.passwordHash : this.hasher.dummyHash;
    const verification = await this.hasher.verify(password, stored);
    if (!verification.ok) {
      // A lock ends the account's sessions on every instance: announced once the lock is
      // committed (its UPDATE commits on its own, so the NOTIFY after it is delivered after it).
      if (counted && (await lockIfLimitReached(this.db, subject, this.policy))) {
        this.metrics?.lockout(owner.kind === 'account' ? 'account' : 'unknown_username');
        if (owner.kind === 'account') await announceAuthChange(this.db, { users: [owner.userId] });
      }
      if (owner.kind === 'unknown') this.sweepNowAndThen();
      return { outcome: 'wrong' };
    }
    // Only an account's own hash can match (the dummy never does).
    if (owner.kind === 'account') await resetFailures(this.db, owner.userId);
    return { outcome: 'ok', needsRehash: verification.needsRehash };
  }

  private sweepNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    sweepUnknownFailures(this.db, this.policy, now).catch(this.onBackgroundError);
  }
}
