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
