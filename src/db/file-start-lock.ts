// The start-up lock of SQLite (startup-lock.ts has PostgreSQL's): the server and the CLI, or two
// servers, starting at once on one file raced on the migrations ("table teams already exists"),
// which Kysely does not lock on SQLite. A lock file created exclusively serialises them; one
// left by a process that died is taken over.
import { openSync, closeSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { DatabaseOpenError } from './open-error.js';

const POLL_MS = 50;
/** A lock older than this is taken over even if its process seems alive (a reused pid). */
const STALE_MS = 10 * 60_000;

function holderGone(lockFile: string, now: number): boolean {
  try {
    if (now - statSync(lockFile).mtimeMs > STALE_MS) return true;
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return false; // being written: not stale yet
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // ESRCH: no such process. ENOENT: released meanwhile (the next attempt will tell).
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ESRCH';
  }
}

export async function withFileStartupLock<T>(lockFile: string, maxWaitMs: number, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + maxWaitMs;
  for (;;) {
    let fd: number | undefined;
    try {
      fd = openSync(lockFile, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (fd !== undefined) {
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      break;
    }
    if (holderGone(lockFile, Date.now())) {
      rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new DatabaseOpenError(
        `another process has held the start-up lock ${lockFile} for more than ${Math.round(maxWaitMs / 1000)} s`,
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  try {
    return await work();
  } finally {
    rmSync(lockFile, { force: true });
  }
}
