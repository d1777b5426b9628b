// The roles that may be granted (issue 19): a role nothing checks is a mistake (a typo, an app
// that is not installed), so granting one is refused with the list of the valid ones. Valid are
// the system roles, `app_<name>` of every installed app, and the roles the installed apps' SRS
// definitions name in their command `acl`s (the roles those commands check). Revoking is never
// restricted: a role of a removed app must still be removable.
import { listApps } from '../apps/apps-directory.js';
import { invalid } from '../lib/errors.js';
import { SYSTEM_ROLES } from './roles-repository.js';

/** The roles the installed apps' SRS definitions name in their `acl`s (supplied by the SRS domain). */
export type AclRoleSource = () => Promise<readonly string[]>;

/** Every role that may be granted now, system roles first, then the apps' roles. */
export async function validRoles(appsDir: string, aclRoles: AclRoleSource): Promise<string[]> {
  const appRoles = listApps(appsDir).map((app) => `app_${app}`);
  const named = [...(await aclRoles())].sort();
  return [...new Set<string>([...SYSTEM_ROLES, ...appRoles, ...named])];
}

/** Refuses (400 role_unknown, listing the valid roles) any of `roles` that cannot be granted. */
export async function assertGrantable(
  roles: readonly string[],
  appsDir: string,
  aclRoles: AclRoleSource,
): Promise<void> {
  if (roles.length === 0) return;
  const valid = await validRoles(appsDir, aclRoles);
  const unknown = [...new Set(roles)].filter((r) => !valid.includes(r));
  if (unknown.length === 0) return;
  const list = valid.join(', ');
  throw invalid(
    'role_unknown',
    `Unknown role ${unknown.join(', ')}: a role must be one of ${list}`,
    unknown.map((r) => ({ field: 'role', rule: 'known', message: `${r} is not a role; valid roles: ${list}` })),
  );
}
