// Small storage functions for the users table. Services compose them inside transactions; nothing here
// knows about HTTP.
import type { Db, NewUser, UserRow, UserUpdate } from '../db/schema.js';
import { isoMicros, LOCKED_FOREVER } from '../lib/time.js';
import { newSecurityStamp } from '../lib/random.js';
import { normalizeUsername } from './usernames.js';
import { orConflict } from '../db/database-errors.js';
import { conflict } from '../lib/errors.js';

/** The account id of a username, or null when there is none. */
export async function findUserId(db: Db, username: string): Promise<string | null> {
  return (await findUserByUsername(db, username))?.id ?? null;
}

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  // No username contains NUL, and PostgreSQL refuses NUL in a text parameter (the query fails).
  if (username.includes('\u0000')) return undefined;
  return db
    .selectFrom('users')
    .selectAll()
    .where('normalized_username', '=', normalizeUsername(username))
    .executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  if (id.includes('\u0000')) return undefined; // as above: never an id, and PostgreSQL would fail
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUser): Promise<void> {
  // The caller looked first; a parallel create of the same username can still win the race.
  await orConflict(db.insertInto('users').values(user).execute(), () =>
    conflict('user_exists', `User ${user.username} already exists`),
  );
}

export async function userRoleNames(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_roles')
    .select('role_name')
    .where('user_id', '=', userId)
    .orderBy('role_name')
    .execute();
  return rows.map((r) => r.role_name);
}

/** A new stamp ends every JWT of the user (they carry a tag of the old one). */
export async function rotateSecurityStamp(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ security_stamp: newSecurityStamp() }).where('id', '=', userId).execute();
}

export async function setPasswordHash(db: Db, userId: string, hash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
}

export async function touchLastActivity(db: Db, userId: string, at: string = isoMicros()): Promise<void> {
  await db.updateTable('users').set({ last_activity: at }).where('id', '=', userId).execute();
}

export async function countUsersWithRole(db: Db, role: string): Promise<number> {
  const row = await db
    .selectFrom('user_roles')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('role_name', '=', role)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An administrator's lock: no end date, and every session ends. */
export async function lockUser(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ lockout_end: LOCKED_FOREVER, security_stamp: newSecurityStamp() })
    .where('id', '=', userId)
    .execute();
}

/** Ends a lock (an administrator's or the lockout's) and forgets the failed attempts. */
export async function unlockUser(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ lockout_end: null, access_failed_count: 0 }).where('id', '=', userId).execute();
}

/** A cancelled account: inactive, and every session ends. */
export async function deactivateUser(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ is_active: 0, security_stamp: newSecurityStamp() })
    .where('id', '=', userId)
    .execute();
}

export async function reactivateUser(db: Db, userId: string): Promise<void> {
  await db.updateTable('users').set({ is_active: 1 }).where('id', '=', userId).execute();
}

/** The user's application context. */
export async function setUserApp(db: Db, userId: string, app: string): Promise<void> {
  await db.updateTable('users').set({ app_name: app }).where('id', '=', userId).execute();
}

/** A new password set by its owner or an administrator: every session ends, failures are forgotten. */
export async function replacePassword(db: Db, userId: string, hash: string): Promise<void> {
  await db
    .updateTable('users')
    // A replaced password is no longer the one-time bootstrap password.
    .set({ password_hash: hash, security_stamp: newSecurityStamp(), access_failed_count: 0, must_change_password: 0 })
    .where('id', '=', userId)
    .execute();
}

/** The id of the user's primary team. */
export async function primaryTeamId(db: Db, userId: string): Promise<string> {
  const row = await db.selectFrom('users').select('team_id').where('id', '=', userId).executeTakeFirstOrThrow();
  return row.team_id;
}

export async function setPrimaryTeam(db: Db, userId: string, teamId: string): Promise<void> {
  await db.updateTable('users').set({ team_id: teamId }).where('id', '=', userId).execute();
}

/** Profile fields the user or an administrator changed. */
export async function updateUser(db: Db, userId: string, changes: UserUpdate): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}
