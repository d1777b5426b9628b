// UUIDs that sort by creation time under SQL Server's uniqueidentifier ordering.
//
// SQL Server (SqlGuid) compares the 16 stored bytes in the order 10-15, 8-9, 6-7, 4-5, 0-3. In
// the string form bytes 10-15 are the last 12 hex digits and bytes 8-9 the fourth group, both
// in written order. So the layout (CONTRACT.md) is:
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

export class SqlServerUuidGenerator {
  private lastMs = -1;
  private counter = 0;
  private timeHex = '';
  private readonly random = new RandomHexPool();

  constructor(private readonly clock: () => number = Date.now) {}

  next(): string {
    const now = this.clock();
    if (now > this.lastMs) {
      this.setMillisecond(now);
    } else if (this.counter < COUNTER_MAX) {
      this.counter++;
    } else {
      this.setMillisecond(this.lastMs + 1);
    }
    const r = this.random.take(15);
    return `${r.slice(0, 8)}-${r.slice(8, 12)}-8${r.slice(12, 15)}-${FOURTH_GROUP[this.counter]}-${this.timeHex}`;
  }

  private setMillisecond(ms: number): void {
    this.lastMs = ms;
    this.timeHex = ms.toString(16).padStart(12, '0');
    // Start low in the counter space, at a random point, so it rarely runs out within a ms
    // while the next value stays hard to guess.
    this.counter = Number.parseInt(this.random.take(3), 16) & 0x0fff;
  }
}

/** Standard RFC 9562 UUIDv7 (time first), monotonic within a ms via the 12-bit rand_a field. */
export class UuidV7Generator {
  private lastMs = -1;
  private seq = 0;
  private timeHex = '';
  private readonly random = new RandomHexPool();

  constructor(private readonly clock: () => number = Date.now) {}

  next(): string {
    const now = this.clock();
    if (now > this.lastMs) {
      this.lastMs = now;
      this.seq = Number.parseInt(this.random.take(3), 16) & 0x7ff;
      this.timeHex = now.toString(16).padStart(12, '0');
    } else if (this.seq < 0xfff) {
      this.seq++;
    } else {
      this.lastMs++;
      this.seq = 0;
      this.timeHex = this.lastMs.toString(16).padStart(12, '0');
    }
    const r = this.random.take(16);
    const variant = (0x8 | (Number.parseInt(r[0]!, 16) & 0x3)).toString(16);
    return (
      `${this.timeHex.slice(0, 8)}-${this.timeHex.slice(8)}-7${this.seq.toString(16).padStart(3, '0')}` +
      `-${variant}${r.slice(1, 4)}-${r.slice(4, 16)}`
    );
  }
}
