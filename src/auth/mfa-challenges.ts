// The mfa_token a password login answers when a second factor is due: random, short-lived,
// bound to its account, kept only as a digest, and deleted by the login it completes (one
// conditional delete, so of two parallel completions one wins, on any instance).
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/schema.js';
import { sha256Hex } from '../lib/random.js';
import { isoMicros } from '../lib/time.js';

/** How long the second step may take. */
export const MFA_TOKEN_SECONDS = 300;
const PREFIX = 'mfa_';
const MAX_TOKEN_LENGTH = 128;

const digestOf = (token: string): string => sha256Hex(`mfa-token:${token}`);

export async function issueMfaChallenge(db: Db, userId: string, nowMs = Date.now()) {
  const token = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(nowMs + MFA_TOKEN_SECONDS * 1000);
  // Expired challenges go as new ones come: the table holds only the last few minutes' logins.
  await db
    .deleteFrom('mfa_challenges')
    .where('expires_at', '<=', isoMicros(nowMs * 1000))
    .execute();
  await db
    .insertInto('mfa_challenges')
    .values({ token_digest: digestOf(token), user_id: userId, expires_at: isoMicros(expiresAt.getTime() * 1000) })
    .execute();
  return { token, expiresAt, expiresIn: MFA_TOKEN_SECONDS };
}

/** The account a live challenge belongs to, or null (unknown, expired or used). */
export async function challengeOwner(db: Db, token: string, nowMs = Date.now()): Promise<string | null> {
  if (!token.startsWith(PREFIX) || token.length > MAX_TOKEN_LENGTH) return null;
  const row = await db
    .selectFrom('mfa_challenges')
    .select('user_id')
    .where('token_digest', '=', digestOf(token))
    .where('expires_at', '>', isoMicros(nowMs * 1000))
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Uses the challenge up; false when another completion (or its expiry) came first. */
export async function spendMfaChallenge(db: Db, token: string, userId: string, nowMs = Date.now()) {
  const res = await db
    .deleteFrom('mfa_challenges')
    .where('token_digest', '=', digestOf(token))
    .where('user_id', '=', userId)
    .where('expires_at', '>', isoMicros(nowMs * 1000))
    .executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/** An administrator's reset: the account's pending logins end too. */
export async function dropMfaChallenges(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('mfa_challenges').where('user_id', '=', userId).execute();
}
