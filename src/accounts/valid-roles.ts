// The roles that may be granted: a role nothing checks is a mistake (a typo, an app
// that is not installed), so granting one is refused with the list of the valid ones. Valid are
// the system roles, `app_<name>` of every installed app, and the roles the installed apps' SRS
// definitions name in their command `acl`s (the roles those commands check). Revoking is never
// restricted: a role of a removed app must still be removable.
import { listApps } from '../apps/apps-directory.js';
import { invalid } from '../lib/errors.js';
import { SYSTEM_ROLES, type SystemRole } from './roles-repository.js';

/** The roles the installed apps' SRS definitions name in their `acl`s (supplied by the SRS domain). */
export type AclRoleSource = () => Promise<readonly string[]>;

export const ROLE_KINDS = ['system', 'app', 'acl'] as const;
export type RoleKind = (typeof ROLE_KINDS)[number];

export interface GrantableRole {
  name: string;
  /** system: checked by the platform; app: `app_<name>` of an installed app; acl: named by an SRS command. */
  kind: RoleKind;
  description: string;
}

const SYSTEM_ROLE_DESCRIPTIONS: Record<SystemRole, string> = {
  sys_administrator: 'Administers accounts, teams, the tokens of every user and the audit trail',
  sys_tokens: 'Creates API tokens of their own',
  srs_administrator: 'Sees the SQL and warnings of SRS definitions and gets starter templates (_new.frx)',
  app_administrator: 'Uses the reports of every installed app',
};

/** Every role that may be granted now, with what it is for: system roles first, then the apps'. */
export async function grantableRoles(appsDir: string, aclRoles: AclRoleSource): Promise<GrantableRole[]> {
  const roles = new Map<string, GrantableRole>();
  const add = (name: string, kind: RoleKind, description: string) => {
    if (!roles.has(name)) roles.set(name, { name, kind, description });
  };
  for (const name of SYSTEM_ROLES) add(name, 'system', SYSTEM_ROLE_DESCRIPTIONS[name]);
  for (const app of listApps(appsDir)) add(`app_${app}`, 'app', `Uses the reports of the app ${app}`);
  for (const name of [...(await aclRoles())].sort())
    add(name, 'acl', "Named in an installed app's SRS command acl: such commands run only for its holders");
  return [...roles.values()];
}

/** Every role that may be granted now, system roles first, then the apps' roles. */
export async function validRoles(appsDir: string, aclRoles: AclRoleSource): Promise<string[]> {
  return (await grantableRoles(appsDir, aclRoles)).map((r) => r.name);
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
