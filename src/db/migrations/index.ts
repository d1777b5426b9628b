import type { Kysely, Migration } from 'kysely';
import { initial } from './001-initial.js';
import { loginFailures } from './002-login-failures.js';
import { appData } from './003-app-data.js';
import { loginRateWindows } from './004-login-rate-windows.js';
import { tokenLimits } from './005-token-limits.js';
import { audit } from './006-audit.js';
import { consoleIndexes } from './007-console-indexes.js';
import { hookSchema } from './008-hook-schema.js';

export interface PlatformMigration extends Migration {
  /**
   * SQLite: the part of the migration that writes the apps' database file. A transaction over
   * two files in WAL mode is atomic per file only, so migrate.ts commits this part first, on
   * its own, and then `up`, which must then write the platform's file only (with the record of
   * the migration). It runs again when the process died before `up` committed, so it must find
   * its own earlier work and leave it be. Both run with foreign keys off.
   */
  sqliteAppFileStep?(db: Kysely<any>): Promise<void>;
}

// Versioned migrations, applied in key order at start and by `platform-core migrate`.
// Never edit a released migration: add a new one.
export const migrations: Record<string, PlatformMigration> = {
  '001-initial': initial,
  '002-login-failures': loginFailures,
  '003-app-data': appData,
  '004-login-rate-windows': loginRateWindows,
  '005-token-limits': tokenLimits,
  '006-audit': audit,
  '007-console-indexes': consoleIndexes,
  '008-hook-schema': hookSchema,
};
