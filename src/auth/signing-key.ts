// The JWT signing key, and the key that encrypts secrets kept in the database. By default each is
// created once and kept in the database, so restarts and every instance sharing the database
// accept each other's sessions and read each other's secrets. In production it can come
// from outside the database instead (Settings:JwtSigningKeyFile, or Settings:JwtSigningKey from
// the environment; Settings:SecretsKeyFile, Settings:SecretsKey): then a copy of the database (a
// backup, a stolen file) is not enough to forge a session or to read the secrets. The JWT key can
// be rotated without touching the data; the secrets key cannot (the secrets would be lost).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ConfigError } from '../config/config.js';
import { openToOthers } from '../db/file-modes.js';

/** HS256 wants a key at least as long as its output; AES-256 a key of 32 bytes. */
const MIN_KEY_BYTES = 32;

export interface SigningKeySource {
  /** Settings:JwtSigningKeyFile (or the other key's file setting): a file holding the key, base64. */
  file: string | null;
  /** Settings:JwtSigningKey (or the other key's value setting): the key itself, base64. */
  value: string | null;
}

export interface SigningKey {
  key: Uint8Array;
  /** Things an operator should fix (a key file others can read). */
  warnings: string[];
}

/** One of the instance's keys: where it is kept in the database, its settings, what it is for. */
interface InstanceKey {
  stored: string;
  fileSetting: string;
  valueSetting: string;
  what: string;
}

const JWT_KEY: InstanceKey = {
  stored: 'jwt_signing_key_v1',
  fileSetting: 'Settings:JwtSigningKeyFile',
  valueSetting: 'Settings:JwtSigningKey',
  what: 'the JWT signing key',
};

const SECRETS_KEY: InstanceKey = {
  stored: 'secrets_key_v1',
  fileSetting: 'Settings:SecretsKeyFile',
  valueSetting: 'Settings:SecretsKey',
  what: 'the key of the secrets kept encrypted',
};

function decodeKey(text: string, setting: string, what: string): Uint8Array {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed))
    throw new ConfigError(`${setting}: ${what} must be base64 text (e.g. the output of: openssl rand -base64 32)`);
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length < MIN_KEY_BYTES)
    throw new ConfigError(
      `${setting}: ${what} must be at least ${MIN_KEY_BYTES} bytes (got ${bytes.length}); make ` +
        `one with: openssl rand -base64 32`,
    );
  return new Uint8Array(bytes);
}

function readKeyFile(file: string, k: InstanceKey): SigningKey {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `${k.fileSetting}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const mode = openToOthers(file);
  const warnings =
    mode === null ? [] : [`${k.what} file ${file} can be read by other users (mode ${mode}); chmod 600 it`];
  return { key: decodeKey(text, k.fileSetting, k.what), warnings };
}

async function loadOrCreateStoredKey(db: Kysely<Database>, name: string): Promise<Uint8Array> {
  const candidate = randomBytes(32).toString('base64');
  // Insert-if-absent then read back: when two instances start together, both read the winner.
  await db
    .insertInto('instance_settings')
    .values({ key: name, value: candidate })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', name)
    .executeTakeFirstOrThrow();
  return new Uint8Array(Buffer.from(row.value, 'base64'));
}

async function loadKey(db: Kysely<Database>, source: SigningKeySource, k: InstanceKey): Promise<SigningKey> {
  if (source.file !== null && source.value !== null)
    throw new ConfigError(`${k.fileSetting} and ${k.valueSetting} are both set: give one`);
  if (source.file !== null) return readKeyFile(source.file, k);
  if (source.value !== null) return { key: decodeKey(source.value, k.valueSetting, k.what), warnings: [] };
  return { key: await loadOrCreateStoredKey(db, k.stored), warnings: [] };
}

/** The key from the file or the setting when one is given (never both), else the database's. */
export const loadSigningKey = (db: Kysely<Database>, source: SigningKeySource): Promise<SigningKey> =>
  loadKey(db, source, JWT_KEY);

/** The key that encrypts secrets kept in the database (TOTP secrets, secret-box.ts), by the same rules. */
export const loadSecretsKey = (db: Kysely<Database>, source: SigningKeySource): Promise<SigningKey> =>
  loadKey(db, source, SECRETS_KEY);
