// Failed-password lockout with ASP.NET Identity semantics, made race-free: an attempt first
// reserves one of the allowed failures with a single conditional UPDATE, so however many
// attempts arrive in parallel, at most `max` passwords are checked before the account locks.
import type { Db } from '../accounts/users-repository.js';
import { addSeconds, isoMicros } from '../lib/time.js';

export async function reserveAttempt(db: Db, userId: string, max: number): Promise<boolean> {
  const now = isoMicros();
  const res = await db
    .updateTable('users')
    .set((eb) => ({ access_failed_count: eb('access_failed_count', '+', 1) }))
    .where('id', '=', userId)
    .where('access_failed_count', '<', max)
    .where((eb) => eb.or([eb('lockout_end', 'is', null), eb('lockout_end', '<=', now)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** After a failed check: the attempt that finds the limit reached sets the lockout. */
export async function lockIfLimitReached(db: Db, userId: string, max: number, minutes: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ lockout_end: addSeconds(isoMicros(), minutes * 60), access_failed_count: 0 })
    .where('id', '=', userId)
    .where('access_failed_count', '>=', max)
    .execute();
}

export async function resetFailures(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ access_failed_count: 0, last_activity: isoMicros() }).where('id', '=', userId).execute();
}
