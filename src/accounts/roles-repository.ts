import { isoMicros } from '../lib/time.js';
import type { Db } from '../db/schema.js';

/** Roles the service itself checks (docs/identity.md, Roles). */
export const SYSTEM_ROLES = ['sys_administrator', 'sys_tokens', 'srs_administrator', 'app_administrator'] as const;
export type SystemRole = (typeof SYSTEM_ROLES)[number];

export const ROLE_NAME_PATTERN = '^[A-Za-z0-9_.-]{1,128}$';

export async function ensureRole(db: Db, name: string): Promise<void> {
  await db
    .insertInto('roles')
    .values({ name, created_at: isoMicros() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export async function grantRole(db: Db, userId: string, role: string): Promise<void> {
  await ensureRole(db, role);
  await db
    .insertInto('user_roles')
    .values({ user_id: userId, role_name: role })
    .onConflict((oc) => oc.columns(['user_id', 'role_name']).doNothing())
    .execute();
}

export async function revokeRole(db: Db, userId: string, role: string): Promise<boolean> {
  const res = await db
    .deleteFrom('user_roles')
    .where('user_id', '=', userId)
    .where('role_name', '=', role)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
