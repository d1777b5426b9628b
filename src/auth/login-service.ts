// Password and API-token login, and logout. A username with no account goes through the same
// lockout-guarded check as one with an account (password-attempts.ts): the same answers in the
// same order (`invalid_credentials`, then `account_locked` once the failures reach the limit)
// after comparable work, so neither the answers nor their timing tell whether it exists. While
// an account is locked no password is verified, so the right one cannot be recognised.
import { redactCredentialShapes } from '../lib/credential-shapes.js';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema.js';
import type { Settings } from '../config/config.js';
import { AppError, unauthenticated } from '../lib/errors.js';
import { isoMicros } from '../lib/time.js';
import {
  findUserById,
  findUserByUsername,
  rotateSecurityStamp,
  setPasswordHash,
  userRoleNames,
} from '../identity/users-repository.js';
import { API_LOGIN_USERNAME, normalizeUsername } from '../identity/usernames.js';
import type { PasswordAttempts, PasswordOwner } from './password-attempts.js';
import { accountBlock, BLOCK_MESSAGES } from './account-state.js';
import type { Authenticator, TokenRef } from './authenticator.js';
import type { IssuedJwt, JwtCodec, SessionLimits, SessionProof } from './jwt.js';
import { hasSecondFactor, type SecondFactorCheck, type SecondFactorProof } from './second-factor.js';
import { challengeOwner, issueMfaChallenge, spendMfaChallenge } from './mfa-challenges.js';
import { SharedFixedWindowLimiter, rateLimited } from './rate-limit.js';
import { announceAuthChange } from './auth-changes.js';
import { isWellFormedTokenValue } from './token-values.js';
import { recordAudit } from '../audit/audit-repository.js';
import type { AuditActor } from '../audit/audit-actions.js';
import { outcomeOf, type Metrics } from '../metrics/metrics.js';

export interface LoginResult extends IssuedJwt {
  kind: 'session';
  username: string;
  userId: string;
  /** The password is one-time: the session may only replace it (auth-hook.ts). */
  passwordChangeRequired: boolean;
  /** Signed in with a recovery code: how many the account has left. */
  recoveryCodesLeft?: number;
  /** A password session of an account that must have a second factor and has none: it may only enrol one. */
  mfaEnrolmentRequired: boolean;
}

/** The password was right and a second factor is due: POST /api/core/account/login/mfa next. */
export interface MfaRequired {
  kind: 'mfa_required';
  mfaToken: string;
  expiresAt: Date;
  expiresIn: number;
  methods: readonly string[];
}

export type LoginOutcome = LoginResult | MfaRequired;

const SECOND_FACTOR_METHODS = ['totp', 'recovery_code'] as const;

const invalidMfaToken = () =>
  unauthenticated('invalid_mfa_token', 'The mfa_token is unknown, expired or already used: sign in again');

/** The account a failed login tried, when the username (or the token) names one. */
type AttemptedAccount = { id: string; username: string };

const invalidCredentials = () => unauthenticated('invalid_credentials', 'Invalid username or password');

/** The login rate limit's window. */
const RATE_WINDOW_MS = 60_000;

export class LoginService {
  private readonly limiter: SharedFixedWindowLimiter;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly jwt: JwtCodec,
    private readonly auth: Authenticator,
    private readonly passwords: PasswordAttempts,
    private readonly settings: Settings,
    private readonly onBackgroundError: (err: unknown) => void,
    private readonly secondFactor: SecondFactorCheck,
    private readonly metrics?: Metrics,
  ) {
    this.limiter = new SharedFixedWindowLimiter(db, RATE_WINDOW_MS, onBackgroundError);
  }

  /**
   * `from` is the request (client address, request id). Every attempt that gets past the rate
   * limit is recorded in the audit trail: the success, or the failure with the username as typed
   * and the reason. Rate-limited attempts are not: a flood must not turn into as many writes.
   */
  async login(username: string, password: string, from: AuditActor): Promise<LoginOutcome> {
    const normalized = normalizeUsername(username);
    const clientAddress = from.client ?? '';
    const kind = normalized === API_LOGIN_USERNAME.toUpperCase() ? 'api_token' : 'password';
    try {
      // Counted in the database, so the limits hold for all instances together.
      const retry = await this.limiter.hit([
        { key: `a|${clientAddress}`, limit: this.settings.loginRateLimitPerAddress },
        { key: `u|${clientAddress}|${normalized}`, limit: this.settings.loginRateLimitPerUser },
      ]);
      if (retry > 0) {
        this.metrics?.rateLimitRejected('login');
        throw rateLimited(retry);
      }
      const result =
        kind === 'api_token'
          ? await this.loginWithApiToken(password, { ...from, via: kind })
          : await this.loginWithPassword(username, password, { ...from, via: kind });
      this.metrics?.login(kind, result.kind === 'session' ? 'success' : 'mfa_required');
      return result;
    } catch (err) {
      this.metrics?.login(kind, outcomeOf(err));
      throw err;
    }
  }

  private async loginWithApiToken(value: string, from: AuditActor): Promise<LoginResult> {
    const fail = async (err: AppError, account: AttemptedAccount | null = null): Promise<never> => {
      await this.recordFailure(this.db, from, API_LOGIN_USERNAME, account, err.code);
      throw err;
    };
    if (!isWellFormedTokenValue(value)) return fail(invalidCredentials());
    let ref: TokenRef;
    try {
      ref = await this.auth.lookupToken(value);
    } catch (err) {
      // Only "no such token" is the caller's fault; a database fault stays a 503. Whoever holds
      // an expired token's value may learn that it expired.
      if (!(err instanceof AppError)) throw err;
      return fail(err.code === 'token_expired' ? err : invalidCredentials());
    }
    const userId = ref.userId;
    // A fresh login reads the account's current state, not what this instance cached.
    this.auth.invalidateAccount(ref.userId);
    const account = await this.auth.account(ref.userId);
    if (!account) return fail(invalidCredentials());
    const block = accountBlock(account, isoMicros());
    if (block) return fail(unauthenticated(block, BLOCK_MESSAGES[block]), account);
    const user = await findUserByUsername(this.db, account.username);
    if (!user) return fail(invalidCredentials());
    // The session keeps the token's limits: its scope, and an end no later than the token's.
    const issued = await this.issue(user, {
      methods: ['tok'],
      ...(ref.scope ? { roles: [...ref.scope] } : {}),
      ...(ref.expiresAtMs !== null ? { notAfterMs: ref.expiresAtMs } : {}),
    });
    await recordAudit(this.db, {
      action: 'login',
      by: { ...from, username: user.username, userId: user.id },
      subject: user.username,
      subjectId: user.id,
      data: { token_id: ref.tokenId },
    });
    return issued;
  }

  private async loginWithPassword(username: string, password: string, from: AuditActor): Promise<LoginOutcome> {
    const user = await findUserByUsername(this.db, username);
    // Asked for every username, known or not, so the queries of both stay the same.
    const secondFactorDue = await hasSecondFactor(this.db, user?.id ?? '');
    if (user) {
      // Cancelled (and, for an account exempt from lockout, locked): answered before any
      // password is verified. A lockout-enabled account's lock is found by the reservation.
      const block = accountBlock({ isActive: user.is_active === 1, lockoutEnd: user.lockout_end }, isoMicros());
      if (block === 'account_cancelled' || (block !== null && user.lockout_enabled !== 1)) {
        await this.recordFailure(this.db, from, username, user, block);
        throw unauthenticated(block, BLOCK_MESSAGES[block]);
      }
    }
    const owner: PasswordOwner = user
      ? {
          kind: 'account',
          userId: user.id,
          passwordHash: user.password_hash,
          lockoutEnabled: user.lockout_enabled === 1,
        }
      : { kind: 'unknown', normalizedUsername: normalizeUsername(username) };
    // The outcome is recorded with the check's own write (the lock, or the reset of the count).
    const check = await this.passwords.check(owner, password, async (db, c) => {
      if (c.outcome === 'ok' && user) {
        // With a second factor due the login is recorded when it is passed (loginWithMfa).
        if (secondFactorDue) return;
        const by = { ...from, username: user.username, userId: user.id };
        await recordAudit(db, { action: 'login', by, subject: user.username, subjectId: user.id });
        return;
      }
      await this.recordFailure(
        db,
        from,
        username,
        user ?? null,
        c.outcome === 'locked' ? 'account_locked' : 'invalid_credentials',
      );
      if (c.outcome === 'wrong' && c.lockedNow)
        await recordAudit(db, {
          action: 'account_lockout',
          by: from,
          actor: username,
          subject: user?.username ?? username,
          subjectId: user?.id ?? null,
        });
    });
    if (check.outcome === 'locked') throw unauthenticated('account_locked', BLOCK_MESSAGES.account_locked);
    if (check.outcome === 'wrong' || !user) {
      // A failure may have locked the account: its cached state must not outlive that.
      if (user) this.auth.invalidateAccount(user.id);
      throw invalidCredentials();
    }
    if (check.needsRehash) {
      // Upgrade imported (ASP.NET Identity) or weaker hashes now that the password is known.
      this.passwords.hasher
        .hash(password)
        .then((h: string) => setPasswordHash(this.db, user.id, h))
        .catch(this.onBackgroundError);
    }
    if (secondFactorDue) {
      const { token, expiresAt, expiresIn } = await issueMfaChallenge(this.db, user.id);
      return { kind: 'mfa_required', mfaToken: token, expiresAt, expiresIn, methods: SECOND_FACTOR_METHODS };
    }
    return this.issue(user, { methods: ['pwd'] });
  }

  /**
   * The second step of a password login: the mfa_token it answered and a TOTP or recovery code.
   * The code is checked under the second factor's lockout (second-factor.ts); the token is spent
   * in the same transaction as the code, so it completes one login, on whichever instance.
   */
  async loginWithMfa(mfaToken: string, proof: SecondFactorProof, from: AuditActor): Promise<LoginResult> {
    try {
      const result = await this.completeMfa(mfaToken, proof, { ...from, via: 'password' });
      this.metrics?.login('password', 'success');
      return result;
    } catch (err) {
      this.metrics?.login('password', outcomeOf(err));
      throw err;
    }
  }

  private async completeMfa(mfaToken: string, proof: SecondFactorProof, from: AuditActor): Promise<LoginResult> {
    const userId = await challengeOwner(this.db, mfaToken);
    const user = userId === null ? undefined : await findUserById(this.db, userId);
    if (!user) throw invalidMfaToken();
    // Locked or cancelled since the password step: no code is checked.
    const block = accountBlock({ isActive: user.is_active === 1, lockoutEnd: user.lockout_end }, isoMicros());
    if (block) throw unauthenticated(block, BLOCK_MESSAGES[block]);
    const by = { ...from, username: user.username, userId: user.id };
    const pass = await this.secondFactor.verify(user, proof, by, async (trx, p) => {
      if (!(await spendMfaChallenge(trx, mfaToken, user.id))) throw invalidMfaToken();
      await recordAudit(trx, {
        action: 'login',
        by,
        subject: user.username,
        subjectId: user.id,
        data: { mfa: p.method },
      });
    });
    const issued = await this.issue(user, { methods: ['pwd', 'mfa'], mfaAtMs: Date.now() });
    return pass.recoveryCodesLeft === undefined ? issued : { ...issued, recoveryCodesLeft: pass.recoveryCodesLeft };
  }

  private async issue(
    user: { id: string; username: string; security_stamp: string; must_change_password: number },
    limits: SessionLimits & SessionProof = {},
  ): Promise<LoginResult> {
    const issued = await this.jwt.issue(
      { id: user.id, username: user.username, securityStamp: user.security_stamp },
      Date.now(),
      limits,
    );
    // The first request of the new session reads current roles and state (the contract: a fresh
    // login sees the current state), not an entry cached before a change made elsewhere.
    this.auth.invalidateAccount(user.id);
    const required = this.settings.mfaRequiredRoles;
    // Only asked when the setting names roles, so a sign-in costs no more queries otherwise.
    const mfaEnrolmentRequired =
      required.length > 0 &&
      limits.methods?.includes('pwd') === true &&
      !(await hasSecondFactor(this.db, user.id)) &&
      (await userRoleNames(this.db, user.id)).some((r) => required.includes(r));
    return {
      kind: 'session',
      mfaEnrolmentRequired,
      ...issued,
      username: user.username,
      userId: user.id,
      passwordChangeRequired: user.must_change_password === 1,
    };
  }

  /** A failed attempt: the username as typed, the account tried when there is one, and why. */
  private async recordFailure(
    db: Db,
    from: AuditActor,
    typed: string,
    account: AttemptedAccount | null,
    reason: string,
  ): Promise<void> {
    await recordAudit(db, {
      action: 'login_failed',
      by: { ...from, userId: account?.id ?? null },
      // A credential pasted as the username is not kept for every administrator to read.
      actor: redactCredentialShapes(typed),
      subject: account?.username ?? null,
      subjectId: account?.id ?? null,
      data: { reason },
    });
  }

  /** Ends every JWT session of the user on every device by rotating the SecurityStamp. */
  async logout(by: AuditActor): Promise<void> {
    const userId = by.userId;
    if (userId === null) return;
    await this.db.transaction().execute(async (trx) => {
      await rotateSecurityStamp(trx, userId);
      await recordAudit(trx, { action: 'logout', by, subject: by.username, subjectId: userId });
      await announceAuthChange(trx, { users: [userId] });
    });
    this.auth.invalidateAccount(userId);
  }
}
