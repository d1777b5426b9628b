// API token values: a recognisable prefix (so secret scanners can spot leaked ones), 192 random
// bits, and a CRC32 checksum so a scanner can tell a real token from a look-alike offline.
import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const TOKEN_PREFIX = 'pct_';
const BODY_LENGTH = 32; // base64url of 24 bytes
const CHECK_LENGTH = 6;

function checksum(body: string): string {
  return (crc32(body) >>> 0).toString(36).padStart(CHECK_LENGTH, '0').slice(-CHECK_LENGTH);
}

export function generateTokenValue(): string {
  const body = randomBytes(24).toString('base64url');
  return `${TOKEN_PREFIX}${body}${checksum(body)}`;
}

/** Shape and checksum test: rejects garbage before any database or cache lookup. */
export function isWellFormedTokenValue(value: string): boolean {
  if (value.length !== TOKEN_PREFIX.length + BODY_LENGTH + CHECK_LENGTH || !value.startsWith(TOKEN_PREFIX))
    return false;
  const body = value.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + BODY_LENGTH);
  if (!/^[A-Za-z0-9_-]+$/.test(body)) return false;
  return checksum(body) === value.slice(-CHECK_LENGTH);
}

/** Tokens carry 192 random bits, so a plain SHA-256 is a safe at-rest hash (no salt or KDF needed). */
// crypto.hash is the one-shot form of createHash(…).update(…).digest(…): the same hex, in about
// half the time (this runs on every API-token request).
export const hashTokenValue = (value: string): string => hash('sha256', value, 'hex');
