// Password hashing for the auth service: argon2id for everything we write, plus read-only
// support for ASP.NET Core Identity hashes so imported users can log in and be upgraded.
import { randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { verifyAspNetIdentityHash } from './aspnet-identity-hash.js';

export interface PasswordVerification {
  ok: boolean;
  needsRehash: boolean;
}

/** What login and password changes hash and verify with (tests inject one that counts). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<PasswordVerification>;
  /** A stored value that no password matches and that costs one real verification. */
  readonly dummyHash: string;
}

// OWASP Password Storage Cheat Sheet baseline for argon2id: 19 MiB, 2 passes, 1 lane.
const MEMORY_KIB = 19_456;
const TIME_COST = 2;
const PARALLELISM = 1;
const OUTPUT_BYTES = 32;
const SALT_BYTES = 16;
const ARGON2_VERSION = 19; // 0x13, the current revision of the algorithm

// The package declares Algorithm as an ambient const enum, which isolatedModules cannot
// inline; the numeric value is part of its public API.
const ARGON2ID = 2 as Algorithm;

// Login bodies are attacker-controlled; the cap bounds the memory and hashing input one request
// can cause while being far beyond any real passphrase.
export const MAX_PASSWORD_LENGTH = 4096;

// Stored argon2 hashes carry their own cost parameters and the library honours them, so a
// corrupted or hostile value such as m=4294967295 would try to allocate terabytes (it kills
// the process). Caps sit well above any policy we would plausibly adopt.
const MAX_MEMORY_KIB = 262_144;
const MAX_TIME_COST = 64;
const MAX_PARALLELISM = 16;
const MIN_STORED_SALT_BYTES = 8;
const MAX_STORED_SALT_BYTES = 64;
// A short output is a short comparison: with 4 bytes a random guess matches 1 time in 2^32.
const MIN_STORED_OUTPUT_BYTES = 16;
const MAX_STORED_OUTPUT_BYTES = 64;
const MAX_STORED_LENGTH = 512;

const PHC_ARGON2 = new RegExp(
  /^\$(argon2id|argon2i|argon2d)\$(?:v=(16|19)\$)?/.source +
    /m=([1-9]\d{0,9}),t=([1-9]\d{0,9}),p=([1-9]\d{0,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.source,
);

interface Argon2Params {
  variant: string;
  version: number;
  memoryKib: number;
  timeCost: number;
  parallelism: number;
  saltBytes: number;
  outputBytes: number;
}

function unpaddedBase64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

// A hash with live parameters and random bytes in place of a digest. Verifying against it costs
// exactly one real argon2id computation (the mismatch is only known at the end), and building it
// from the constants means it cannot drift from what real users' hashes cost. Logins naming no
// account verify against it, so their time does not reveal that the username is unknown.
const DUMMY_HASH =
  `$argon2id$v=${ARGON2_VERSION}$m=${MEMORY_KIB},t=${TIME_COST},p=${PARALLELISM}` +
  `$${unpaddedBase64(randomBytes(SALT_BYTES))}$${unpaddedBase64(randomBytes(OUTPUT_BYTES))}`;

function isUsablePassword(password: unknown): password is string {
  return typeof password === 'string' && password.length > 0 && password.length <= MAX_PASSWORD_LENGTH;
}

function failed(): PasswordVerification {
  return { ok: false, needsRehash: false };
}

/** Hashes with argon2id at the current parameters; resolves to a PHC string. */
export async function hashPassword(password: string): Promise<string> {
  if (typeof password !== 'string' || password.length === 0) {
    // An empty password would produce a hash that verifyPassword can never accept.
    throw new Error('password must be a non-empty string');
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new Error(`password must be at most ${MAX_PASSWORD_LENGTH} characters`);
  }
  return hash(password, {
    algorithm: ARGON2ID,
    memoryCost: MEMORY_KIB,
    timeCost: TIME_COST,
    parallelism: PARALLELISM,
    outputLen: OUTPUT_BYTES,
  });
}

/**
 * Checks a password against an argon2 PHC string or an ASP.NET Core Identity V2/V3 hash.
 * Never throws: anything unreadable is a failed verification. `needsRehash` is only meaningful
 * when `ok` is true and asks the caller to store a fresh hashPassword() result.
 */
export async function verifyPassword(password: string, stored: string): Promise<PasswordVerification> {
  if (!isUsablePassword(password) || typeof stored !== 'string') return failed();
  try {
    if (stored.startsWith('$argon2')) {
      const params = parseArgon2(stored);
      if (!params) return failed();
      if (!(await verify(stored, password))) return failed();
      return { ok: true, needsRehash: isWeakerThanCurrent(params) };
    }
    // Identity hashes are only ever read, never written: a match always asks for an upgrade.
    if (await verifyAspNetIdentityHash(password, stored)) return { ok: true, needsRehash: true };
  } catch {
    // The library throws on values it cannot decode; to the caller that is just "no match".
  }
  return failed();
}

/** argon2id at the OWASP parameters, on libuv's thread pool (never the event loop). */
export const argon2Hasher: PasswordHasher = { hash: hashPassword, verify: verifyPassword, dummyHash: DUMMY_HASH };

function parseArgon2(stored: string): Argon2Params | null {
  if (stored.length > MAX_STORED_LENGTH) return null;
  const match = PHC_ARGON2.exec(stored);
  if (!match) return null;
  const [, variant = '', version, m = '', t = '', p = '', salt = '', digest = ''] = match;
  const saltBytes = canonicalBase64Length(salt);
  const outputBytes = canonicalBase64Length(digest);
  if (saltBytes === null || saltBytes < MIN_STORED_SALT_BYTES || saltBytes > MAX_STORED_SALT_BYTES) return null;
  if (outputBytes === null || outputBytes < MIN_STORED_OUTPUT_BYTES || outputBytes > MAX_STORED_OUTPUT_BYTES)
    return null;
  const params: Argon2Params = {
    variant,
    // The PHC format omits v= for the original 0x10 revision.
    version: version === undefined ? 16 : Number(version),
    memoryKib: Number(m),
    timeCost: Number(t),
    parallelism: Number(p),
    saltBytes,
    outputBytes,
  };
  if (params.memoryKib > MAX_MEMORY_KIB || params.timeCost > MAX_TIME_COST) return null;
  if (params.parallelism > MAX_PARALLELISM) return null;
  return params;
}

// Several base64 strings can decode to the same bytes (the spare bits of the last character);
// accepting only the canonical spelling means any edit to a stored hash changes what is compared.
function canonicalBase64Length(text: string): number | null {
  const bytes = Buffer.from(text, 'base64');
  return unpaddedBase64(bytes) === text ? bytes.length : null;
}

// Only weaker hashes are upgraded: rehashing stronger ones would be a silent downgrade.
function isWeakerThanCurrent(params: Argon2Params): boolean {
  return (
    params.variant !== 'argon2id' ||
    params.version !== ARGON2_VERSION ||
    params.memoryKib < MEMORY_KIB ||
    params.timeCost < TIME_COST ||
    params.saltBytes < SALT_BYTES ||
    params.outputBytes < OUTPUT_BYTES
  );
}
