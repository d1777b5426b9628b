// An administrator's reset of an account's second factors, on its own (no QR or TOTP code here)
// so the CLI's `mfa reset` loads nothing else.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { notFound } from '../lib/errors.js';
import { recordAudit } from '../audit/audit-repository.js';
import type { AuditActor } from '../audit/audit-actions.js';
import { findUserByUsername, rotateSecurityStamp } from '../identity/users-repository.js';
import { announceAuthChange } from './auth-changes.js';
import { dropMfaChallenges } from './mfa-challenges.js';
import { resetMfaFailures } from './mfa-lockout.js';

/**
 * Removes the account's factors, recovery codes and pending second steps, lifts the factor's
 * lockout and ends its sessions, in one audited transaction (the API's reset and the CLI's, the
 * way back in for an administrator who lost every factor).
 */
export async function resetSecondFactors(
  db: Kysely<Database>,
  username: string,
  by: AuditActor,
): Promise<{ id: string; username: string }> {
  return db.transaction().execute(async (trx) => {
    const user = await findUserByUsername(trx, username);
    if (!user) throw notFound('user_not_found', `User ${username} not found`);
    const totp = await trx.deleteFrom('mfa_totp').where('user_id', '=', user.id).executeTakeFirst();
    const codes = await trx.deleteFrom('mfa_recovery_codes').where('user_id', '=', user.id).executeTakeFirst();
    await dropMfaChallenges(trx, user.id);
    await trx.updateTable('users').set({ mfa_lockout_end: null }).where('id', '=', user.id).execute();
    await resetMfaFailures(trx, user.id);
    await rotateSecurityStamp(trx, user.id);
    await recordAudit(trx, {
      action: 'mfa_reset',
      by,
      subject: user.username,
      subjectId: user.id,
      data: { totp: Number(totp.numDeletedRows) > 0, recovery_codes: Number(codes.numDeletedRows) },
    });
    await announceAuthChange(trx, { users: [user.id] });
    return { id: user.id, username: user.username };
  });
}
