// Verification of password hashes written by ASP.NET Core Identity's PasswordHasher, so that
// users imported from such a system can log in once and be moved to argon2id.
//
// Both formats are base64 of a byte string whose first byte says which format it is:
//   V2: 0x00 | salt(16) | subkey(32)                      PBKDF2-HMAC-SHA1, 1000 iterations
//   V3: 0x01 | prf(u32be) | iterations(u32be) | saltLength(u32be) | salt | subkey
// In V3 the subkey is whatever follows the salt; its length is implied, not stored.
import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

// The async form runs on the libuv thread pool; PBKDF2 with a large iteration count would
// otherwise stall every other request for as long as it runs.
const pbkdf2Async = promisify(pbkdf2);

const V2_MARKER = 0x00;
const V3_MARKER = 0x01;
const V2_SALT_BYTES = 16;
const V2_SUBKEY_BYTES = 32;
const V2_ITERATIONS = 1000;
const V3_HEADER_BYTES = 13;

// Index = the PRF number Identity stores (KeyDerivationPrf enum).
const V3_PRFS = ['sha1', 'sha256', 'sha512'] as const;

// Identity itself rejects salts and subkeys under 128 bits; accepting them here would let a
// hash verify that the original system would have refused. A short subkey also matters because
// PBKDF2 output for a shorter length is a prefix of the longer one, so a tiny subkey is a tiny,
// guessable comparison.
const MIN_SALT_BYTES = 16;
const MIN_SUBKEY_BYTES = 16;

// Imported data is not trusted to be sane. These caps bound the CPU a single stored value can
// make one login burn: iterations are the direct cost, and every extra output block of PBKDF2
// repeats all iterations, so the subkey is capped at one SHA-512 block. Real Identity hashes
// (≤ a few hundred thousand iterations, 16-byte salt, 32-byte subkey) are far inside them.
const MAX_ITERATIONS = 10_000_000;
const MAX_SALT_BYTES = 256;
const MAX_SUBKEY_BYTES = 64;
const MAX_ENCODED_CHARS = 1024;

interface Pbkdf2Hash {
  digest: (typeof V3_PRFS)[number];
  iterations: number;
  salt: Buffer;
  subkey: Buffer;
}

/**
 * True when `stored` is a well-formed Identity V2/V3 hash of `password`. Anything else,
 * including every malformed input, is simply `false`; this never throws.
 */
export async function verifyAspNetIdentityHash(password: string, stored: string): Promise<boolean> {
  const parsed = parseAspNetIdentityHash(stored);
  if (!parsed) return false;
  try {
    const derived = await pbkdf2Async(
      Buffer.from(password, 'utf8'),
      parsed.salt,
      parsed.iterations,
      parsed.subkey.length,
      parsed.digest,
    );
    // Constant-time so the comparison does not tell an attacker how many leading bytes matched.
    return timingSafeEqual(derived, parsed.subkey);
  } catch {
    return false;
  }
}

function parseAspNetIdentityHash(stored: string): Pbkdf2Hash | null {
  const bytes = decodeCanonicalBase64(stored);
  if (!bytes || bytes.length === 0) return null;
  if (bytes[0] === V2_MARKER) return parseV2(bytes);
  if (bytes[0] === V3_MARKER) return parseV3(bytes);
  return null;
}

function parseV2(bytes: Buffer): Pbkdf2Hash | null {
  // V2 has no length fields, so any other length means the value was cut or padded.
  if (bytes.length !== 1 + V2_SALT_BYTES + V2_SUBKEY_BYTES) return null;
  return {
    digest: 'sha1',
    iterations: V2_ITERATIONS,
    salt: bytes.subarray(1, 1 + V2_SALT_BYTES),
    subkey: bytes.subarray(1 + V2_SALT_BYTES),
  };
}

function parseV3(bytes: Buffer): Pbkdf2Hash | null {
  if (bytes.length < V3_HEADER_BYTES) return null;
  const digest = V3_PRFS[bytes.readUInt32BE(1)];
  const iterations = bytes.readUInt32BE(5);
  const saltLength = bytes.readUInt32BE(9);
  if (digest === undefined) return null;
  if (iterations < 1 || iterations > MAX_ITERATIONS) return null;
  if (saltLength < MIN_SALT_BYTES || saltLength > MAX_SALT_BYTES) return null;
  const subkeyLength = bytes.length - V3_HEADER_BYTES - saltLength;
  if (subkeyLength < MIN_SUBKEY_BYTES || subkeyLength > MAX_SUBKEY_BYTES) return null;
  return {
    digest,
    iterations,
    salt: bytes.subarray(V3_HEADER_BYTES, V3_HEADER_BYTES + saltLength),
    subkey: bytes.subarray(V3_HEADER_BYTES + saltLength),
  };
}

// Buffer.from(…, 'base64') silently skips invalid characters and accepts base64url, so a
// corrupted value could decode to something plausible. Requiring the input to be exactly what
// re-encoding produces rules that out.
function decodeCanonicalBase64(text: string): Buffer | null {
  if (text.length === 0 || text.length > MAX_ENCODED_CHARS || text.length % 4 !== 0) return null;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}
