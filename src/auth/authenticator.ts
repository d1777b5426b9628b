// Turns a presented credential into a principal. Verified JWTs, token lookups and account
// state are cached (bounded, short-lived) so the hot path does no crypto and no query. Changes
// made through this instance evict their entries at once; changes made elsewhere are evicted as
// soon as this instance hears of them: on PostgreSQL every change (API of any instance, or CLI)
// sends a NOTIFY on commit (auth-changes.ts, auth-change-listener.ts); on SQLite the server polls
// the file's change counter and clears the caches when the CLI committed (sqlite-change-poller.ts).
// Both take well under a second. Only while the PostgreSQL listener is disconnected do changes
// made elsewhere wait for the entries to expire, within Settings:AuthCacheSeconds (≤ 60 s).
// A successful login evicts its account, so a fresh session always starts from current state.
// Token limits are checked on every use, cached or not: an expired token fails at its
// expiry instant, and a scoped token's principal holds only the scope's roles that the owner
// holds now (the account state, with its current roles, is what the caches refresh).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { unauthenticated } from '../lib/errors.js';
import { isoMicros } from '../lib/time.js';
import type { Credential, CredentialSource } from './credentials.js';
import { JwtExpiredError, type JwtCodec, type SessionClaims } from './jwt.js';
import { TtlCache } from './ttl-cache.js';
import { hashTokenValue } from './token-values.js';
import { findTokenByHash } from '../identity/tokens-repository.js';
import { accountBlock, BLOCK_MESSAGES, loadAccountState, type AccountState } from './account-state.js';
import { ActivityRecorder } from './activity-recorder.js';
import type { AuthChange } from './auth-changes.js';

export interface Principal {
  /** The account; with a scoped credential its `roles` are the scope's roles the owner holds. */
  account: AccountState;
  via: 'jwt' | 'api_token';
  source: CredentialSource;
  tokenId?: string;
  /** The roles a scoped API token (or a JWT obtained with one) is limited to; absent: not scoped. */
  scope?: ReadonlySet<string>;
  /** When the credential ends (ms since the epoch): the JWT's expiry, a token's, or null (never). */
  expiresAtMs: number | null;
  /**
   * When the authority behind the credential ends (ms since the epoch): an API token's expiry,
   * also for a JWT obtained with it; null for a password session or a token without expiry.
   * Tokens this credential creates expire no later.
   */
  authorityEndsAtMs: number | null;
  /** When this session passed a second factor (ms since the epoch); null: it did not (or an API token). */
  mfaAtMs: number | null;
  /** A JWT of a password sign-in (not one obtained with an API token). */
  passwordSession: boolean;
}

export interface TokenRef {
  tokenId: string;
  userId: string;
  /** Epoch ms from which the token no longer authenticates; null: never. */
  expiresAtMs: number | null;
  /** The token's roles; null: all of the owner's. */
  scope: ReadonlySet<string> | null;
}

/** The roles column (JSON array text) as a set; null for an unscoped token. */
export function parseTokenScope(roles: string | null): ReadonlySet<string> | null {
  if (roles === null) return null;
  const list: unknown = JSON.parse(roles);
  return new Set(Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : []);
}

const tokenExpired = () => unauthenticated('token_expired', 'The API token has expired');

const MAX_JWT_CACHE_MS = 60 * 60 * 1000;

export class Authenticator {
  private readonly accounts = new TtlCache<string, AccountState>(50_000);
  private readonly jwts = new TtlCache<string, SessionClaims>(50_000);
  /**
   * token value → owner, or null for "no such token" (a flood of random tokens stays cheap).
   * Keyed by the value, not its SHA-256: a cached request neither hashes nor looks the hash up
   * (values live only in memory, like cached JWTs); a miss hashes it for the query.
   */
  private readonly tokens = new TtlCache<string, TokenRef | null>(50_000);
  readonly activity: ActivityRecorder;
  /**
   * Counts evictions. A load that started before an eviction may have read the old state, so
   * it is answered but not cached (else it would outlive the change until it expires).
   */
  private evictions = 0;
  /** Scoped views of cached account states, so a scoped request allocates nothing once warm. */
  private readonly scopedViews = new WeakMap<AccountState, WeakMap<ReadonlySet<string>, AccountState>>();

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
        throw unauthenticated('invalid_token', `Invalid credential: ${cred.reason}`);
      case 'jwt': {
        const claims = await this.verifyJwt(cred.value);
        return this.jwtPrincipal(claims, await this.account(claims.userId), cred.source);
      }
      case 'api_token': {
        const ref = await this.lookupToken(cred.value);
        return this.tokenPrincipal(ref, await this.account(ref.userId), cred.source);
      }
    }
  }

  /**
   * What authenticate() would answer, synchronously, when it needs neither a query nor crypto
   * (the credential and its account are cached): the principal, or the same error thrown.
   * `undefined` when something is not cached: then await authenticate(). The hot path of every
   * authenticated request, so it allocates no promise.
   */
  authenticateCached(cred: Credential): Principal | undefined {
    const now = Date.now();
    switch (cred.kind) {
      case 'jwt': {
        const claims = this.jwts.get(cred.value, now);
        const account = claims && this.accounts.get(claims.userId, now);
        return account ? this.jwtPrincipal(claims, account, cred.source, now) : undefined;
      }
      case 'api_token': {
        const ref = this.tokens.get(cred.value, now);
        if (ref === undefined) return undefined;
        if (ref === null) throw unauthenticated('invalid_token', 'Invalid or revoked API token');
        if (ref.expiresAtMs !== null && now >= ref.expiresAtMs) throw tokenExpired();
        const account = this.accounts.get(ref.userId, now);
        return account ? this.tokenPrincipal(ref, account, cred.source, now) : undefined;
      }
      default:
        return undefined;
    }
  }

  // `now`: the clock reading of the request (authenticateCached reads it once for all its checks).
  private jwtPrincipal(
    claims: SessionClaims,
    account: AccountState | null,
    source: CredentialSource,
    now: number = Date.now(),
  ): Principal {
    this.assertUsable(account);
    if (account.stampTag !== claims.stampTag)
      throw unauthenticated('session_ended', 'The session has ended; log in again');
    this.activity.userSeen(account.id, now);
    const expiresAtMs = claims.exp * 1000;
    const authorityEndsAtMs = claims.tokenExpiresAt === undefined ? null : claims.tokenExpiresAt * 1000;
    const mfaAtMs = claims.mfaAt === undefined ? null : claims.mfaAt * 1000;
    const passwordSession = !claims.methods?.includes('tok');
    // Literals, not spreads: this runs on every request and allocates one object.
    if (!claims.scope) return { account, via: 'jwt', source, expiresAtMs, authorityEndsAtMs, mfaAtMs, passwordSession };
    const view = this.scopedView(account, claims.scope);
    const scope = claims.scope;
    return { account: view, via: 'jwt', source, scope, expiresAtMs, authorityEndsAtMs, mfaAtMs, passwordSession };
  }

  private tokenPrincipal(
    ref: TokenRef,
    account: AccountState | null,
    source: CredentialSource,
    now: number = Date.now(),
  ): Principal {
    this.assertUsable(account);
    this.activity.userSeen(account.id, now);
    this.activity.tokenUsed(ref.tokenId, now);
    const { tokenId, expiresAtMs } = ref;
    const authorityEndsAtMs = expiresAtMs;
    const via = 'api_token';
    if (!ref.scope)
      return { account, via, source, tokenId, expiresAtMs, authorityEndsAtMs, mfaAtMs: null, passwordSession: false };
    const view = this.scopedView(account, ref.scope);
    const scope = ref.scope;
    const passwordSession = false;
    return {
      account: view,
      via,
      source,
      tokenId,
      scope,
      expiresAtMs,
      authorityEndsAtMs,
      mfaAtMs: null,
      passwordSession,
    };
  }

  /** The account as a scoped credential sees it: only the scope's roles the owner holds now. */
  private scopedView(account: AccountState, scope: ReadonlySet<string>): AccountState {
    let views = this.scopedViews.get(account);
    if (!views) this.scopedViews.set(account, (views = new WeakMap()));
    let view = views.get(scope);
    if (!view) {
      view = { ...account, roles: new Set([...account.roles].filter((r) => scope.has(r))) };
      views.set(scope, view);
    }
    return view;
  }

  /** Resolves an API token value to its owner and limits without the account checks (used by
   *  login); an expired token is refused. */
  async lookupToken(value: string): Promise<TokenRef> {
    let ref = this.tokens.get(value);
    if (ref === undefined) {
      const evictions = this.evictions;
      const row = await findTokenByHash(this.db, hashTokenValue(value));
      ref = row
        ? {
            tokenId: row.id,
            userId: row.user_id,
            expiresAtMs: row.expires_at === null ? null : Date.parse(row.expires_at),
            scope: parseTokenScope(row.roles),
          }
        : null;
      if (evictions === this.evictions) this.tokens.set(value, ref, this.cacheMs);
    }
    if (ref === null) throw unauthenticated('invalid_token', 'Invalid or revoked API token');
    if (ref.expiresAtMs !== null && Date.now() >= ref.expiresAtMs) throw tokenExpired();
    return ref;
  }

  async account(userId: string): Promise<AccountState | null> {
    const cached = this.accounts.get(userId);
    if (cached) return cached;
    const evictions = this.evictions;
    const state = await loadAccountState(this.db, userId);
    if (state && evictions === this.evictions) this.accounts.set(userId, state, this.cacheMs);
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
      if (err instanceof JwtExpiredError) throw unauthenticated('token_expired', 'The JWT has expired; log in again');
      throw unauthenticated('invalid_token', 'Invalid JWT');
    }
  }

  private assertUsable(account: AccountState | null): asserts account is AccountState {
    if (!account) throw unauthenticated('invalid_token', 'The account of this credential no longer exists');
    // The clock is read only when a lockout end is set (reading it as ISO text costs ~1 µs).
    const block = account.isActive && account.lockoutEnd === null ? null : accountBlock(account, isoMicros());
    if (block) throw unauthenticated(block, BLOCK_MESSAGES[block]);
  }

  /** Call after any change to the account's stamp, roles, teams, lock or activity state. */
  invalidateAccount(userId: string): void {
    this.evictions += 1;
    this.accounts.delete(userId);
  }

  /** Call after deleting tokens; the owner's other tokens stay cached. */
  invalidateTokenIds(tokenIds: readonly string[]): void {
    if (tokenIds.length === 0) return;
    this.evictions += 1;
    const ids = new Set(tokenIds);
    this.tokens.deleteWhere((ref) => ref !== null && ids.has(ref.tokenId));
  }

  /** A change announced by another instance or the CLI (auth-changes.ts). */
  applyChange(change: AuthChange): void {
    if (change.all) {
      this.clear();
      return;
    }
    for (const id of change.users) this.invalidateAccount(id);
    this.invalidateTokenIds(change.tokens);
  }

  /**
   * Forgets every account state and token lookup: something changed that cannot be named (a
   * commit seen by the SQLite poller, notifications missed while the listener reconnected).
   * Verified JWT signatures stay: a signature does not change, the account checks do.
   */
  clear(): void {
    this.evictions += 1;
    this.accounts.clear();
    this.tokens.clear();
  }
}
