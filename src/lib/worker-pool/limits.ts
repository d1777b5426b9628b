// A pool's size and queue limits, checked once where the pool is made.

import { availableParallelism } from 'node:os';

export interface PoolLimitsInput {
  size?: number;
  queueLimit?: number;
  timeoutMs?: number;
  maxMemoryMb?: number;
}

export interface PoolLimits {
  size: number;
  queueLimit: number;
  timeoutMs: number;
  maxMemoryMb: number;
}

/** `value`, or `fallback` when it is undefined; a RangeError naming the pool when it is no integer ≥ `min`. */
export function integerOption(pool: string, name: string, value: number | undefined, fallback: number, min: number) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new RangeError(`${pool}: ${name} must be an integer ≥ ${min} (got ${String(value)})`);
  }
  return value;
}

/** Limits from what was given: size max(1, cores − 1), queue 4 × size, heap 512 MB by default. */
export function resolvePoolLimits(pool: string, opts: PoolLimitsInput, defaultTimeoutMs: number): PoolLimits {
  const size = integerOption(pool, 'size', opts.size, Math.max(1, availableParallelism() - 1), 1);
  return {
    size,
    queueLimit: integerOption(pool, 'queueLimit', opts.queueLimit, 4 * size, 0),
    timeoutMs: integerOption(pool, 'timeoutMs', opts.timeoutMs, defaultTimeoutMs, 1),
    // V8 needs some room for the worker's modules themselves.
    maxMemoryMb: integerOption(pool, 'maxMemoryMb', opts.maxMemoryMb, 512, 16),
  };
}
