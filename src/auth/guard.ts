// The one reusable role check. Routes declare `config.roles` (any of them suffices); routes that
// decide per target (owner or administrator) call own-account-actions.ts, which builds on these.
import { forbidden, unauthenticated } from '../lib/errors.js';
import type { Principal } from './authenticator.js';

export const hasRole = (p: Principal, role: string): boolean => p.account.roles.has(role);

export function requirePrincipal(p: Principal | null): Principal {
  if (!p) throw unauthenticated('authentication_required', 'Authentication required');
  return p;
}

export function requireAnyRole(p: Principal | null, roles: readonly string[]): Principal {
  const principal = requirePrincipal(p);
  if (roles.length > 0 && !roles.some((r) => hasRole(principal, r))) {
    throw forbidden('forbidden', `Requires role ${roles.join(' or ')}`);
  }
  return principal;
}

/** A one-time password (the generated bootstrap one) must be replaced first: until then a route
 *  that does not say `passwordChangeExempt` is refused, whatever the credential. */
export function requireSettledPassword(p: Principal): void {
  if (p.account.mustChangePassword)
    throw forbidden(
      'password_change_required',
      'The password is one-time: set a new one (POST /api/core/account/password) before anything else',
    );
}

/** For an account with a second factor: the session must have passed it within `freshMinutes`
 *  (an API token never has). Accounts without one are not asked. */
export function requireFreshSecondFactor(p: Principal, freshMinutes: number, now: number = Date.now()): void {
  if (!p.account.hasSecondFactor) return;
  if (p.mfaAtMs !== null && now - p.mfaAtMs <= freshMinutes * 60_000) return;
  throw unauthenticated(
    'mfa_step_up_required',
    `This needs a session that passed the second factor in the last ${freshMinutes} minutes: sign in again`,
  );
}

/** A password session of an account that must have a second factor (Settings:MfaRequiredRoles)
 *  and has none may only enrol one. */
export function requireEnrolledSecondFactor(p: Principal, requiredRoles: readonly string[]): void {
  if (mustEnrolSecondFactor(p, requiredRoles))
    throw forbidden(
      'mfa_enrolment_required',
      'This account must have a second factor: set up TOTP (POST /api/core/account/mfa/totp) before anything else',
    );
}

export function mustEnrolSecondFactor(p: Principal, requiredRoles: readonly string[]): boolean {
  if (requiredRoles.length === 0 || !p.passwordSession || p.account.hasSecondFactor) return false;
  return requiredRoles.some((r) => p.account.roles.has(r));
}
