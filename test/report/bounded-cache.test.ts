// The report library's memo caches: each key computed once until the cache is full, then the
// cache starts over (memory stays bounded) and answers stay the same.
import { describe, expect, it } from 'vitest';
import { BoundedCache, CodePointNumbers } from '../../src/report/bounded-cache.js';

describe('BoundedCache', () => {
  it('computes a key once while it is cached', () => {
    const calls: string[] = [];
    const cache = new BoundedCache<string, number>(10, (k) => {
      calls.push(k);
      return k.length;
    });
    expect([cache.get('ab'), cache.get('ab'), cache.get('abc')]).toEqual([2, 2, 3]);
    expect(calls).toEqual(['ab', 'abc']);
  });

  it('starts over past its maximum, so a key is computed again, with the same answer', () => {
    let computed = 0;
    const cache = new BoundedCache<number, number>(3, (k) => {
      computed++;
      return k * 2;
    });
    for (const k of [1, 2, 3]) cache.get(k);
    expect(computed).toBe(3);
    cache.get(1);
    expect(computed).toBe(3); // still cached
    cache.get(4); // the fourth key: the cache is cleared before it is stored
    expect(cache.get(1)).toBe(2);
    expect(computed).toBe(5); // 4, then 1 again
  });

  it('clear() forgets everything', () => {
    let computed = 0;
    const cache = new BoundedCache<string, string>(5, (k) => {
      computed++;
      return k.toUpperCase();
    });
    cache.get('x');
    cache.clear();
    expect(cache.get('x')).toBe('X');
    expect(computed).toBe(2);
  });
});

describe('CodePointNumbers', () => {
  it('answers compute(cp) inside and outside Latin-1, computing Latin-1 code points once for good', () => {
    const seen: number[] = [];
    const numbers = new CodePointNumbers(2, (cp) => {
      seen.push(cp);
      return cp / 10;
    });
    expect([numbers.get(0x41), numbers.get(0x41), numbers.get(0xff)]).toEqual([6.5, 6.5, 25.5]);
    // Outside Latin-1 the bounded cache applies: a third code point clears the first two.
    for (const cp of [0x100, 0x4e00, 0x4e01, 0x100]) numbers.get(cp);
    expect(seen).toEqual([0x41, 0xff, 0x100, 0x4e00, 0x4e01, 0x100]);
    // Latin-1 entries never expire.
    numbers.get(0x41);
    expect(seen.filter((cp) => cp === 0x41)).toHaveLength(1);
  });
});
