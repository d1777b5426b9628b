// The one reusable role check. Routes declare `config.roles` (any of them suffices); services
// that decide per target (owner or administrator) call these directly.
import { forbidden, unauthenticated } from '../lib/errors.js';
import type { Principal } from './authenticator.js';
import { sameUsername } from '../identity/usernames.js';

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

/** The caller acts on their own account, or holds sys_administrator. */
export function requireSelfOrAdmin(p: Principal | null, username: string): Principal {
  const principal = requirePrincipal(p);
  if (sameUsername(principal.account.username, username)) return principal;
  return requireAnyRole(principal, ['sys_administrator']);
}
