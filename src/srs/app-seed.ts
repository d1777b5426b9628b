// Sample data shipped with an app (the demo app's customers, orders and order lines), loaded into
// the instance database at start. An app folder may hold `seed.sql` (portable SQL), or
// `seed.sqlite.sql` / `seed.postgresql.sql` for one database (preferred when present). A seed
// runs when the instance has not applied that exact file yet: on first start, and again only
// when the file changes (its SHA-256 is kept in instance_settings as `app_seed:<app>`), so rows
// deleted later do not come back on restart. Seeds must be idempotent anyway (CREATE TABLE IF
// NOT EXISTS, INSERT … ON CONFLICT DO NOTHING): a changed seed runs over the old one's tables.
// A seed runs in one transaction; a failing seed is logged and skipped, the server still starts.
// Seeds are app SQL: they run where SRS commands run (on SQLite in a command process on the apps'
// file, the app role in the apps' schema on PostgreSQL), with no access to the platform's tables,
// and with the same time limit per statement (Settings:SrsStatementTimeoutSeconds).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database, Db } from '../db/schema.js';
import type { DialectName } from '../db/connect.js';
import { splitStatements } from '../db/sql-text.js';
import { listApps } from '../apps/apps-directory.js';
import { ConnectionCommandExecutor } from './connection-commands.js';
import { lockPlatformStart } from '../db/startup-lock.js';
import { SqliteCommandPool } from './sqlite-commands/pool.js';

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

/** Where seeds run: the platform's database (for the bookkeeping) and the apps' data. */
export interface SeedTarget {
  db: Kysely<Database>;
  dialect: DialectName;
  /** SQLite: the apps' own file, the only one a seed's connection opens. */
  appDataFile: string | null;
  /** PostgreSQL: connections as the app role. */
  // biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
  appDb: Kysely<any> | null;
  /** The longest a seed's statement may run (Settings:SrsStatementTimeoutSeconds). */
  statementTimeoutMs: number;
}

/** Applies one app's seed if needed. */
export async function seedApp(target: SeedTarget, appsDir: string, app: string, logger: Logger): Promise<SeedOutcome> {
  let seed: { file: string; text: string } | null;
  try {
    seed = await readSeed(join(appsDir, app), target.dialect);
  } catch (err) {
    logger.error({ err, app }, `cannot read the seed of app ${app}`);
    return 'failed';
  }
  if (!seed) return 'none';
  const hash = createHash('sha256').update(seed.text).digest('hex');
  const key = seedKey(app);
  const statements = splitStatements(seed.text);
  try {
    const applied =
      target.dialect === 'postgresql'
        ? await seedPostgres(target, key, hash, statements, logger)
        : await seedSqlite(target, key, hash, statements);
    if (applied) logger.info({ app, file: seed.file }, `loaded the sample data of app ${app} (${seed.file})`);
    return applied ? 'applied' : 'unchanged';
  } catch (err) {
    logger.error(
      { err, app, file: seed.file },
      `the seed ${seed.file} of app ${app} failed; nothing of it was applied`,
    );
    return 'failed';
  }
}

const seeded = (db: Db, key: string) =>
  db.selectFrom('instance_settings').select('value').where('key', '=', key).executeTakeFirst();

const recordSeed = (db: Db, key: string, hash: string) =>
  db
    .insertInto('instance_settings')
    .values({ key, value: hash })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: hash }))
    .execute();

/**
 * PostgreSQL: instances starting together seed one after the other, under the start-up lock (not
 * an advisory lock: report SQL could hold one and stop the seed). The seed is its own transaction
 * on an app-role connection, committed first, run as report SQL is: the same limit, enforced from
 * outside, and the session reset after it, so nothing the seed set or created reaches the first
 * reports. Should recording it fail, the seed runs again at the next start.
 */
async function seedPostgres(
  target: SeedTarget,
  key: string,
  hash: string,
  statements: readonly string[],
  logger: Logger,
): Promise<boolean> {
  return target.db.transaction().execute(async (trx) => {
    await lockPlatformStart(trx);
    if ((await seeded(trx, key))?.value === hash) return false;
    if (!target.appDb) throw new Error('no app-role connection to seed with');
    const seeder = new ConnectionCommandExecutor({
      appDb: target.appDb,
      platformDb: target.db,
      ownsAppDb: false,
      logger,
    });
    await seeder.execute([{ name: 'seed', output: 'none', statements: statements.map((text) => sql.raw(text)) }], {
      statementTimeoutMs: target.statementTimeoutMs,
      maxRows: Number.MAX_SAFE_INTEGER,
    });
    await recordSeed(trx, key, hash);
    return true;
  });
}

/**
 * SQLite: the seed commits in the apps' file, then its digest in the platform's. No write
 * transaction of the platform's is held meanwhile: the seed runs in a command process, and the
 * platform's file must stay writable while it does. Two instances starting at the same moment
 * may then both run a changed seed, which an idempotent seed allows.
 */
async function seedSqlite(target: SeedTarget, key: string, hash: string, statements: readonly string[]) {
  if ((await seeded(target.db, key))?.value === hash) return false;
  await runSqliteSeed(target, statements);
  await recordSeed(target.db, key, hash);
  return true;
}

/**
 * A seed's statements in one transaction, in a command process of their own on the apps' file:
 * as SRS commands run, through the sealed addon (no ATTACH), with the same statement limit. Not
 * in the server's process: a second SQLite library there, closing its connection to the apps'
 * file, would drop the POSIX locks the server's own connection holds on it.
 */
async function runSqliteSeed(target: SeedTarget, statements: readonly string[]): Promise<void> {
  if (!target.appDataFile) throw new Error('no apps’ database file to seed');
  const pool = new SqliteCommandPool({ file: target.appDataFile, size: 1 });
  try {
    await pool.run({
      commands: [
        { name: 'seed', output: 'none', statements: statements.map((text) => ({ sql: text, parameters: [] })) },
      ],
      maxRows: Number.MAX_SAFE_INTEGER,
      statementTimeoutMs: target.statementTimeoutMs,
    });
  } finally {
    await pool.close();
  }
}

/** Applies the seeds of every app in APPS_DIR. */
export async function seedApps(target: SeedTarget, appsDir: string, logger: Logger): Promise<void> {
  for (const app of listApps(appsDir)) await seedApp(target, appsDir, app, logger);
}
