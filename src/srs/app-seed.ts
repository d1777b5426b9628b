// Sample data shipped with an app (the demo app's customers, orders and order lines), loaded into
// the instance database at start. An app folder may hold `seed.sql` (portable SQL), or
// `seed.sqlite.sql` / `seed.postgresql.sql` for one database (preferred when present). A seed
// runs when the instance has not applied that exact file yet: on first start, and again only
// when the file changes (its SHA-256 is kept in instance_settings as `app_seed:<app>`), so rows
// deleted later do not come back on restart. Seeds must be idempotent anyway (CREATE TABLE IF
// NOT EXISTS, INSERT … ON CONFLICT DO NOTHING): a changed seed runs over the old one's tables.
// A seed runs in one transaction; a failing seed is logged and skipped, the server still starts.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.js';
import type { DialectName } from '../db/connect.js';
import { splitStatements } from '../db/sql-text.js';
import { listApps } from '../apps/apps-directory.js';

export const seedKey = (app: string): string => `app_seed:${app}`;

async function readSeed(appDir: string, dialect: DialectName): Promise<{ file: string; text: string } | null> {
  for (const file of [`seed.${dialect}.sql`, 'seed.sql']) {
    try {
      return { file, text: await readFile(join(appDir, file), 'utf8') };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return null;
}

export type SeedOutcome = 'applied' | 'unchanged' | 'none' | 'failed';

/** Applies one app's seed if needed. */
export async function seedApp(db: Kysely<Database>, dialect: DialectName, appsDir: string, app: string, logger: Logger): Promise<SeedOutcome> {
  let seed: { file: string; text: string } | null;
  try {
    seed = await readSeed(join(appsDir, app), dialect);
  } catch (err) {
    logger.error({ err, app }, `cannot read the seed of app ${app}`);
    return 'failed';
  }
  if (!seed) return 'none';
  const hash = createHash('sha256').update(seed.text).digest('hex');
  const key = seedKey(app);
  try {
    const applied = await db.transaction().execute(async (trx) => {
      // Instances starting together on one PostgreSQL database seed one after the other.
      if (dialect === 'postgresql') await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
      const row = await trx.selectFrom('instance_settings').select('value').where('key', '=', key).executeTakeFirst();
      if (row?.value === hash) return false;
      for (const statement of splitStatements(seed.text)) await sql.raw(statement).execute(trx);
      await trx
        .insertInto('instance_settings')
        .values({ key, value: hash })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: hash }))
        .execute();
      return true;
    });
    if (applied) logger.info({ app, file: seed.file }, `loaded the sample data of app ${app} (${seed.file})`);
    return applied ? 'applied' : 'unchanged';
  } catch (err) {
    logger.error({ err, app, file: seed.file }, `the seed ${seed.file} of app ${app} failed; nothing of it was applied`);
    return 'failed';
  }
}

/** Applies the seeds of every app in APPS_DIR. */
export async function seedApps(db: Kysely<Database>, dialect: DialectName, appsDir: string, logger: Logger): Promise<void> {
  for (const app of listApps(appsDir)) await seedApp(db, dialect, appsDir, app, logger);
}
