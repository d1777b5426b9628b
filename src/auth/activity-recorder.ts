// Records "last seen" times for accounts and tokens. Every authenticated request would
// otherwise write a row; instead each account and token is written at most once a minute per
// instance (CONTRACT.md allows coalescing), in the background.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { isoMicros } from '../lib/time.js';

const COALESCE_MS = 60_000;

export class ActivityRecorder {
  private readonly userWrites = new Map<string, number>();
  private readonly tokenWrites = new Map<string, number>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (err: unknown) => void,
  ) {}

  userSeen(userId: string): void {
    if (this.due(this.userWrites, userId)) {
      this.track(this.db.updateTable('users').set({ last_activity: isoMicros() }).where('id', '=', userId).execute());
    }
  }

  tokenUsed(tokenId: string): void {
    if (this.due(this.tokenWrites, tokenId)) {
      this.track(this.db.updateTable('tokens').set({ used_at: isoMicros() }).where('id', '=', tokenId).execute());
    }
  }

  /** Waits for writes in flight (graceful shutdown, tests). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private due(map: Map<string, number>, key: string): boolean {
    const now = Date.now();
    const last = map.get(key);
    if (last !== undefined && now - last < COALESCE_MS) return false;
    if (map.size > 100_000) map.clear();
    map.set(key, now);
    return true;
  }

  private track(p: Promise<unknown>): void {
    const tracked = p.catch(this.onError).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}
