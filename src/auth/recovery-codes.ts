// Recovery codes: single-use second-factor codes for a lost authenticator. Ten per account,
// shown once; only their SHA-256 digests are kept (each holds 50 random bits, so a digest cannot
// be reversed by guessing, and the lockout caps online guesses).
import { randomInt } from 'node:crypto';
import type { Db } from '../db/schema.js';
import { newId, sha256Hex } from '../lib/random.js';
import { isoMicros } from '../lib/time.js';

export const RECOVERY_CODE_COUNT = 10;
// No 0/O, 1/I/L: codes are read off paper.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUP = 5;

function newCode(): string {
  let s = '';
  for (let i = 0; i < 2 * GROUP; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return `${s.slice(0, GROUP)}-${s.slice(GROUP)}`;
}

/** Case, spaces and dashes as typed do not matter. */
const normalize = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '');
const digestOf = (code: string): string => sha256Hex(`recovery-code:${normalize(code)}`);

/** Replaces the account's codes with new ones; answers them (the only time they are seen). */
export async function replaceRecoveryCodes(db: Db, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId).execute();
  const now = isoMicros();
  await db
    .insertInto('mfa_recovery_codes')
    .values(codes.map((c) => ({ id: newId(), user_id: userId, code_digest: digestOf(c), created_at: now })))
    .execute();
  return codes;
}

/** Marks the code used, in one conditional write (of parallel uses one wins); false: no such unused code. */
export async function spendRecoveryCode(db: Db, userId: string, code: string): Promise<boolean> {
  if (code.length > 64) return false;
  const res = await db
    .updateTable('mfa_recovery_codes')
    .set({ used_at: isoMicros() })
    .where('user_id', '=', userId)
    .where('code_digest', '=', digestOf(code))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const { n } = await db
    .selectFrom('mfa_recovery_codes')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}
