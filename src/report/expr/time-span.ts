// System.TimeSpan with millisecond (fractional allowed) precision, and the milliseconds of a day
// the DateTime helpers and TimeSpan parsing count with.

import { ValueError } from './value-error.js';

export const MS_PER_DAY = 86_400_000;

/** System.TimeSpan with millisecond (fractional allowed) precision. */
export class TimeSpan {
  /** Total length in milliseconds (negative for negative spans). */
  readonly ms: number;

  constructor(ms: number) {
    if (!Number.isFinite(ms) || Math.abs(ms) > 922_337_203_685_477)
      throw new ValueError('OverflowException', 'TimeSpan overflowed because the duration is too long');
    this.ms = ms === 0 ? 0 : ms;
  }

  static readonly Zero = new TimeSpan(0);

  get days(): number {
    return Math.trunc(this.ms / MS_PER_DAY);
  }
  get hours(): number {
    return Math.trunc(this.ms / 3_600_000) % 24;
  }
  get minutes(): number {
    return Math.trunc(this.ms / 60_000) % 60;
  }
  get seconds(): number {
    return Math.trunc(this.ms / 1000) % 60;
  }
  get milliseconds(): number {
    return Math.trunc(this.ms) % 1000;
  }
  get ticks(): bigint {
    return BigInt(Math.round(this.ms * 10_000));
  }

  /** The "c" format: [-][d.]hh:mm:ss[.fffffff]. */
  toString(): string {
    const neg = this.ms < 0;
    const t = Math.abs(this.ms);
    const d = Math.trunc(t / MS_PER_DAY);
    const h = Math.trunc(t / 3_600_000) % 24;
    const m = Math.trunc(t / 60_000) % 60;
    const s = Math.trunc(t / 1000) % 60;
    const ticks = Math.round((t % 1000) * 10_000);
    const p2 = (n: number) => String(n).padStart(2, '0');
    let out = `${neg ? '-' : ''}${d ? `${d}.` : ''}${p2(h)}:${p2(m)}:${p2(s)}`;
    if (ticks) out += `.${String(ticks).padStart(7, '0')}`;
    return out;
  }
}
