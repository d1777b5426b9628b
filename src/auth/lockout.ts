// Failed-password lockout with ASP.NET Identity semantics, made race-free and blind to whether a
// username exists.
//
// - Race-free: an attempt first reserves one of the allowed failures with a single conditional
//   write, so however many attempts arrive in parallel, at most `maxFailedAttempts` passwords
//   are checked before the subject locks.
// - While locked no reservation succeeds, so no password is checked at all: the right password
//   cannot be told from a wrong one during a lockout.
// - Usernames without an account are counted and locked the same way, in `login_failures`
//   (shared by every instance on the database, like the accounts' own counters), so the answers
//   to a known and an unknown username follow the same sequence. That store must expire, so a
//   count is forgotten once no failure was added to it for a lockout window: the same rule
//   applies to accounts, or the difference would show.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { isoMicros } from '../lib/time.js';
import { sha256Hex } from '../lib/random.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface LockoutPolicy {
  maxFailedAttempts: number;
  lockoutMinutes: number;
}

/** Whose failures are counted: an account's row, or an unknown username's entry. */
export type LockoutSubject = { kind: 'account'; userId: string } | { kind: 'unknown'; usernameDigest: string };

/** The key of an unknown username in login_failures (normalise it first). */
export const unknownUsernameDigest = (normalizedUsername: string): string =>
  sha256Hex(`login-failure:${normalizedUsername}`);

/** Entries kept for unknown usernames at most; the oldest go first beyond it. */
export const MAX_UNKNOWN_ENTRIES = 100_000;

/** The instants a failure at `nowMs` is judged by: its own, the window's start, the lock's end. */
export function times(policy: LockoutPolicy, nowMs: number): { now: string; windowStart: string; lockedUntil: string } {
  const windowMs = policy.lockoutMinutes * 60_000;
  return {
    now: isoMicros(nowMs * 1000),
    windowStart: isoMicros((nowMs - windowMs) * 1000),
    lockedUntil: isoMicros((nowMs + windowMs) * 1000),
  };
}

/**
 * Counts one failure in advance; false when the subject is locked or parallel attempts have
 * already reserved every allowed failure (then no password may be checked).
 */
export async function reserveAttempt(
  db: Db,
  subject: LockoutSubject,
  policy: LockoutPolicy,
  nowMs: number = Date.now(),
): Promise<boolean> {
  const { now, windowStart } = times(policy, nowMs);
  const max = policy.maxFailedAttempts;
  if (subject.kind === 'account') {
    const res = await db
      .updateTable('users')
      .set((eb) => ({
        access_failed_count: eb
          .case()
          .when(eb.or([eb('access_failed_at', 'is', null), eb('access_failed_at', '<=', windowStart)]))
          .then(1)
          .else(eb('access_failed_count', '+', 1))
          .end(),
        access_failed_at: now,
      }))
      .where('id', '=', subject.userId)
      .where((eb) => eb.or([eb('lockout_end', 'is', null), eb('lockout_end', '<=', now)]))
      .where((eb) =>
        eb.or([
          eb('access_failed_count', '<', max),
          eb('access_failed_at', 'is', null),
          eb('access_failed_at', '<=', windowStart),
        ]),
      )
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
  const res = await db
    .insertInto('login_failures')
    .values({ username_digest: subject.usernameDigest, failed_count: 1, failed_at: now, lockout_end: null })
    .onConflict((oc) =>
      oc
        .column('username_digest')
        .doUpdateSet((eb) => ({
          failed_count: eb
            .case()
            .when('login_failures.failed_at', '<=', windowStart)
            .then(1)
            .else(eb('login_failures.failed_count', '+', 1))
            .end(),
          failed_at: now,
        }))
        .where((eb) =>
          eb.or([eb('login_failures.lockout_end', 'is', null), eb('login_failures.lockout_end', '<=', now)]),
        )
        .where((eb) =>
          eb.or([eb('login_failures.failed_count', '<', max), eb('login_failures.failed_at', '<=', windowStart)]),
        ),
    )
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** After a failed check: the attempt that finds the limit reached sets the lockout (then true). */
export async function lockIfLimitReached(
  db: Db,
  subject: LockoutSubject,
  policy: LockoutPolicy,
  nowMs: number = Date.now(),
): Promise<boolean> {
  const { lockedUntil } = times(policy, nowMs);
  const max = policy.maxFailedAttempts;
  if (subject.kind === 'account') {
    const res = await db
      .updateTable('users')
      .set({ lockout_end: lockedUntil, access_failed_count: 0 })
      .where('id', '=', subject.userId)
      .where('access_failed_count', '>=', max)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }
  const res = await db
    .updateTable('login_failures')
    .set({ lockout_end: lockedUntil, failed_count: 0 })
    .where('username_digest', '=', subject.usernameDigest)
    .where('failed_count', '>=', max)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** After the right password: the count starts again. */
export async function resetFailures(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ access_failed_count: 0, access_failed_at: null, last_activity: isoMicros() })
    .where('id', '=', userId)
    .execute();
}

/**
 * Removes the entries of unknown usernames that no longer count (no lockout, last failure
 * before the window) and, past MAX_UNKNOWN_ENTRIES, the oldest ones not locked out: the store
 * stays bounded whatever is sent to the login.
 */
export async function sweepUnknownFailures(
  db: Db,
  policy: LockoutPolicy,
  nowMs: number = Date.now(),
  maxEntries: number = MAX_UNKNOWN_ENTRIES,
): Promise<void> {
  const { now, windowStart } = times(policy, nowMs);
  await db
    .deleteFrom('login_failures')
    .where('failed_at', '<=', windowStart)
    .where((eb) => eb.or([eb('lockout_end', 'is', null), eb('lockout_end', '<=', now)]))
    .execute();
  const { n } = await db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  const excess = Number(n) - maxEntries;
  if (excess <= 0) return;
  // Entries under a lockout are what stops a guesser: they go last.
  const oldest = db
    .selectFrom('login_failures')
    .select('username_digest')
    .orderBy((eb) => eb.case().when('lockout_end', '>', now).then(1).else(0).end())
    .orderBy('failed_at')
    .limit(excess);
  await db.deleteFrom('login_failures').where('username_digest', 'in', oldest).execute();
}
