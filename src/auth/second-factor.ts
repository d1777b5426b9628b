// Verifying a second factor: a TOTP code or a recovery code, under the second factor's lockout
// (mfa-lockout.ts). Each attempt reserves a failure first; the code is then checked and, when
// right, spent in one conditional write (the TOTP step recorded, the recovery code marked used),
// so a code is taken once on whichever instance it reaches first. The outcome is audited in the
// transaction of its last write, with whatever the caller adds to a success (`onSuccess`).
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema.js';
import { unauthenticated } from '../lib/errors.js';
import { recordAudit } from '../audit/audit-repository.js';
import type { AuditActor } from '../audit/audit-actions.js';
import { lockMfaIfLimitReached, reserveMfaAttempt, resetMfaFailures } from './mfa-lockout.js';
import type { LockoutPolicy } from './lockout.js';
import { matchingStep } from './totp.js';
import { recoveryCodesLeft, spendRecoveryCode } from './recovery-codes.js';
import type { SecretBox } from './secret-box.js';
import { announceAuthChange } from './auth-changes.js';

export type SecondFactorProof = { code: string } | { recoveryCode: string };

export interface SecondFactorPass {
  method: 'totp' | 'recovery_code';
  /** With a recovery code: how many unused ones the account has left. */
  recoveryCodesLeft?: number;
}

/** Whose factor is checked; `pending`: the enrolment's first code (the factor is not confirmed yet). */
export interface FactorOwner {
  id: string;
  username: string;
  pending?: boolean;
}

export const mfaLocked = () =>
  unauthenticated('mfa_locked', 'Too many wrong codes: the second factor is locked for a while');
const wrongCode = () => unauthenticated('invalid_mfa_code', 'The code is wrong, expired or already used');

export class SecondFactorCheck {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    private readonly policy: LockoutPolicy,
  ) {}

  /** The account's confirmed TOTP factor, decrypted (null: none). */
  async totpSecret(db: Db, userId: string, pending = false): Promise<string | null> {
    const row = await db
      .selectFrom('mfa_totp')
      .select(['secret', 'confirmed_at'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row || (row.confirmed_at === null) !== pending) return null;
    try {
      return this.box.open(row.secret, userId);
    } catch (err) {
      // Not the caller's doing: the key is not the one the secret was sealed with (a server fault).
      throw new Error(
        'a TOTP secret cannot be decrypted: Settings:SecretsKeyFile or Settings:SecretsKey is not the key it was ' +
          'stored under',
        { cause: err },
      );
    }
  }

  /**
   * Checks `proof`; a right one is spent and answered, a wrong one counted (401 invalid_mfa_code)
   * and, at the limit, locks the factor (401 mfa_locked, as every attempt while locked).
   */
  async verify(
    owner: FactorOwner,
    proof: SecondFactorProof,
    by: AuditActor,
    onSuccess?: (trx: Db, pass: SecondFactorPass) => Promise<void>,
  ): Promise<SecondFactorPass> {
    const method = 'code' in proof ? 'totp' : 'recovery_code';
    const audited = { by, subject: owner.username, subjectId: owner.id };
    if (!(await reserveMfaAttempt(this.db, owner.id, this.policy))) {
      await recordAudit(this.db, { ...audited, action: 'mfa_failed', data: { method, reason: 'mfa_locked' } });
      throw mfaLocked();
    }
    let step: number | null = null;
    if ('code' in proof) {
      const secret = await this.totpSecret(this.db, owner.id, owner.pending === true);
      step = secret === null ? null : matchingStep(secret, proof.code);
    }
    const pass = await this.db.transaction().execute(async (trx): Promise<SecondFactorPass | null> => {
      let result: SecondFactorPass | null = null;
      if ('recoveryCode' in proof) {
        if (await spendRecoveryCode(trx, owner.id, proof.recoveryCode))
          result = { method, recoveryCodesLeft: await recoveryCodesLeft(trx, owner.id) };
      } else if (step !== null && (await this.spendStep(trx, owner.id, step))) result = { method };
      if (result === null) return null;
      await resetMfaFailures(trx, owner.id);
      const action = result.method === 'recovery_code' ? 'mfa_recovery_code_used' : 'mfa_success';
      const data = result.method === 'recovery_code' ? { remaining: result.recoveryCodesLeft } : { method };
      await recordAudit(trx, { ...audited, action, data });
      await onSuccess?.(trx, result);
      return result;
    });
    if (pass) return pass;
    await this.db.transaction().execute(async (trx) => {
      const lockedNow = await lockMfaIfLimitReached(trx, owner.id, this.policy);
      await recordAudit(trx, { ...audited, action: 'mfa_failed', data: { method, reason: 'invalid_mfa_code' } });
      if (lockedNow) {
        await recordAudit(trx, { ...audited, action: 'mfa_lockout' });
        await announceAuthChange(trx, { users: [owner.id] });
      }
    });
    throw wrongCode();
  }

  /** Records `step` as used: false when it (or a later one) already was. */
  private async spendStep(db: Db, userId: string, step: number): Promise<boolean> {
    const res = await db
      .updateTable('mfa_totp')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}

/** Whether the account has a confirmed second factor (a pending enrolment is none yet). */
export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('mfa_totp')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}
