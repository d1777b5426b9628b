// The store of served WOFF2 faces bounds what callers can cost: requests for many distinct faces
// at once run one compression at a time (the real wawoff2 worker, wrapped to count), at most
// `maxWaiting` faces wait and the others are refused at once, and every face compressed is kept
// (asked again, it is not compressed again); a face past the byte budget is served, not kept.

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FontFace } from '../../../src/report/text/font-faces.js';
import { compressOnWorker, WebFontStore } from '../../../src/report/text/web-font-store.js';

// A small TrueType file (13 KB): its copies are distinct faces that compress quickly.
const SMALL_TTF = fileURLToPath(new URL('../../../node_modules/bwip-js/fonts/OCRA7.ttf', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'web-font-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function faces(count: number, prefix: string): FontFace[] {
  return Array.from({ length: count }, (_, i) => {
    const path = join(dir, `${prefix}${i}.ttf`);
    copyFileSync(SMALL_TTF, path);
    return new FontFace(`${prefix}${i}`, false, false, path);
  });
}

/** The real compressor, counting its calls per face and how many run at once. */
function countingCompressor() {
  const calls = new Map<FontFace, number>();
  let running = 0;
  let mostAtOnce = 0;
  const compress = async (face: FontFace) => {
    calls.set(face, (calls.get(face) ?? 0) + 1);
    mostAtOnce = Math.max(mostAtOnce, ++running);
    try {
      return await compressOnWorker(face);
    } finally {
      running--;
    }
  };
  return { compress, calls, mostAtOnce: () => mostAtOnce };
}

describe('WebFontStore', () => {
  it('compresses one face at a time, lets maxWaiting wait, refuses the rest, and keeps what it made', async () => {
    const counter = countingCompressor();
    const store = new WebFontStore({ compress: counter.compress, maxWaiting: 4 });
    const all = faces(30, 'Many');
    // Every face asked twice at once, as many clients would.
    const first = all.map((f) => store.woff2(f));
    const again = all.map((f) => store.woff2(f));
    const accepted = all.filter((_, i) => first[i] !== undefined);
    expect(accepted).toEqual(all.slice(0, 5)); // the one running and 4 waiting
    expect(again.filter((p) => p !== undefined)).toHaveLength(5);
    for (const [i, p] of first.entries()) if (p) expect(again[i]).toBe(p); // the same compression
    expect(store.stats().waiting).toBe(4);

    const made = await Promise.all(first.filter((p) => p !== undefined));
    for (const bytes of made) expect(bytes.subarray(0, 4).toString('latin1')).toBe('wOF2');
    expect(counter.mostAtOnce()).toBe(1);
    expect([...counter.calls.values()]).toEqual([1, 1, 1, 1, 1]);

    // Asked again, a kept face is not compressed again; a refused face is accepted now.
    for (const f of accepted) expect(await store.woff2(f)).toBe(made[accepted.indexOf(f)]);
    const later = store.woff2(all[5]!);
    expect(later).toBeDefined();
    await later;
    expect(counter.calls.get(all[5]!)).toBe(1);
    expect(store.stats()).toMatchObject({ compressions: 6, waiting: 0, kept: 6 });
    expect(counter.mostAtOnce()).toBe(1);
  });

  it('works through many faces in turns without compressing any twice', async () => {
    const counter = countingCompressor();
    const store = new WebFontStore({ compress: counter.compress, maxWaiting: 2 });
    const all = faces(8, 'Turns');
    let open = [...all];
    for (let round = 0; open.length > 0 && round < all.length; round++) {
      const tries = open.map((f) => ({ f, p: store.woff2(f) }));
      await Promise.all(tries.map((t) => t.p));
      open = tries.filter((t) => t.p === undefined).map((t) => t.f);
    }
    expect(open).toEqual([]);
    for (const f of all) await store.woff2(f);
    expect(counter.calls.size).toBe(all.length);
    expect([...counter.calls.values()].every((n) => n === 1)).toBe(true);
    expect(counter.mostAtOnce()).toBe(1);
  });

  it('serves a face past the byte budget without keeping it, and a failed face fails alone', async () => {
    const counter = countingCompressor();
    const store = new WebFontStore({ compress: counter.compress, maxBytes: 1 });
    const [face] = faces(1, 'Budget');
    expect((await store.woff2(face!))?.subarray(0, 4).toString('latin1')).toBe('wOF2');
    expect(store.stats()).toMatchObject({ kept: 0, keptBytes: 0 });
    await store.woff2(face!);
    expect(counter.calls.get(face!)).toBe(2);

    const missing = new FontFace('Gone', false, false, join(dir, 'gone.ttf'));
    await expect(store.woff2(missing)).rejects.toThrow();
    expect((await store.woff2(face!))?.length).toBeGreaterThan(0);
  });
});
