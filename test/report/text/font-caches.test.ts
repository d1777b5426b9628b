// The per-face caches (advances, glyph presence, fallback face per code point) are bounded and
// start over when full; the answers must stay those of the font files, before and after.
import { describe, expect, it } from 'vitest';
import {
  FontService,
  MAX_CACHED_CODE_POINTS,
  advanceLookup,
  breakLines,
  fontSpec,
  getFace,
  isControl,
  isDefaultIgnorable,
  measureWidth,
  type FontFace,
} from '../../../src/report/text/index.js';

const direct = (face: FontFace, cp: number): number =>
  isControl(cp) || isDefaultIgnorable(cp) ? 0 : face.font.glyphForCodePoint(cp).advanceWidth;

// More distinct code points than a cache holds: Latin, Greek, Cyrillic, CJK, unassigned.
const MANY = Array.from({ length: MAX_CACHED_CODE_POINTS + 1500 }, (_, i) => (i * 7) % 0x30000);

describe('bounded font caches', () => {
  it('advance() and hasGlyph() answer as the font does, through a cache overflow', () => {
    const face = getFace('Arimo', false, false);
    const first = MANY.slice(0, 400).map((cp) => [face.advance(cp), face.hasGlyph(cp)]);
    for (const cp of MANY) {
      expect(face.advance(cp)).toBe(direct(face, cp));
      expect(face.hasGlyph(cp)).toBe(face.font.hasGlyphForCodePoint(cp));
    }
    expect(MANY.slice(0, 400).map((cp) => [face.advance(cp), face.hasGlyph(cp)])).toEqual(first);
  });

  it('unitsPerEm is the font’s, before and after the face is loaded', () => {
    const fresh = getFace('Cousine', true, true);
    const upm = fresh.unitsPerEm;
    expect(upm).toBe(fresh.font.unitsPerEm);
    expect(getFace('Tinos', false, true).unitsPerEm).toBe(getFace('Tinos', false, true).font.unitsPerEm);
  });

  it('faceFor() picks the same face after its cache starts over', () => {
    const svc = new FontService();
    const primary = getFace('Cousine', false, false);
    // The reference: services whose caches never fill (a new one every 4000 characters).
    let ref = new FontService();
    let asked = 0;
    const expected = (cp: number): FontFace => {
      if (++asked % 4000 === 0) ref = new FontService();
      return ref.faceFor(primary, cp);
    };
    const before = MANY.slice(0, 300).map((cp) => svc.faceFor(primary, cp).name);
    // Names, not faces: a failing comparison of two font objects would print megabytes.
    for (const cp of MANY) expect(svc.faceFor(primary, cp).name, `U+${cp.toString(16)}`).toBe(expected(cp).name);
    expect(MANY.slice(0, 300).map((cp) => svc.faceFor(primary, cp).name)).toEqual(before);
  });

  it('the measuring cache gives fonts.advancePx exactly, inside and outside Latin-1', () => {
    const svc = new FontService();
    const r = svc.resolve(fontSpec('Verdana', 8.25, { bold: true }));
    const advance = advanceLookup(r, svc);
    for (const cp of [0x20, 0x41, 0xad, 0xe9, 0xff, 0x100, 0x3b1, 0x416, 0x4e2d, 0x1f600, 0x09, 0x0]) {
      expect(advance(cp)).toBe(svc.advancePx(cp, r));
      expect(advance(cp)).toBe(svc.advancePx(cp, r));
    }
  });

  it('measureWidth sums per face as the characters are laid out', () => {
    const svc = new FontService();
    const font = fontSpec('Courier New', 10);
    const r = svc.resolve(font);
    for (const text of ['', 'plain', 'Ærøskøbing → €5', 'mixed Москва 中文 ✓', 'soft\u00adhyphen\u200b']) {
      // One face size for every face here, so the width is the units' sum scaled once per
      // unitsPerEm in the order met (what measureWidth documents).
      const units = new Map<number, number>();
      for (const ch of text) {
        const cp = ch.codePointAt(0) as number;
        const f = svc.faceFor(r.face, cp);
        units.set(f.unitsPerEm, (units.get(f.unitsPerEm) ?? 0) + f.advance(cp));
      }
      let x = 0;
      for (const [upm, u] of units) x += (u * r.sizePx) / upm;
      expect(measureWidth(text, font, svc)).toBe(x);
      expect(breakLines(text, font, 10_000, { fonts: svc })[0]?.widthPx ?? 0).toBeCloseTo(x, 9);
    }
  });
});
