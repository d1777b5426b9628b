// What a migration of the platform is: Kysely's, with the SQLite step that writes the apps' file.
import type { Kysely, Migration } from 'kysely';

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
