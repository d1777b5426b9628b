// Wrong second-factor codes lock the second factor by the password lockout's rule and settings
// (lockout.ts): an attempt first reserves one of the allowed failures with one conditional write,
// so however many codes arrive in parallel, at most `maxFailedAttempts` are verified before the
// factor locks, and while it is locked none is verified. Counted apart from wrong passwords.
import type { Db } from '../db/schema.js';
import { type LockoutPolicy, times } from './lockout.js';

/** Counts one failure in advance; false when the factor is locked or every allowed failure is taken. */
export async function reserveMfaAttempt(db: Db, userId: string, policy: LockoutPolicy, nowMs = Date.now()) {
  const { now, windowStart } = times(policy, nowMs);
  const res = await db
    .updateTable('users')
    .set((eb) => ({
      mfa_failed_count: eb
        .case()
        .when(eb.or([eb('mfa_failed_at', 'is', null), eb('mfa_failed_at', '<=', windowStart)]))
        .then(1)
        .else(eb('mfa_failed_count', '+', 1))
        .end(),
      mfa_failed_at: now,
    }))
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('mfa_lockout_end', 'is', null), eb('mfa_lockout_end', '<=', now)]))
    .where((eb) =>
      eb.or([
        eb('mfa_failed_count', '<', policy.maxFailedAttempts),
        eb('mfa_failed_at', 'is', null),
        eb('mfa_failed_at', '<=', windowStart),
      ]),
    )
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** After a wrong code: the attempt that finds the limit reached locks the factor (then true). */
export async function lockMfaIfLimitReached(db: Db, userId: string, policy: LockoutPolicy, nowMs = Date.now()) {
  const { lockedUntil } = times(policy, nowMs);
  const res = await db
    .updateTable('users')
    .set({ mfa_lockout_end: lockedUntil, mfa_failed_count: 0 })
    .where('id', '=', userId)
    .where('mfa_failed_count', '>=', policy.maxFailedAttempts)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** After a right code (or an administrator's reset): the count starts again and no lock remains. */
export async function resetMfaFailures(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ mfa_failed_count: 0, mfa_failed_at: null }).where('id', '=', userId).execute();
}
