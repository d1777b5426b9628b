import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../src/auth/ttl-cache.js';
import { isoMicros, withoutZone, withUtcOffset, addSeconds } from '../../src/lib/time.js';

describe('TtlCache', () => {
  it('expires entries and bounds its size by evicting the oldest', () => {
    const c = new TtlCache<string, number>(3);
    c.set('a', 1, 1000, 0);
    expect(c.get('a', 999)).toBe(1);
    expect(c.get('a', 1000)).toBeUndefined();
    for (const k of ['a', 'b', 'c', 'd']) c.set(k, 1, 1000, 0);
    expect(c.get('a', 1)).toBeUndefined();
    expect(c.get('d', 1)).toBe(1);
    c.set('z', 1, 0, 0); // ttl 0 = not cached
    expect(c.get('z', 0)).toBeUndefined();
  });
});

describe('time formats', () => {
  it('writes six fraction digits in UTC and the documented variants', () => {
    const s = isoMicros(1_795_347_943_123_456);
    expect(s).toBe('2026-11-22T11:45:43.123456Z');
    expect(withoutZone(s)).toBe('2026-11-22T11:45:43.123456');
    expect(withUtcOffset(s)).toBe('2026-11-22T11:45:43.123456+00:00');
    expect(addSeconds(s, 60)).toBe('2026-11-22T11:46:43.123000Z');
    expect(isoMicros()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });
});
