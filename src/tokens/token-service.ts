// API token management (spec §4.1, CONTRACT.md "Tokens"). The value is generated here, shown
// once in the create answer, and only its hash is stored.
import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import type { Database, Db } from '../db/schema.js';
import { conflict, notFound } from '../lib/errors.js';
import { isoMicros, withoutZone } from '../lib/time.js';
import { newId } from '../lib/random.js';
import { findUserByUsername } from '../identity/users-repository.js';
import { generateTokenValue, hashTokenValue } from '../auth/token-values.js';
import { announceAuthChange } from '../auth/auth-changes.js';
import {
  deleteTokenById,
  findToken,
  insertToken,
  listTokens,
  type TokenListRow,
} from '../identity/tokens-repository.js';
import { orConflict } from '../db/database-errors.js';
import { recordAudit } from '../audit/audit-repository.js';
import type { AuditActor } from '../audit/audit-actions.js';

export const TOKEN_NAME_PATTERN = '^[A-Za-z0-9._-]{1,64}$';
/** Recorded as the token's login provider: tokens log in with the username `api`. */
const LOGIN_PROVIDER = 'api';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** A token as the API shows it: the schema validates and documents it, the type is derived from it. */
export const TokenRecordSchema = Type.Object({
  username: Type.String(),
  userid: Nullable(Type.String()),
  loginprovider: Nullable(Type.String()),
  name: Type.String(),
  value: Nullable(Type.String({ description: 'the token value: only in the create answer, null elsewhere' })),
  token_created_at: Type.String({ description: 'UTC, without zone' }),
  token_used_at: Nullable(Type.String({ description: 'UTC, without zone; null when never used' })),
  token_created_by: Type.String(),
});

export type TokenRecord = Static<typeof TokenRecordSchema>;

function toRecord(row: TokenListRow, value: string | null = null): TokenRecord {
  return {
    username: row.username,
    userid: row.user_id,
    loginprovider: row.login_provider,
    name: row.name,
    value,
    token_created_at: withoutZone(row.created_at) as string,
    token_used_at: withoutZone(row.used_at),
    token_created_by: row.created_by,
  };
}

export class TokenService {
  constructor(
    private readonly db: Kysely<Database>,
    /** Told which tokens were deleted, so cached verifications end at once. */
    private readonly onRevoked: (tokenIds: string[]) => void = () => undefined,
  ) {}

  async listOwn(userId: string): Promise<TokenRecord[]> {
    return (await listTokens(this.db, userId)).map((r) => toRecord(r));
  }

  async listAll(): Promise<TokenRecord[]> {
    return (await listTokens(this.db)).map((r) => toRecord(r));
  }

  async listOf(username: string): Promise<TokenRecord[]> {
    const user = await this.requireUser(username);
    return this.listOwn(user.id);
  }

  async create(ownerUsername: string, name: string, createdBy: string, by: AuditActor): Promise<TokenRecord> {
    const value = generateTokenValue();
    const row = await this.db.transaction().execute(async (trx) => {
      const owner = await findUserByUsername(trx, ownerUsername);
      if (!owner) throw notFound('user_not_found', `User ${ownerUsername} not found`);
      if (await findToken(trx, owner.id, name))
        throw conflict('token_exists', `User ${owner.username} already has a token named ${name}`);
      // A parallel create of the same name may still win the race on the unique constraint.
      await orConflict(
        insertToken(trx, {
          id: newId(),
          userId: owner.id,
          name,
          hash: hashTokenValue(value),
          loginProvider: LOGIN_PROVIDER,
          createdAt: isoMicros(),
          createdBy,
        }),
        () => conflict('token_exists', `User ${owner.username} already has a token named ${name}`),
      );
      await recordAudit(trx, {
        action: 'token_create',
        by,
        subject: owner.username,
        subjectId: owner.id,
        data: { name },
      });
      return findToken(trx, owner.id, name);
    });
    if (!row) throw notFound('token_not_found', `Token ${name} not found`);
    return toRecord(row, value);
  }

  async delete(ownerUsername: string, name: string, by: AuditActor): Promise<TokenRecord> {
    const row = await this.db.transaction().execute(async (trx) => {
      const owner = await this.requireUser(ownerUsername, trx);
      const token = await findToken(trx, owner.id, name);
      if (!token || !(await deleteTokenById(trx, token.id)))
        throw notFound('token_not_found', `Token ${name} of ${owner.username} not found`);
      await recordAudit(trx, {
        action: 'token_delete',
        by,
        subject: owner.username,
        subjectId: owner.id,
        data: { name },
      });
      // Other instances forget the token when (and only if) this commits.
      await announceAuthChange(trx, { tokens: [token.id] });
      return token;
    });
    this.onRevoked([row.id]);
    return toRecord(row);
  }

  private async requireUser(username: string, db: Db = this.db) {
    const user = await findUserByUsername(db, username);
    if (!user) throw notFound('user_not_found', `User ${username} not found`);
    return user;
  }
}
