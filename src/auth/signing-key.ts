// The JWT signing key. By default it is created once and kept in the database, so restarts and
// every instance sharing the database accept each other's sessions. In production it can come
// from outside the database instead (Settings:JwtSigningKeyFile, or Settings:JwtSigningKey from
// the environment): then a copy of the database (a backup, a stolen file) is not enough to forge
// a session, and the key can be rotated without touching the data.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ConfigError } from '../config/config.js';
import { openToOthers } from '../db/file-modes.js';

const KEY = 'jwt_signing_key_v1';
/** HS256 wants a key at least as long as its output. */
const MIN_KEY_BYTES = 32;

export interface SigningKeySource {
  /** Settings:JwtSigningKeyFile: a file holding the key, base64. */
  file: string | null;
  /** Settings:JwtSigningKey: the key itself, base64. */
  value: string | null;
}

export interface SigningKey {
  key: Uint8Array;
  /** Things an operator should fix (a key file others can read). */
  warnings: string[];
}

function decodeKey(text: string, setting: string): Uint8Array {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed))
    throw new ConfigError(
      `${setting}: the JWT signing key must be base64 text (e.g. the output of: openssl rand -base64 32)`,
    );
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length < MIN_KEY_BYTES)
    throw new ConfigError(
      `${setting}: the JWT signing key must be at least ${MIN_KEY_BYTES} bytes (got ${bytes.length}); make ` +
        `one with: openssl rand -base64 32`,
    );
  return new Uint8Array(bytes);
}

function readKeyFile(file: string): SigningKey {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `Settings:JwtSigningKeyFile: cannot ` +
        `read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const mode = openToOthers(file);
  const warnings =
    mode === null ? [] : [`the JWT signing key file ${file} can be read by other users (mode ${mode}); chmod 600 it`];
  return { key: decodeKey(text, 'Settings:JwtSigningKeyFile'), warnings };
}

async function loadOrCreateStoredKey(db: Kysely<Database>): Promise<Uint8Array> {
  const candidate = randomBytes(32).toString('base64');
  // Insert-if-absent then read back: when two instances start together, both read the winner.
  await db
    .insertInto('instance_settings')
    .values({ key: KEY, value: candidate })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('instance_settings').select('value').where('key', '=', KEY).executeTakeFirstOrThrow();
  return new Uint8Array(Buffer.from(row.value, 'base64'));
}

/** The key from the file or the setting when one is given (never both), else the database's. */
export async function loadSigningKey(db: Kysely<Database>, source: SigningKeySource): Promise<SigningKey> {
  if (source.file !== null && source.value !== null)
    throw new ConfigError('Settings:JwtSigningKeyFile and Settings:JwtSigningKey are both set: give one');
  if (source.file !== null) return readKeyFile(source.file);
  if (source.value !== null) return { key: decodeKey(source.value, 'Settings:JwtSigningKey'), warnings: [] };
  return { key: await loadOrCreateStoredKey(db), warnings: [] };
}
