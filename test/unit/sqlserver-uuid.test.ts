import { describe, expect, it } from 'vitest';
import { SqlServerUuidGenerator, UuidV7Generator } from '../../src/system/sqlserver-uuid.js';

/**
 * An independent model of SQL Server's uniqueidentifier comparison: the GUID's 16 bytes as
 * stored (.NET Guid.ToByteArray: first three groups little-endian), compared in the byte order
 * 10..15, 8..9, 6..7, 4..5, 0..3.
 */
function storedBytes(uuid: string): number[] {
  const hex = uuid.replace(/-/g, '');
  const b = Array.from({ length: 16 }, (_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
  return [b[3]!, b[2]!, b[1]!, b[0]!, b[5]!, b[4]!, b[7]!, b[6]!, ...b.slice(8)];
}
const SQLSERVER_ORDER = [10, 11, 12, 13, 14, 15, 8, 9, 6, 7, 4, 5, 0, 1, 2, 3];
function compareSqlServer(a: string, b: string): number {
  const x = storedBytes(a);
  const y = storedBytes(b);
  for (const i of SQLSERVER_ORDER) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** How many neighbours are not strictly increasing under SQL Server ordering. */
function outOfOrder(values: string[]): number {
  let n = 0;
  for (let i = 1; i < values.length; i++) if (compareSqlServer(values[i - 1]!, values[i]!) >= 0) n++;
  return n;
}

describe('SqlServerUuidGenerator', () => {
  it('100,000 values sort in creation order under SQL Server ordering, all unique', () => {
    const gen = new SqlServerUuidGenerator();
    const created = Array.from({ length: 100_000 }, () => gen.next());
    expect(new Set(created).size).toBe(created.length);
    const sorted = [...created].sort(compareSqlServer);
    expect(sorted).toEqual(created);
    expect(outOfOrder(created)).toBe(0);
  });

  it('has the documented layout: version 8, RFC variant, time in the last 12 digits', () => {
    const t = Date.UTC(2026, 10, 22, 10, 0, 0, 123);
    const u = new SqlServerUuidGenerator(() => t).next();
    expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(u.slice(24), 16)).toBe(t);
  });

  it('stays strictly ordered when the counter of one millisecond runs out, and when the clock goes back', () => {
    let now = 1_000_000;
    const gen = new SqlServerUuidGenerator(() => now);
    const values = Array.from({ length: 40_000 }, () => gen.next()); // > 16,384 in one ms
    now -= 50; // clock steps back
    values.push(...Array.from({ length: 10 }, () => gen.next()));
    expect(outOfOrder(values)).toBe(0);
  });

  it('is not ordered by plain string comparison (it is made for SQL Server, not other systems)', () => {
    let now = 5_000;
    const gen = new SqlServerUuidGenerator(() => now);
    const a = gen.next();
    now += 1;
    const values = [a, ...Array.from({ length: 50 }, () => gen.next())];
    const byString = [...values].sort();
    expect(byString).not.toEqual(values);
  });
});

describe('UuidV7Generator (?format=rfc)', () => {
  it('is RFC 9562 v7 and sorts as strings in creation order', () => {
    const gen = new UuidV7Generator();
    const values = Array.from({ length: 20_000 }, () => gen.next());
    for (const v of values.slice(0, 100))
      expect(v).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...values].sort()).toEqual(values);
    expect(new Set(values).size).toBe(values.length);
  });
});
