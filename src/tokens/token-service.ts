// API token management (docs/api.md, Tokens). The value is generated here, shown
// once in the create answer, and only its hash is stored. A token may expire (`expires_in_days`)
// and may be limited to some of its owner's roles (`roles`); authentication enforces
// both (auth/authenticator.ts). A token never outlives the credential that created it.
import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import type { Database, Db } from '../db/schema.js';
import { conflict, invalid, notFound } from '../lib/errors.js';
import { addSeconds, isoMicros, withoutZone } from '../lib/time.js';
import { newId } from '../lib/random.js';
import { findUserByUsername, userRoleNames } from '../identity/users-repository.js';
import { generateTokenValue, hashTokenValue } from '../auth/token-values.js';
import { announceAuthChange } from '../auth/auth-changes.js';
import {
  deleteExpiredTokens,
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
/** The longest lifetime a token may be given: ten years. */
export const MAX_TOKEN_DAYS = 3650;

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
  token_expires_at: Nullable(
    Type.String({ description: 'UTC, without zone: the token fails from then on (401 token_expired); null: never' }),
  ),
  roles: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: "the roles the token may use (only those the owner still holds); null: all of the owner's roles",
  }),
});

/** What a new token may be limited to. */
export interface TokenLimits {
  /** Whole days from now until the token expires (1 to MAX_TOKEN_DAYS); absent: never. */
  expiresInDays?: number;
  /** Role names, each one the owner holds; absent: all of the owner's roles. */
  roles?: readonly string[];
  /** The creator's own limit when it acts with a scoped credential: a new token may not have
   *  more power than the credential that made it (its default scope is then this one). */
  within?: ReadonlySet<string>;
  /** When the creating credential's authority ends (epoch ms): a token made with an expiring
   *  credential expires no later, whatever `expiresInDays` asks (its default is then this). */
  notAfterMs?: number;
}

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
    token_expires_at: withoutZone(row.expires_at),
    roles: row.roles === null ? null : (JSON.parse(row.roles) as string[]),
  };
}

/** The stored scope (JSON text or null) of a new token, checked against what its owner holds. */
function tokenScope(ownerRoles: ReadonlySet<string>, limits: TokenLimits): string | null {
  const { within } = limits;
  const allowed = within ? new Set([...ownerRoles].filter((r) => within.has(r))) : ownerRoles;
  const wanted = limits.roles ?? (within ? [...allowed] : null);
  if (wanted === null) return null;
  const missing = [...new Set(wanted)].filter((r) => !allowed.has(r));
  if (missing.length > 0) {
    const whose = within ? 'the creating credential' : 'the owner';
    throw invalid(
      'role_not_held',
      `A token can only have roles ${whose} holds; not held: ${missing.join(', ')}`,
      missing.map((r) => ({ field: 'roles', rule: 'held', message: `${r} is not a role ${whose} holds` })),
    );
  }
  return JSON.stringify([...new Set(wanted)].sort());
}

function tokenExpiry(now: string, { expiresInDays: days, notAfterMs }: TokenLimits): string | null {
  if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_TOKEN_DAYS))
    throw invalid('invalid_input', `expires_in_days must be a whole number from 1 to ${MAX_TOKEN_DAYS}`, [
      { field: 'expires_in_days', rule: 'range', message: `a whole number from 1 to ${MAX_TOKEN_DAYS}` },
    ]);
  const asked = days === undefined ? null : addSeconds(now, days * 86_400);
  // Clamped rather than refused: the record's token_expires_at shows the creator what it got.
  if (notAfterMs === undefined || (asked !== null && Date.parse(asked) <= notAfterMs)) return asked;
  return isoMicros(notAfterMs * 1000);
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

  async create(
    ownerUsername: string,
    name: string,
    createdBy: string,
    by: AuditActor,
    limits: TokenLimits = {},
  ): Promise<TokenRecord> {
    const value = generateTokenValue();
    const createdAt = isoMicros();
    const expiresAt = tokenExpiry(createdAt, limits);
    const row = await this.db.transaction().execute(async (trx) => {
      const owner = await findUserByUsername(trx, ownerUsername);
      if (!owner) throw notFound('user_not_found', `User ${ownerUsername} not found`);
      const roles = tokenScope(new Set(await userRoleNames(trx, owner.id)), limits);
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
          createdAt,
          createdBy,
          expiresAt,
          roles,
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

  /** Deletes every expired token; answers how many. */
  /** Deletes every expired token, each recorded in the audit trail as a deletion. */
  async pruneExpired(by: AuditActor): Promise<number> {
    const ids = await this.db.transaction().execute(async (trx) => {
      const deleted = await deleteExpiredTokens(trx, isoMicros());
      for (const t of deleted)
        await recordAudit(trx, {
          action: 'token_delete',
          by,
          subject: t.username,
          subjectId: t.user_id,
          data: { name: t.name, expired: true },
        });
      const ids = deleted.map((t) => t.id);
      if (ids.length > 0) await announceAuthChange(trx, { tokens: ids });
      return ids;
    });
    this.onRevoked(ids);
    return ids.length;
  }

  private async requireUser(username: string, db: Db = this.db) {
    const user = await findUserByUsername(db, username);
    if (!user) throw notFound('user_not_found', `User ${username} not found`);
    return user;
  }
}
