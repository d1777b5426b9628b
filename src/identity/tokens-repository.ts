import type { Db } from '../db/schema.js';

export interface TokenListRow {
  id: string;
  user_id: string;
  username: string;
  name: string;
  login_provider: string | null;
  created_at: string;
  created_by: string;
  used_at: string | null;
  expires_at: string | null;
  /** JSON array text of the token's roles, or null (all of the owner's). */
  roles: string | null;
}

function listQuery(db: Db) {
  return db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .select([
      'tokens.id as id',
      'tokens.user_id as user_id',
      'users.username as username',
      'tokens.name as name',
      'tokens.login_provider as login_provider',
      'tokens.created_at as created_at',
      'tokens.created_by as created_by',
      'tokens.used_at as used_at',
      'tokens.expires_at as expires_at',
      'tokens.roles as roles',
    ])
    .orderBy('users.normalized_username')
    .orderBy('tokens.name');
}

export async function listTokens(db: Db, userId?: string): Promise<TokenListRow[]> {
  const q = listQuery(db);
  return (userId === undefined ? q : q.where('tokens.user_id', '=', userId)).execute();
}

export async function findToken(db: Db, userId: string, name: string): Promise<TokenListRow | undefined> {
  return listQuery(db).where('tokens.user_id', '=', userId).where('tokens.name', '=', name).executeTakeFirst();
}

export async function insertToken(
  db: Db,
  t: {
    id: string;
    userId: string;
    name: string;
    hash: string;
    loginProvider: string;
    createdAt: string;
    createdBy: string;
    expiresAt: string | null;
    /** JSON array text, or null for all of the owner's roles. */
    roles: string | null;
  },
): Promise<void> {
  await db
    .insertInto('tokens')
    .values({
      id: t.id,
      user_id: t.userId,
      name: t.name,
      token_hash: t.hash,
      login_provider: t.loginProvider,
      created_at: t.createdAt,
      created_by: t.createdBy,
      used_at: null,
      expires_at: t.expiresAt,
      roles: t.roles,
    })
    .execute();
}

export async function deleteTokenById(db: Db, id: string): Promise<boolean> {
  const res = await db.deleteFrom('tokens').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/** The token with this hash, its owner and its limits: what authentication needs of an API token. */
export async function findTokenByHash(
  db: Db,
  hash: string,
): Promise<{ id: string; user_id: string; expires_at: string | null; roles: string | null } | undefined> {
  return db
    .selectFrom('tokens')
    .select(['id', 'user_id', 'expires_at', 'roles'])
    .where('token_hash', '=', hash)
    .executeTakeFirst();
}

/** Deletes the tokens expired at `nowIso`; answers their ids. */
/** Deletes the tokens expired at `nowIso`; returns each one's id, name and owner. */
export async function deleteExpiredTokens(
  db: Db,
  nowIso: string,
): Promise<Array<{ id: string; name: string; user_id: string; username: string }>> {
  const expired = await db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .select(['tokens.id as id', 'tokens.name as name', 'tokens.user_id as user_id', 'users.username as username'])
    .where('tokens.expires_at', 'is not', null)
    .where('tokens.expires_at', '<=', nowIso)
    .execute();
  if (expired.length > 0)
    await db
      .deleteFrom('tokens')
      .where(
        'id',
        'in',
        expired.map((t) => t.id),
      )
      .execute();
  return expired;
}
