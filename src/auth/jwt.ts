// Session JWTs (HS256). Each carries a tag derived from the user's SecurityStamp: rotating the
// stamp (logout, lock, password change…) makes every earlier JWT fail the tag comparison.
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { sha256Hex, newId } from '../lib/random.js';

const ISSUER = 'platform-core';
const AUDIENCE = 'platform-core';
/** How far another instance's clock may run ahead of ours. */
const CLOCK_SKEW_SECONDS = 60;

export interface SessionClaims {
  userId: string;
  username: string;
  stampTag: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** Obtained with a scoped API token: the roles the session is limited to (claim `rol`). */
  scope?: ReadonlySet<string>;
  /** Obtained with an expiring API token: its expiry, seconds since the epoch (claim `tex`). The
   *  session's own `exp` is shorter still; this is the end of the authority it carries. */
  tokenExpiresAt?: number;
  /** How the session signed in (claim `amr`): `pwd` (password), `mfa` (and a second factor), `tok`
   *  (an API token). Absent in sessions issued before the claim: taken as a password. */
  methods?: readonly string[];
  /** When the session passed a second factor, seconds since the epoch (claim `mfa`). */
  mfaAt?: number;
}

/** How a session signed in, carried in its JWT (claims `amr` and `mfa`). */
export interface SessionProof {
  /** `pwd`, `mfa`, `tok`. */
  methods?: readonly string[];
  /** When the second factor was passed (epoch ms). */
  mfaAtMs?: number;
}

/** What a session obtained with a limited API token inherits from it. */
export interface SessionLimits {
  /** The token's roles: the session is limited to them as well. */
  roles?: readonly string[];
  /** The token's expiry (epoch ms): the session ends no later and carries it (claim `tex`). */
  notAfterMs?: number;
}

export interface IssuedJwt {
  token: string;
  expiresAt: Date;
  expiresIn: number;
}

/** The stamp itself never leaves the server: JWTs hold a short digest of it. */
export const stampTag = (securityStamp: string): string => sha256Hex(`stamp:${securityStamp}`).slice(0, 22);

export class JwtExpiredError extends Error {}
export class JwtInvalidError extends Error {}

export class JwtCodec {
  constructor(
    private readonly key: Uint8Array,
    private readonly lifetimeSeconds: number,
  ) {}

  async issue(
    user: { id: string; username: string; securityStamp: string },
    now: number = Date.now(),
    limits: SessionLimits & SessionProof = {},
  ): Promise<IssuedJwt> {
    const iat = Math.floor(now / 1000);
    let exp = iat + Math.round(this.lifetimeSeconds);
    if (limits.notAfterMs !== undefined) exp = Math.min(exp, Math.floor(limits.notAfterMs / 1000));
    const claims = {
      name: user.username,
      sst: stampTag(user.securityStamp),
      ...(limits.roles ? { rol: [...limits.roles] } : {}),
      ...(limits.notAfterMs !== undefined ? { tex: Math.floor(limits.notAfterMs / 1000) } : {}),
      ...(limits.methods ? { amr: [...limits.methods] } : {}),
      ...(limits.mfaAtMs !== undefined ? { mfa: Math.floor(limits.mfaAtMs / 1000) } : {}),
    };
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(newId())
      .sign(this.key);
    return { token, expiresAt: new Date(exp * 1000), expiresIn: exp - iat };
  }

  async verify(token: string, now: number = Date.now()): Promise<SessionClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: new Date(now),
      });
      const { sub, name, sst, exp, iat, rol, tex, amr, mfa } = payload as {
        sub?: unknown;
        name?: unknown;
        sst?: unknown;
        exp?: unknown;
        iat?: unknown;
        rol?: unknown;
        tex?: unknown;
        amr?: unknown;
        mfa?: unknown;
      };
      if (
        typeof sub !== 'string' ||
        typeof name !== 'string' ||
        typeof sst !== 'string' ||
        typeof exp !== 'number' ||
        typeof iat !== 'number'
      ) {
        throw new JwtInvalidError('missing claims');
      }
      if (rol !== undefined && !(Array.isArray(rol) && rol.every((r) => typeof r === 'string')))
        throw new JwtInvalidError('rol is not a list of role names');
      if (tex !== undefined && !Number.isSafeInteger(tex)) throw new JwtInvalidError('tex is not a time');
      if (amr !== undefined && !(Array.isArray(amr) && amr.every((m) => typeof m === 'string')))
        throw new JwtInvalidError('amr is not a list of methods');
      if (mfa !== undefined && !Number.isSafeInteger(mfa)) throw new JwtInvalidError('mfa is not a time');
      // A valid signature is not enough: this service never issues a JWT that lives longer than
      // Settings:JwtExpireHours or that starts later than now, so such a token was made with a
      // leaked key (or under a longer setting since lowered) and is refused.
      if (exp - iat > Math.ceil(this.lifetimeSeconds))
        throw new JwtInvalidError('lifetime longer than Settings:JwtExpireHours');
      if (iat > Math.floor(now / 1000) + CLOCK_SKEW_SECONDS) throw new JwtInvalidError('issued in the future');
      return {
        userId: sub,
        username: name,
        stampTag: sst,
        exp,
        ...(rol ? { scope: new Set(rol as string[]) } : {}),
        ...(tex !== undefined ? { tokenExpiresAt: tex as number } : {}),
        ...(amr !== undefined ? { methods: amr as string[] } : {}),
        ...(mfa !== undefined ? { mfaAt: mfa as number } : {}),
      };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new JwtExpiredError('expired');
      if (err instanceof JwtInvalidError) throw err;
      throw new JwtInvalidError((err as Error).message);
    }
  }
}
