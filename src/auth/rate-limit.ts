// Fixed-window counters kept in memory. Per instance: with several instances the effective
// limit is the sum over instances, which still bounds password guessing.
import { AppError } from '../lib/errors.js';

export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly windowMs: number) {}

  /** Counts a hit; returns the seconds to wait when the limit is exceeded, else 0. */
  hit(key: string, limit: number, now: number = Date.now()): number {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 200_000) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return w.count > limit ? Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000)) : 0;
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
    if (this.windows.size > 200_000) this.windows.clear();
  }
}

export function rateLimited(retryAfter: number): AppError {
  return new AppError(429, 'rate_limited', 'Too many login attempts; try again later', { headers: { 'Retry-After': String(retryAfter) } });
}
