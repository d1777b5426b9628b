// Turns a presented credential into a principal. Verified JWTs, token lookups and account
// state are cached (bounded, short-lived) so the hot path does no crypto and no query; changes
// made through this instance invalidate the cache at once, changes made elsewhere (CLI, another
// instance) are seen when the account entry expires, within Settings:AuthCacheSeconds (≤ 60 s).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { unauthorized } from '../lib/errors.js';
import { isoMicros } from '../lib/time.js';
import type { Credential, CredentialSource } from './credentials.js';
import { JwtExpiredError, type JwtCodec, type SessionClaims } from './jwt.js';
import { TtlCache } from './ttl-cache.js';
import { hashTokenValue } from './token-values.js';
import { accountBlock, BLOCK_MESSAGES, loadAccountState, type AccountState } from './account-state.js';
import { ActivityRecorder } from './activity-recorder.js';

export interface Principal {
  account: AccountState;
  via: 'jwt' | 'api_token';
  source: CredentialSource;
  tokenId?: string;
}

interface TokenRef {
  tokenId: string;
  userId: string;
}

const MAX_JWT_CACHE_MS = 60 * 60 * 1000;

export class Authenticator {
  private readonly accounts = new TtlCache<string, AccountState>(50_000);
  private readonly jwts = new TtlCache<string, SessionClaims>(50_000);
  /** token hash → owner, or null for "no such token" (a flood of random tokens stays cheap). */
  private readonly tokens = new TtlCache<string, TokenRef | null>(50_000);
  readonly activity: ActivityRecorder;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly jwt: JwtCodec,
    private readonly cacheMs: number,
    onBackgroundError: (err: unknown) => void,
  ) {
    this.activity = new ActivityRecorder(db, onBackgroundError);
  }

  async authenticate(cred: Credential): Promise<Principal> {
    switch (cred.kind) {
      case 'malformed':
        throw unauthorized('invalid_token', `Invalid credential: ${cred.reason}`);
      case 'jwt': {
        const claims = await this.verifyJwt(cred.value);
        const account = await this.usableAccount(claims.userId);
        if (account.stampTag !== claims.stampTag) throw unauthorized('session_ended', 'The session has ended; log in again');
        this.activity.userSeen(account.id);
        return { account, via: 'jwt', source: cred.source };
      }
      case 'api_token': {
        const ref = await this.lookupToken(cred.value);
        const account = await this.usableAccount(ref.userId);
        this.activity.userSeen(account.id);
        this.activity.tokenUsed(ref.tokenId);
        return { account, via: 'api_token', source: cred.source, tokenId: ref.tokenId };
      }
    }
  }

  /** Resolves an API token value to its owner without the account checks (used by login). */
  async lookupToken(value: string): Promise<TokenRef> {
    const hash = hashTokenValue(value);
    let ref = this.tokens.get(hash);
    if (ref === undefined) {
      const row = await this.db.selectFrom('tokens').select(['id', 'user_id']).where('token_hash', '=', hash).executeTakeFirst();
      ref = row ? { tokenId: row.id, userId: row.user_id } : null;
      this.tokens.set(hash, ref, this.cacheMs);
    }
    if (ref === null) throw unauthorized('invalid_token', 'Invalid or revoked API token');
    return ref;
  }

  async account(userId: string): Promise<AccountState | null> {
    const cached = this.accounts.get(userId);
    if (cached) return cached;
    const state = await loadAccountState(this.db, userId);
    if (state) this.accounts.set(userId, state, this.cacheMs);
    return state;
  }

  private async verifyJwt(token: string): Promise<SessionClaims> {
    const now = Date.now();
    const cached = this.jwts.get(token, now);
    if (cached) return cached;
    try {
      const claims = await this.jwt.verify(token);
      this.jwts.set(token, claims, Math.min(claims.exp * 1000 - now, MAX_JWT_CACHE_MS), now);
      return claims;
    } catch (err) {
      if (err instanceof JwtExpiredError) throw unauthorized('token_expired', 'The JWT has expired; log in again');
      throw unauthorized('invalid_token', 'Invalid JWT');
    }
  }

  private async usableAccount(userId: string): Promise<AccountState> {
    const account = await this.account(userId);
    if (!account) throw unauthorized('invalid_token', 'The account of this credential no longer exists');
    const block = accountBlock(account, isoMicros());
    if (block) throw unauthorized(block, BLOCK_MESSAGES[block]);
    return account;
  }

  /** Call after any change to the account's stamp, roles, teams, lock or activity state. */
  invalidateAccount(userId: string): void {
    this.accounts.delete(userId);
  }

  /** Call after deleting tokens; the owner's other tokens stay cached. */
  invalidateTokenIds(tokenIds: readonly string[]): void {
    const ids = new Set(tokenIds);
    this.tokens.deleteWhere((ref) => ref !== null && ids.has(ref.tokenId));
  }
}
