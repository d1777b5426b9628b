// An account's second factors: TOTP enrolment (pending until a first code confirms it), its
// removal, recovery codes, and an administrator's reset. Every change is audited in its
// transaction and announced, so every instance sees at once whether the account has a factor.
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema.js';
import { AppError, conflict, forbidden, invalid, notFound } from '../lib/errors.js';
import { isoMicros } from '../lib/time.js';
import { qrCodeSvg } from '../report/index.js';
import { recordAudit } from '../audit/audit-repository.js';
import type { AuditActor } from '../audit/audit-actions.js';
import { announceAuthChange } from './auth-changes.js';
import { resetSecondFactors } from './second-factor-reset.js';
import { recoveryCodesLeft, replaceRecoveryCodes } from './recovery-codes.js';
import type { SecondFactorCheck } from './second-factor.js';
import type { SecretBox } from './secret-box.js';
import { newTotpSecret, totpUri } from './totp.js';

/** Whose factors: the account's id and username. */
export interface FactorAccount {
  id: string;
  username: string;
}

export interface TotpEnrolment {
  /** The otpauth:// URI (what the QR code holds). */
  uri: string;
  /** The secret, base32, for typing into an app that cannot scan. */
  secret: string;
  qrSvg: string;
}

export interface MfaStatus {
  totp: 'none' | 'pending' | 'confirmed';
  recoveryCodesLeft: number;
}

export class MfaService {
  constructor(
    readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    readonly check: SecondFactorCheck,
    /** The issuer authenticator apps show next to the account (Settings:OwnerName). */
    private readonly issuer: string,
    /** Drops the account's cached state on this instance (others hear the announcement). */
    private readonly invalidate: (userId: string) => void,
  ) {}

  async status(db: Db, userId: string): Promise<MfaStatus> {
    const row = await db.selectFrom('mfa_totp').select('confirmed_at').where('user_id', '=', userId).executeTakeFirst();
    return {
      totp: row === undefined ? 'none' : row.confirmed_at === null ? 'pending' : 'confirmed',
      recoveryCodesLeft: await recoveryCodesLeft(db, userId),
    };
  }

  /** A new secret, pending until confirmed; an earlier pending one is replaced. 409 when one is confirmed. */
  async enrolTotp(account: FactorAccount, by: AuditActor): Promise<TotpEnrolment> {
    const secret = newTotpSecret();
    const sealed = this.box.seal(secret, account.id);
    await this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('mfa_totp')
        .select('confirmed_at')
        .where('user_id', '=', account.id)
        .executeTakeFirst();
      if (existing?.confirmed_at) throw conflict('totp_already_enrolled', 'TOTP is already set up; remove it first');
      await trx.deleteFrom('mfa_totp').where('user_id', '=', account.id).execute();
      await trx
        .insertInto('mfa_totp')
        .values({ user_id: account.id, secret: sealed, created_at: isoMicros(), confirmed_at: null, last_step: null })
        .execute();
      await recordAudit(trx, { action: 'mfa_totp_enrol', by, subject: account.username, subjectId: account.id });
    });
    const uri = totpUri(secret, this.issuer, account.username);
    return { uri, secret, qrSvg: qrCodeSvg(uri) };
  }

  /** The first right code makes the pending secret the account's factor; answers the new recovery codes. */
  async confirmTotp(account: FactorAccount, code: string, by: AuditActor): Promise<string[]> {
    const pending = await this.db
      .selectFrom('mfa_totp')
      .select('confirmed_at')
      .where('user_id', '=', account.id)
      .executeTakeFirst();
    if (!pending) throw notFound('totp_not_enrolled', 'No TOTP enrolment to confirm: start one first');
    if (pending.confirmed_at !== null) throw conflict('totp_already_enrolled', 'TOTP is already confirmed');
    let codes: string[] = [];
    const confirm = this.check.verify({ ...account, pending: true }, { code }, by, async (trx) => {
      await trx.updateTable('mfa_totp').set({ confirmed_at: isoMicros() }).where('user_id', '=', account.id).execute();
      codes = await replaceRecoveryCodes(trx, account.id);
      await recordAudit(trx, { action: 'mfa_totp_confirm', by, subject: account.username, subjectId: account.id });
      await recordAudit(trx, {
        action: 'mfa_recovery_codes_create',
        by,
        subject: account.username,
        subjectId: account.id,
        data: { count: codes.length },
      });
      await announceAuthChange(trx, { users: [account.id] });
    });
    // The caller is signed in: a wrong code is a bad request and a locked factor a refusal, not a
    // failed authentication (which would tell a client its session ended).
    await confirm.catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'invalid_mfa_code') throw invalid(err.code, err.message);
      if (err instanceof AppError && err.code === 'mfa_locked') throw forbidden(err.code, err.message);
      throw err;
    });
    this.invalidate(account.id);
    return codes;
  }

  /** Removes the TOTP factor and, as it is the only factor, the recovery codes with it. */
  async removeTotp(account: FactorAccount, by: AuditActor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const res = await trx.deleteFrom('mfa_totp').where('user_id', '=', account.id).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw notFound('totp_not_enrolled', 'TOTP is not set up');
      await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', account.id).execute();
      await recordAudit(trx, { action: 'mfa_totp_remove', by, subject: account.username, subjectId: account.id });
      await announceAuthChange(trx, { users: [account.id] });
    });
    this.invalidate(account.id);
  }

  /** New recovery codes in place of the old ones (which stop working); 409 without a confirmed factor. */
  async regenerateRecoveryCodes(account: FactorAccount, by: AuditActor): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      if ((await this.status(trx, account.id)).totp !== 'confirmed')
        throw conflict('mfa_not_enrolled', 'Recovery codes need a second factor: set up TOTP first');
      const codes = await replaceRecoveryCodes(trx, account.id);
      await recordAudit(trx, {
        action: 'mfa_recovery_codes_create',
        by,
        subject: account.username,
        subjectId: account.id,
        data: { count: codes.length },
      });
      return codes;
    });
  }

  /** An administrator's reset: every factor, recovery code and pending login goes, and the sessions end. */
  async reset(username: string, by: AuditActor): Promise<FactorAccount> {
    const account = await resetSecondFactors(this.db, username, by);
    this.invalidate(account.id);
    return account;
  }
}
