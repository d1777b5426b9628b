// The SQLite copy of the user directory (src/srs/platform-directory.ts): rewritten when marked
// changed or older than its age limit, and skipped, never waited for, while a report holds the
// apps' file's write lock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { openSqliteFile } from '../../src/db/sqlite-file.js';
import { createAccount } from '../../src/accounts/account-service.js';
import { ensureDefaultTeam } from '../../src/teams/teams-repository.js';
import { PlatformDirectoryCopy } from '../../src/srs/platform-directory.js';
import { CLI_ACTOR } from '../../src/audit/audit-actions.js';

describe('the SQLite user directory copy', () => {
  let dir: string;
  let handle: DatabaseHandle;
  const names = async () =>
    (
      await sql<{ username: string }>`SELECT username FROM app.platform_users ORDER BY username`.execute(
        handle.withApps,
      )
    ).rows.map((r) => r.username);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pc-directory-'));
    handle = openDatabase({ databaseUrl: null, dataDir: dir });
    await migrateToLatest(handle);
    await ensureDefaultTeam(handle.db);
    await createAccount(handle.db, { username: 'ada', password: 'nqn-password-1' }, CLI_ACTOR);
  });
  afterEach(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies at first, then only when marked changed or older than its age limit', async () => {
    const copy = new PlatformDirectoryCopy(handle.db, handle.appDataFile!, 30_000);
    const t0 = Date.now();
    expect(await copy.refreshIfStale(t0)).toBe('copied');
    expect(await names()).toEqual(['ada']);
    // A change the copy was not told of (the CLI's): seen once the copy is old enough.
    await createAccount(handle.db, { username: 'bob', password: 'obo-password-1' }, CLI_ACTOR);
    expect(await copy.refreshIfStale(t0 + 29_000)).toBe('current');
    expect(await names()).toEqual(['ada']);
    expect(await copy.refreshIfStale(t0 + 30_000)).toBe('copied');
    expect(await names()).toEqual(['ada', 'bob']);
    // A change it was told of: at once.
    await createAccount(handle.db, { username: 'cy', password: 'pl-password-1' }, CLI_ACTOR);
    copy.markChanged();
    expect(await copy.refreshIfStale(t0 + 30_001)).toBe('copied');
    expect(await names()).toEqual(['ada', 'bob', 'cy']);
    copy.close();
  });

  it('a copy that app SQL dropped is made again, also by a copier started after the drop', async () => {
    const report = openSqliteFile(handle.appDataFile!, { fileMustExist: true });
    report.exec(`DROP TABLE platform_users`);
    report.close();
    const copy = new PlatformDirectoryCopy(handle.db, handle.appDataFile!, 30_000);
    expect(await copy.refreshIfStale()).toBe('copied');
    expect(await names()).toEqual(['ada']);
    copy.close();
  });

  it('a report holding the apps’ file write lock makes it skip at once, and the next call copies', async () => {
    const copy = new PlatformDirectoryCopy(handle.db, handle.appDataFile!, 30_000);
    const report = openSqliteFile(handle.appDataFile!, { fileMustExist: true });
    try {
      report.exec('BEGIN IMMEDIATE');
      const started = performance.now();
      expect(await copy.refreshIfStale()).toBe('busy');
      // Far below the 5 s busy timeout: it did not wait for the lock.
      expect(performance.now() - started).toBeLessThan(1000);
      report.exec('ROLLBACK');
    } finally {
      report.close();
    }
    expect(await copy.refreshIfStale()).toBe('copied');
    expect(await names()).toEqual(['ada']);
    copy.close();
  });
});
