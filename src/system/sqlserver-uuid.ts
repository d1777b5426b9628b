// UUIDs that sort by creation time under SQL Server's uniqueidentifier ordering.
//
// SQL Server (SqlGuid) compares the 16 stored bytes in the order 10-15, 8-9, 6-7, 4-5, 0-3. In
// the string form bytes 10-15 are the last 12 hex digits and bytes 8-9 the fourth group, both
// in written order. So the layout (docs/api.md, System utilities) is:
//   rrrrrrrr-rrrr-8rrr-VCCC-TTTTTTTTTTTT
//   T: 48-bit Unix milliseconds, big-endian  → compared first
//   V/C: RFC 9562 variant bits (10) + a 14-bit counter, strictly increasing within a ms
//   8: version 8 (RFC 9562 custom layout); r: random.
// When 16,384 values are drawn within one millisecond, the generator borrows the next
// millisecond rather than break the order; the clock going backwards is treated the same way.
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 8 * 1024;
const COUNTER_MAX = 0x3fff;

/** "8000" … "bfff": the fourth group for every counter value, precomputed once. */
const FOURTH_GROUP: string[] = Array.from({ length: COUNTER_MAX + 1 }, (_, c) => (0x8000 | c).toString(16));

export class RandomHexPool {
  private hex = '';
  private pos = 0;
  private readonly bytes = Buffer.allocUnsafe(POOL_BYTES);

  /** `n` random hex digits. Bytes are converted in bulk: one native call per 16 K digits. */
  take(n: number): string {
    if (this.pos + n > this.hex.length) {
      randomFillSync(this.bytes);
      this.hex = this.bytes.toString('hex');
      this.pos = 0;
    }
    const s = this.hex.slice(this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
}

/**
 * Unix milliseconds with a counter that strictly increases within one millisecond. A new
 * millisecond starts the counter at `start()`; when the counter is at `max` (many values in one
 * ms, or the clock went backwards) the next millisecond is borrowed and the counter starts at
 * `restart()`, so the values never go back.
 */
class MonotonicMsCounter {
  ms = -1;
  counter = 0;
  /** `ms` as 12 hex digits. */
  timeHex = '';

  constructor(
    private readonly clock: () => number,
    private readonly max: number,
    private readonly start: () => number,
    private readonly restart: () => number,
  ) {}

  tick(): void {
    const now = this.clock();
    if (now > this.ms) this.enter(now, this.start());
    else if (this.counter < this.max) this.counter++;
    else this.enter(this.ms + 1, this.restart());
  }

  private enter(ms: number, counter: number): void {
    this.ms = ms;
    this.timeHex = ms.toString(16).padStart(12, '0');
    this.counter = counter;
  }
}

export class SqlServerUuidGenerator {
  private readonly random = new RandomHexPool();
  // Start low in the counter space, at a random point, so it rarely runs out within a ms while
  // the next value stays hard to guess (also after borrowing the next ms).
  private readonly randomStart = (): number => Number.parseInt(this.random.take(3), 16) & 0x0fff;
  private readonly time: MonotonicMsCounter;

  constructor(clock: () => number = Date.now) {
    this.time = new MonotonicMsCounter(clock, COUNTER_MAX, this.randomStart, this.randomStart);
  }

  next(): string {
    this.time.tick();
    const { timeHex, counter } = this.time;
    const r = this.random.take(15);
    return `${r.slice(0, 8)}-${r.slice(8, 12)}-8${r.slice(12, 15)}-${FOURTH_GROUP[counter]}-${timeHex}`;
  }
}

/** Standard RFC 9562 UUIDv7 (time first), monotonic within a ms via the 12-bit rand_a field. */
export class UuidV7Generator {
  private readonly random = new RandomHexPool();
  private readonly time: MonotonicMsCounter;

  constructor(clock: () => number = Date.now) {
    // A new ms starts rand_a at a random point in its lower half; a borrowed one at 0.
    const start = (): number => Number.parseInt(this.random.take(3), 16) & 0x7ff;
    this.time = new MonotonicMsCounter(clock, 0xfff, start, () => 0);
  }

  next(): string {
    this.time.tick();
    const { timeHex, counter } = this.time;
    const r = this.random.take(16);
    const variant = (0x8 | (Number.parseInt(r[0]!, 16) & 0x3)).toString(16);
    return (
      `${timeHex.slice(0, 8)}-${timeHex.slice(8)}-7${counter.toString(16).padStart(3, '0')}` +
      `-${variant}${r.slice(1, 4)}-${r.slice(4, 16)}`
    );
  }
}
