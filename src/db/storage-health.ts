// Whether the SQLite files' disk can take writes, for readiness: a full disk leaves reads
// working (`select 1` succeeds), so readiness asks the file system, and remembers a write that
// just failed with SQLITE_FULL (a database size limit, or a disk that filled and emptied).
import { statfs } from 'node:fs/promises';
import type { DatabaseFault } from './database-errors.js';

/** Below this much free space a write of a few pages may already fail. */
const MIN_FREE_BYTES = 1024 * 1024;
/** How long a failed write keeps readiness reporting a full disk. */
const RECENT_FAULT_MS = 5_000;

export class StorageHealth {
  private fullAt = -Infinity;

  /** `dir`: where the SQLite files live; null (PostgreSQL) when the disk is not ours to watch. */
  constructor(private readonly dir: string | null) {}

  noteFault(fault: DatabaseFault, now: number = Date.now()): void {
    if (fault === 'storage_full') this.fullAt = now;
  }

  /** 'storage_full' when writes fail or are about to fail for want of room, else null. */
  async problem(now: number = Date.now()): Promise<'storage_full' | null> {
    if (this.dir === null) return null;
    if (now - this.fullAt < RECENT_FAULT_MS) return 'storage_full';
    try {
      const fs = await statfs(this.dir);
      return fs.bavail * fs.bsize < MIN_FREE_BYTES ? 'storage_full' : null;
    } catch {
      // The directory is gone or unreadable: the database query of readiness reports that.
      return null;
    }
  }
}
