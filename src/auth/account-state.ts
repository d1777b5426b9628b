// What authentication needs to know about an account, loaded in one go and cached briefly.
import type { Db } from '../db/schema.js';
import { findUserById, userRoleNames } from '../identity/users-repository.js';
import { stampTag } from './jwt.js';
import { hasSecondFactor } from './second-factor.js';

export interface AccountState {
  id: string;
  username: string;
  stampTag: string;
  isActive: boolean;
  lockoutEnd: string | null;
  roles: ReadonlySet<string>;
  /** The password is one-time (the generated bootstrap one): only its change is allowed. */
  mustChangePassword: boolean;
  /** A confirmed second factor (TOTP): its sessions must have passed it for some actions. */
  hasSecondFactor: boolean;
}

export type AccountBlock = 'account_locked' | 'account_cancelled';

export async function loadAccountState(db: Db, userId: string): Promise<AccountState | null> {
  const user = await findUserById(db, userId);
  if (!user) return null;
  return {
    id: user.id,
    username: user.username,
    stampTag: stampTag(user.security_stamp),
    isActive: user.is_active === 1,
    lockoutEnd: user.lockout_end,
    roles: new Set(await userRoleNames(db, userId)),
    mustChangePassword: user.must_change_password === 1,
    hasSecondFactor: await hasSecondFactor(db, userId),
  };
}

/** Why the account may not authenticate now, or null. Cancellation outranks a lock. */
export function accountBlock(s: { isActive: boolean; lockoutEnd: string | null }, nowIso: string): AccountBlock | null {
  if (!s.isActive) return 'account_cancelled';
  if (s.lockoutEnd !== null && s.lockoutEnd > nowIso) return 'account_locked';
  return null;
}

export const BLOCK_MESSAGES: Record<AccountBlock, string> = {
  account_locked: 'The account is locked',
  account_cancelled: 'The account is cancelled',
};
