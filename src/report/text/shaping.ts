// Complex text: lines that need more than one glyph per character laid side by side.
//
// Most report text is drawn glyph for glyph with plain advances (no kerning, no ligatures), as
// GDI+ does for Latin text. Scripts whose letters change shape with their neighbours (Arabic
// joining, Indic conjuncts and reordered vowel signs, Thai and Hebrew marks) and scripts written
// right to left go through here instead, as Uniscribe does for GDI+:
// - the Unicode bidirectional algorithm (bidi-js) gives each character its embedding level for
//   the line's base direction (the object's RightToLeft); runs of one level are reordered
//   visually (rule L2) and mirrored characters swapped in right-to-left runs;
// - each run of one level and one face (the fallback chain of fonts.ts, a combining mark staying
//   with its base's face) is shaped by fontkit's OpenType layout with the font's own features.
//
// Measuring shapes word by word (the line breaker needs word widths); drawing shapes the line.
// Both split the text at the same faces, so a word's drawn width is its measured width.

import { createRequire } from 'node:module';
import type * as BidiModule from 'bidi-js';
import { BoundedCache } from '../bounded-cache.js';
import { type FontFace, isControl, isDefaultIgnorable } from './font-faces.js';
import { type FontService, layoutFeatures } from './fonts.js';

/** Characters that need shaping or reordering: Hebrew to Myanmar (Arabic, Syriac, Thaana,
 *  the Indic scripts, Thai, Lao, Tibetan), Khmer, the bidi controls, Hebrew and Arabic
 *  presentation forms. */
const COMPLEX = /[\u0590-\u109f\u1780-\u17ff\u200e\u200f\u202a-\u202e\u2066-\u2069\ufb1d-\ufdff\ufe70-\ufeff]/;

/** Whether a text needs the shaper (or bidi) rather than one glyph per character. */
export function needsShaping(text: string): boolean {
  return COMPLEX.test(text);
}

/** One glyph as the shaper placed it, in font units of its face. */
export interface ShapedGlyph {
  id: number;
  /** The glyph's own advance (its hmtx width: what a PDF font's widths array holds). */
  advanceWidth: number;
  /** Where the pen moves after it, and its offset from the pen (y up). */
  xAdvance: number;
  xOffset: number;
  yOffset: number;
  /** The characters it stands for (several for a ligature). */
  codePoints: readonly number[];
}

/** Glyphs of one face, in visual order (left to right). */
export interface ShapedRun {
  face: FontFace;
  glyphs: readonly ShapedGlyph[];
  /** Whether the run is right-to-left (its glyphs are the reverse of its characters). */
  rtl: boolean;
  /** The characters it draws, in logical order. */
  text: string;
}

const MARK = /\p{M}/u;

interface Piece {
  face: FontFace;
  start: number;
  end: number;
}

/**
 * Splits text into runs of one face, as fonts.ts's fallback picks them, except that a combining
 * mark stays with its base's face when that face has it (a mark in another font would not attach)
 * and default-ignorable characters (joiners) stay with the run they are in. Control characters
 * end a run and are left out. Offsets are UTF-16.
 */
function facePieces(text: string, primary: FontFace, fonts: FontService): Piece[] {
  const out: Piece[] = [];
  let cur: Piece | undefined;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) ?? 0;
    const len = cp > 0xffff ? 2 : 1;
    if (isControl(cp)) {
      cur = undefined;
      i += len;
      continue;
    }
    let face: FontFace;
    if (cur && (isDefaultIgnorable(cp) || (MARK.test(text.slice(i, i + len)) && cur.face.hasGlyph(cp))))
      face = cur.face;
    else face = fonts.faceFor(primary, cp);
    if (cur && cur.face === face && cur.end === i) cur.end = i + len;
    else {
      cur = { face, start: i, end: i + len };
      out.push(cur);
    }
    i += len;
  }
  return out;
}

// Shaped pieces per face and direction: a report repeats the same words on every row.
const MAX_CACHED_PIECES = 4096;
const shapedCache = new WeakMap<FontFace, BoundedCache<string, readonly ShapedGlyph[]>>();

/**
 * Shapes one piece of one face. `direction` 'ltr'/'rtl' forces the glyph order; undefined lets
 * the script decide (for measuring, where only the advances count). Text without complex
 * characters keeps kerning and ligatures off, like all other text; complex text gets the
 * font's default features, which its script needs.
 */
function shapePiece(face: FontFace, text: string, direction: 'ltr' | 'rtl' | undefined): readonly ShapedGlyph[] {
  let cache = shapedCache.get(face);
  if (!cache) {
    cache = new BoundedCache(MAX_CACHED_PIECES, (key) => {
      const dir = key[0] === 'r' ? 'rtl' : key[0] === 'l' ? 'ltr' : undefined;
      const s = key.slice(1);
      let run: ReturnType<typeof face.font.layout>;
      try {
        run = face.font.layout(s, needsShaping(s) ? undefined : layoutFeatures(), undefined, undefined, dir);
      } catch {
        // A font whose layout tables fontkit cannot read (seen: a Debian Noto face, "Not a
        // fixed size"): its glyphs one per character, unshaped, rather than a failed render.
        return unshaped(face, s, dir === 'rtl');
      }
      return run.glyphs.map((g, i) => {
        const p = run.positions[i];
        const cps = g.codePoints;
        // Characters measured as nothing elsewhere take no room here either.
        const invisible = cps.length > 0 && cps.every((c) => isControl(c) || isDefaultIgnorable(c));
        return {
          id: g.id,
          advanceWidth: g.advanceWidth,
          xAdvance: invisible ? 0 : (p?.xAdvance ?? g.advanceWidth),
          xOffset: p?.xOffset ?? 0,
          yOffset: p?.yOffset ?? 0,
          codePoints: [...cps],
        };
      });
    });
    shapedCache.set(face, cache);
  }
  return cache.get(`${direction === 'rtl' ? 'r' : direction === 'ltr' ? 'l' : 'a'}${text}`);
}

/** The text's glyphs one per code point with their own advances (visual order for `rtl`). */
function unshaped(face: FontFace, text: string, rtl: boolean): ShapedGlyph[] {
  const glyphs = [...text].map((ch): ShapedGlyph => {
    const cp = ch.codePointAt(0) ?? 0;
    const g = face.font.glyphForCodePoint(cp);
    return {
      id: g.id,
      advanceWidth: g.advanceWidth,
      xAdvance: face.advance(cp),
      xOffset: 0,
      yOffset: 0,
      codePoints: [cp],
    };
  });
  return rtl ? glyphs.reverse() : glyphs;
}

function advanceSum(glyphs: readonly ShapedGlyph[]): number {
  let units = 0;
  for (const g of glyphs) units += g.xAdvance;
  return units;
}

/** The shaped width of a text in px at `sizePx` (no bidi: the order does not change a width). */
export function shapedWidthPx(text: string, primary: FontFace, sizePx: number, fonts: FontService): number {
  let px = 0;
  for (const p of facePieces(text, primary, fonts)) {
    px += (advanceSum(shapePiece(p.face, text.slice(p.start, p.end), undefined)) * sizePx) / p.face.unitsPerEm;
  }
  return px;
}

type Bidi = BidiModule.Bidi;
let bidi: Bidi | undefined;

/** bidi-js is a CommonJS module whose export is its factory (loaded on the first complex line). */
function loadBidi(): Bidi {
  const factory = createRequire(import.meta.url)('bidi-js') as () => Bidi;
  return factory();
}

interface LevelPiece extends Piece {
  level: number;
}

/** Splits face pieces where the embedding level changes. */
function levelPieces(pieces: Piece[], levels: Uint8Array): LevelPiece[] {
  const out: LevelPiece[] = [];
  for (const p of pieces) {
    let start = p.start;
    for (let i = p.start + 1; i <= p.end; i++) {
      if (i === p.end || levels[i] !== levels[start]) {
        // A surrogate pair's halves share a level; never split between them.
        out.push({ face: p.face, start, end: i, level: levels[start] ?? 0 });
        start = i;
      }
    }
  }
  return out;
}

/** Rule L2: from the highest level down to the lowest odd one, reverse every sequence of
 *  pieces at that level or above. */
function reorder(pieces: LevelPiece[]): LevelPiece[] {
  let highest = 0;
  let lowestOdd = Number.POSITIVE_INFINITY;
  for (const p of pieces) {
    highest = Math.max(highest, p.level);
    if (p.level % 2 === 1) lowestOdd = Math.min(lowestOdd, p.level);
  }
  const out = pieces.slice();
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < out.length; ) {
      if ((out[i]?.level ?? 0) < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && (out[j]?.level ?? 0) >= level) j++;
      const reversed = out.slice(i, j).reverse();
      out.splice(i, j - i, ...reversed);
      i = j;
    }
  }
  return out;
}

/** The character a right-to-left run drew `cp` for: the mirror image of a mirrored character
 *  (mirroring swaps pairs: "(" for ")"), else `cp`. */
export function unmirror(cp: number): number {
  bidi ??= loadBidi();
  const m = bidi.getMirroredCharacter(String.fromCodePoint(cp));
  return m ? (m.codePointAt(0) ?? cp) : cp;
}

/**
 * One line laid out for drawing: its runs in visual order, left to right, each shaped in its own
 * direction. `rtl` is the line's base direction (the object's RightToLeft).
 */
export function layoutLine(text: string, primary: FontFace, fonts: FontService, rtl: boolean): ShapedRun[] {
  bidi ??= loadBidi();
  const embedding = bidi.getEmbeddingLevels(text, rtl ? 'rtl' : 'ltr');
  const mirrored = bidi.getMirroredCharactersMap(text, embedding.levels);
  let shapedText = text;
  if (mirrored.size > 0) {
    const chars = text.split('');
    for (const [i, c] of mirrored) chars[i] = c;
    shapedText = chars.join('');
  }
  const pieces = reorder(levelPieces(facePieces(text, primary, fonts), embedding.levels));
  return pieces.map((p) => {
    const runRtl = p.level % 2 === 1;
    return {
      face: p.face,
      rtl: runRtl,
      text: text.slice(p.start, p.end),
      glyphs: shapePiece(p.face, shapedText.slice(p.start, p.end), runRtl ? 'rtl' : 'ltr'),
    };
  });
}
