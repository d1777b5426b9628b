// FastReport's encrypted connection strings: "rij" + base64("rij" + AES-128-CBC(UTF-8 text)),
// ISO 10126 padding (random filler, last byte = pad length). Key and IV come from .NET's
// PasswordDeriveBytes(password, "Salt") — PBKDF1-style SHA-1 with 100 iterations and
// Microsoft's extension for output beyond one hash — read as GetBytes(16) for the key, then
// GetBytes(16) for the IV. The password is FastReport's fixed default unless an application
// changed it (Crypter.DefaultPassword).
//
// Written from the published behaviour of those .NET classes; checked against connection
// strings written by FastReport (see the tests).

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { TemplateError } from '../errors.js';

export const FASTREPORT_DEFAULT_PASSWORD = 'FastReport.Utils.Crypter';
const SALT = Buffer.from('Salt', 'utf8');
const SIGNATURE = Buffer.from('rij', 'latin1');

const sha1 = (...parts: Buffer[]): Buffer => {
  const h = createHash('sha1');
  for (const p of parts) h.update(p);
  return h.digest();
};

const derived = new Map<string, { key: Buffer; iv: Buffer }>();

/** Key and IV as PasswordDeriveBytes(password, "Salt").GetBytes(16) twice yields them. */
export function deriveKeyIv(password: string): { key: Buffer; iv: Buffer } {
  const cached = derived.get(password);
  if (cached) return cached;
  // Base value: hash of password + salt, re-hashed until 99 hashes in all (the 100th is the
  // first output block).
  let base = sha1(Buffer.from(password, 'utf8'), SALT);
  for (let i = 1; i < 99; i++) base = sha1(base);
  const block0 = sha1(base); // output block 0: no prefix
  const block1 = sha1(Buffer.from('1', 'latin1'), base); // output block 1: prefix "1"
  // First GetBytes(16): block0[0..16), the 4 unused bytes stay buffered. Second GetBytes(16):
  // .NET copies the buffered bytes from offset (20 - 16) = 4 rather than 16, so the IV starts
  // with block0[4..8), then 12 bytes of the next block.
  const result = {
    key: block0.subarray(0, 16),
    iv: Buffer.concat([block0.subarray(4, 8), block1.subarray(0, 12)]),
  };
  if (derived.size < 16) derived.set(password, result);
  return result;
}

export function isEncrypted(s: string): boolean {
  return s.startsWith('rij');
}

/** Decrypts a `rij…` string (anything else is returned unchanged, as FastReport does). */
export function decryptConnectionString(
  s: string,
  password = FASTREPORT_DEFAULT_PASSWORD,
  where = 'ConnectionString',
): string {
  if (!isEncrypted(s) || s === '' || password === '') return s;
  const b64 = s.slice(3);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) throw new TemplateError('encrypted connection string: not base64', where);
  const raw = Buffer.from(b64, 'base64');
  if (raw.length < 3 + 16 || !raw.subarray(0, 3).equals(SIGNATURE) || (raw.length - 3) % 16 !== 0) {
    throw new TemplateError('encrypted connection string: not FastReport data', where);
  }
  const { key, iv } = deriveKeyIv(password);
  let plain: Buffer;
  try {
    const d = createDecipheriv('aes-128-cbc', key, iv);
    d.setAutoPadding(false);
    plain = Buffer.concat([d.update(raw.subarray(3)), d.final()]);
  } catch {
    throw new TemplateError('encrypted connection string: cannot decrypt', where);
  }
  const pad = plain[plain.length - 1] ?? 0;
  if (pad < 1 || pad > 16)
    throw new TemplateError('encrypted connection string: cannot decrypt (wrong password?)', where);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(plain.subarray(0, plain.length - pad));
  } catch {
    throw new TemplateError('encrypted connection string: cannot decrypt (wrong password?)', where);
  }
}

/** Encrypts like FastReport's Crypter.EncryptString (random ISO 10126 filler bytes). */
export function encryptConnectionString(s: string, password = FASTREPORT_DEFAULT_PASSWORD): string {
  if (s === '' || password === '') return s;
  const { key, iv } = deriveKeyIv(password);
  const data = Buffer.from(s, 'utf8');
  const pad = 16 - (data.length % 16);
  const filler = randomBytes(pad);
  filler[pad - 1] = pad;
  const c = createCipheriv('aes-128-cbc', key, iv);
  c.setAutoPadding(false);
  const enc = Buffer.concat([c.update(Buffer.concat([data, filler])), c.final()]);
  return `rij${Buffer.concat([SIGNATURE, enc]).toString('base64')}`;
}
