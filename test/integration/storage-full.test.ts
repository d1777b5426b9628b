// SQLite on a full disk answers 503 `storage_full` (it answered 500 and logged
// "cannot rollback - no transaction is active", hiding the cause), logs SQLITE_FULL, and
// readiness reports it; freeing space brings writes back without a restart. The disk is a small
// tmpfs, which needs root (mount); elsewhere the test is skipped with a visible line.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';

function mountTmpfs(): string | null {
  if (process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'platform-core-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

const disk = mountTmpfs();
if (!disk) process.stderr.write('storage-full: SKIPPED (mounting a small tmpfs needs root and mount rights)\n');

/** Fills the file system with one file until it refuses more; returns its path. */
function fill(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  return file;
}

describe.skipIf(!disk)('SQLite on a full disk', () => {
  const dir = disk as string;
  let inst: Instance;
  let jwt: string;

  beforeAll(async () => {
    inst = await startInstance({ kind: 'sqlite', databaseUrl: undefined, dataDir: join(dir, 'data') });
    jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await inst?.stop();
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  let n = 0;
  const write = () =>
    inst.request(`/api/core/token/create/full${++n}`, { method: 'POST', headers: { authorization: `Bearer ${jwt}` } });

  it(
    'answers 503 storage_full, logs SQLITE_FULL, reports ' + 'it in /readyz, and recovers when space is freed',
    async () => {
      expect((await write()).status).toBe(201);
      expect((await inst.request('/readyz')).status).toBe(200);
      const filler = fill(dir);

      // The WAL may still have room for a few small writes: write until the disk is the limit.
      let refused: Awaited<ReturnType<typeof write>> | undefined;
      for (let i = 0; i < 500 && !refused; i++) {
        const r = await write();
        expect([201, 503], r.text).toContain(r.status);
        if (r.status === 503) refused = r;
      }
      expect(refused, 'a write was refused for want of space').toBeDefined();
      expect(refused!.body.data.code).toBe('storage_full');
      expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
      // The log stream writes asynchronously: the line may land just after the answer.
      await vi.waitFor(() => expect(inst.logs()).toContain('SQLITE_FULL'), { timeout: 5000 });
      expect(inst.logs()).not.toContain('cannot rollback');

      const ready = await inst.request('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.data.code).toBe('storage_full');

      rmSync(filler);
      const freed = Date.now();
      let ok = false;
      while (!ok && Date.now() - freed < 10_000) {
        ok = (await write()).status === 201;
        if (!ok) await new Promise((r) => setTimeout(r, 100));
      }
      expect(ok, 'writes work again once space is freed').toBe(true);
      let readyAgain = false;
      while (!readyAgain && Date.now() - freed < 15_000) {
        readyAgain = (await inst.request('/readyz')).status === 200;
        if (!readyAgain) await new Promise((r) => setTimeout(r, 200));
      }
      expect(readyAgain, '/readyz is 200 again').toBe(true);
    },
  );
});
