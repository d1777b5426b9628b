// Memo caches with a ceiling, for the report library's per-font and per-cursor lookups. A cache
// that grew with every distinct key would grow for the life of the process (fonts are shared by
// every render); past `max` entries it starts over instead. Not an LRU: a report asks for the
// same few hundred keys again and again, and they come back after a clear at the cost of one
// recomputation each.

/** `get(key)` answers `compute(key)`, computed once per key until the cache starts over. */
export class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();

  /** `compute` must not answer `undefined` (that reads as "not cached"). */
  constructor(
    private readonly max: number,
    private readonly compute: (key: K) => V,
  ) {}

  get(key: K): V {
    let value = this.map.get(key);
    if (value === undefined) {
      value = this.compute(key);
      if (this.map.size >= this.max) this.map.clear();
      this.map.set(key, value);
    }
    return value;
  }

  clear(): void {
    this.map.clear();
  }
}

/**
 * A number per code point (a glyph advance): U+0000…U+00FF by index in an array (NaN = not
 * computed yet), where most text is and where a read is several times cheaper than a map
 * lookup; other code points in a BoundedCache.
 */
export class CodePointNumbers {
  private readonly latin = new Float64Array(256).fill(Number.NaN);
  private readonly others: BoundedCache<number, number>;

  constructor(
    max: number,
    private readonly compute: (cp: number) => number,
  ) {
    this.others = new BoundedCache(max, compute);
  }

  get(cp: number): number {
    if (cp < 256 && cp >= 0) {
      const known = this.latin[cp] as number;
      if (!Number.isNaN(known)) return known;
      const value = this.compute(cp);
      this.latin[cp] = value;
      return value;
    }
    return this.others.get(cp);
  }
}
