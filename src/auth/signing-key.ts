// The JWT signing key is created once and kept in the database, so restarts and every instance
// sharing the database accept each other's sessions.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

const KEY = 'jwt_signing_key_v1';

export async function loadOrCreateSigningKey(db: Kysely<Database>): Promise<Uint8Array> {
  const candidate = randomBytes(32).toString('base64');
  // Insert-if-absent then read back: when two instances start together, both read the winner.
  await db.insertInto('instance_settings').values({ key: KEY, value: candidate }).onConflict((oc) => oc.column('key').doNothing()).execute();
  const row = await db.selectFrom('instance_settings').select('value').where('key', '=', KEY).executeTakeFirstOrThrow();
  return new Uint8Array(Buffer.from(row.value, 'base64'));
}
