// RFC 6238 time-based one-time passwords as authenticator apps make them: SHA-1, 6 digits, 30 s
// steps (otpauth). A code is good for its own step and one either side (clock skew); which step
// it matched is what the factor records, so no code is taken twice (totp-factor.ts).
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Steps either side of now a code may belong to. */
const SKEW_STEPS = 1;
/** 160 bits, the size RFC 4226 recommends for SHA-1. */
const SECRET_BYTES = 20;

/** A new secret, base32 (what the otpauth:// URI and manual entry carry). */
export const newTotpSecret = (): string => new Secret({ size: SECRET_BYTES }).base32;

function totp(secretBase32: string, issuer = '', label = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The otpauth:// URI an authenticator app enrols from (the QR code holds it). */
export const totpUri = (secretBase32: string, issuer: string, account: string): string =>
  totp(secretBase32, issuer, account).toString();

/** The time step of `nowMs`. */
export const totpStep = (nowMs: number): number => Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);

/** The step `code` is the code of (within the skew of now), or null when it is none of them. */
export function matchingStep(secretBase32: string, code: string, nowMs: number = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secretBase32).validate({ token: code, timestamp: nowMs, window: SKEW_STEPS });
  return delta === null ? null : totpStep(nowMs) + delta;
}

/** The code of a step (tests and the enrolment's own checks). */
export const totpCode = (secretBase32: string, nowMs: number = Date.now()): string =>
  totp(secretBase32).generate({ timestamp: nowMs });
