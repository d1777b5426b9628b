// What a scoped credential (an API token limited to some roles, or a JWT obtained by logging in
// with one) may do to its owner's own account. A narrow token is made for automation; it must
// not rearrange the account of the person who made it. So a scoped credential takes an action on
// its owner's account only when its scope holds a role that governs the action. An unscoped
// credential acts with all of its owner's roles and is not limited by this table (creating a
// token and setting the context still need their roles, as for anyone).
import { appsForRoles } from '../apps/apps-directory.js';
import { forbidden } from '../lib/errors.js';
import { sameUsername } from '../identity/usernames.js';
import { requireAnyRole, requirePrincipal } from './guard.js';
import type { Principal } from './authenticator.js';

/** Stands for the role of the app named in the request (`app_<name>`; app_administrator is all). */
const APP_ROLE = 'app role';

/**
 * Per action: null, any credential may take it; else the roles, any one of which a scoped
 * credential needs in its scope. sys_administrator governs every change: a credential holding
 * it may make the same change to any account.
 */
export const SCOPED_CREDENTIAL_NEEDS = {
  /** GET /api/core/account/profile, GET /api/core/account/profile/{self} */
  read_profile: null,
  /** GET /api/core/account/session */
  read_session: null,
  /** GET /api/core/token/user */
  list_tokens: ['sys_tokens', 'sys_administrator'],
  /** POST /api/core/token/create/{name} (its route needs sys_tokens of every credential) */
  create_token: ['sys_tokens'],
  /** POST /api/core/token/delete/{name}/{self} */
  delete_token: ['sys_tokens', 'sys_administrator'],
  /** POST /api/core/account/context/{app}[/{self}] */
  set_context: [APP_ROLE, 'sys_administrator'],
  /** POST /api/core/account/profile-update (own) */
  update_profile: ['sys_administrator'],
  /** POST /api/core/account/password */
  change_password: ['sys_administrator'],
  /** GET /api/core/account/mfa */
  read_factors: null,
  /** POST|DELETE /api/core/account/mfa/totp…, POST /api/core/account/mfa/recovery-codes */
  manage_factors: ['sys_administrator'],
  /** GET|POST /api/core/account/logout: without the role it only clears the cookie */
  end_sessions: ['sys_administrator'],
} as const satisfies Record<string, readonly string[] | null>;

export type OwnAccountAction = keyof typeof SCOPED_CREDENTIAL_NEEDS;

/** Whether the caller may take `action` on its own account (`app`: the app of set_context). */
export function mayTakeOwnAccountAction(p: Principal, action: OwnAccountAction, app?: string): boolean {
  const needs: readonly string[] | null = SCOPED_CREDENTIAL_NEEDS[action];
  if (!p.scope || needs === null) return true;
  const held = p.account.roles;
  return needs.some((role) =>
    role === APP_ROLE ? app !== undefined && appsForRoles([app], held).length > 0 : held.has(role),
  );
}

/** Refuses (403) an action on the caller's own account that its scope does not govern. */
export function requireOwnAccountAction(p: Principal | null, action: OwnAccountAction, app?: string): Principal {
  const principal = requirePrincipal(p);
  if (mayTakeOwnAccountAction(principal, action, app)) return principal;
  const scope = [...(principal.scope ?? [])].sort().join(', ') || 'no roles';
  const needs = describeNeeds(action, app);
  const what = action.replace('_', ' ');
  const message = `This credential is limited to ${scope}; ${what} needs an unscoped one or one holding ${needs}`;
  // The contract's code for a context whose app the caller may not use.
  throw forbidden(action === 'set_context' ? 'app_not_allowed' : 'forbidden', message);
}

/** The caller acts on `username`'s account: its own as the table allows, anyone's with sys_administrator. */
export function requireAccountAction(
  p: Principal | null,
  action: OwnAccountAction,
  username: string,
  app?: string,
): Principal {
  const principal = requirePrincipal(p);
  if (sameUsername(principal.account.username, username)) return requireOwnAccountAction(principal, action, app);
  return requireAnyRole(principal, ['sys_administrator']);
}

function describeNeeds(action: OwnAccountAction, app: string | undefined): string {
  const needs: readonly string[] = SCOPED_CREDENTIAL_NEEDS[action] ?? [];
  return needs.map((r) => (r === APP_ROLE ? `app_${app ?? '<name>'} or app_administrator` : r)).join(' or ');
}
