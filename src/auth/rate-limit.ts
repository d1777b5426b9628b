// The login rate limit: fixed-window counters kept in the database (login_rate_windows,
// migration 004), so every instance on one database counts into the same windows and the limit
// holds for all of them combined. A window starts at a key's first hit and lasts windowMs;
// hits beyond the limit still count. Keys hold usernames (people type passwords there), so
// only their SHA-256 is stored, as in login_failures. Windows that ended are swept now and
// then, so the table holds at most the keys hit within about one window.
//
// SQLite uses the same table: one implementation, tested on both databases, that also survives
// a restart; a login already writes there (the lockout counters), and the upsert is one
// statement.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { AppError } from '../lib/errors.js';
import { isoMicros } from '../lib/time.js';
import { sha256Hex } from '../lib/random.js';

export interface RateLimitHit {
  key: string;
  limit: number;
}

/** How often, at most, ended windows are swept by one instance. */
const SWEEP_INTERVAL_MS = 60_000;

export const rateLimitKeyDigest = (key: string): string => sha256Hex(`login-rate:${key}`);

export class SharedFixedWindowLimiter {
  private lastSweep = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly windowMs: number,
    private readonly onBackgroundError: (err: unknown) => void,
  ) {}

  /**
   * Counts one hit on every key (in one statement); returns the seconds to wait when any key
   * is beyond its limit, else 0. Keys are written in the order given: callers use one order,
   * so concurrent hits on PostgreSQL lock the rows in the same order and cannot deadlock.
   */
  async hit(hits: readonly RateLimitHit[], nowMs: number = Date.now()): Promise<number> {
    const now = isoMicros(nowMs * 1000);
    const windowEnded = isoMicros((nowMs - this.windowMs) * 1000);
    const digests = hits.map((h) => rateLimitKeyDigest(h.key));
    const rows = await this.db
      .insertInto('login_rate_windows')
      .values(digests.map((key_digest) => ({ key_digest, window_start: now, hits: 1 })))
      .onConflict((oc) =>
        oc.column('key_digest').doUpdateSet((eb) => ({
          hits: eb
            .case()
            .when('login_rate_windows.window_start', '<=', windowEnded)
            .then(1)
            .else(eb('login_rate_windows.hits', '+', 1))
            .end(),
          window_start: eb
            .case()
            .when('login_rate_windows.window_start', '<=', windowEnded)
            .then(now)
            .else(eb.ref('login_rate_windows.window_start'))
            .end(),
        })),
      )
      .returning(['key_digest', 'hits', 'window_start'])
      .execute();
    this.sweepNowAndThen(nowMs);
    let retry = 0;
    for (const row of rows) {
      const limit = hits[digests.indexOf(row.key_digest)]?.limit ?? Infinity;
      if (Number(row.hits) > limit)
        retry = Math.max(retry, 1, Math.ceil((Date.parse(row.window_start) + this.windowMs - nowMs) / 1000));
    }
    return retry;
  }

  private sweepNowAndThen(nowMs: number): void {
    if (nowMs - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = nowMs;
    this.sweep(nowMs).catch(this.onBackgroundError);
  }

  /** Removes the windows that have ended (they would restart at their next hit anyway). */
  async sweep(nowMs: number = Date.now()): Promise<void> {
    await this.db
      .deleteFrom('login_rate_windows')
      .where('window_start', '<=', isoMicros((nowMs - this.windowMs) * 1000))
      .execute();
  }
}

export function rateLimited(retryAfter: number): AppError {
  return new AppError('rate_limited', 'rate_limited', 'Too many login attempts; try again later', {
    retryAfterSeconds: retryAfter,
  });
}
