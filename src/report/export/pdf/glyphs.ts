// Text as PDF text operators, glyph for glyph what the font service measured: each code point is
// drawn with the face FontService.faceFor picks (the requested face, else Arimo, else DejaVu
// Sans), using the glyph `glyphForCodePoint` gives, whose advance is the one measurement summed.
// Control and default-ignorable characters measure zero and are not drawn. Each change of face
// starts a new positioned run, so a run's start is always the measured x.
//
// Fonts are embedded as subsets (pdfkit writes them when the document ends) from the font
// service's own fontkit objects: one parsed file serves measuring and embedding.

import type { FontSpec } from '../../text/index.js';
import {
  isControl,
  isDefaultIgnorable,
  type FontFace,
  type FontService,
  type ResolvedFont,
  type ShapedGlyph,
} from '../../text/index.js';
import { num } from './graphics.js';
import { embedFont, glyphCode, useFontOnPage, type Doc, type EmbeddedFont } from './kit.js';

interface FaceGlyphs {
  font: EmbeddedFont;
  /** The face's units per em (read once: fontkit's getter is not free). */
  unitsPerEm: number;
  /** Code point → the glyph's code in the content stream (4 hex digits); U+0000…U+00FF by
   *  index (most text: an array read is cheaper than a map lookup), others in the map. */
  latin: (string | undefined)[];
  codes: Map<number, string>;
  /** Glyph id → code, for shaped glyphs. */
  byGlyph: Map<number, string>;
}

/** The embedded fonts of one document. */
export class PdfGlyphs {
  private readonly faces = new Map<FontFace, FaceGlyphs>();
  // Prepared items share their font objects; resolving one is a normalising map lookup.
  private readonly resolved = new WeakMap<FontSpec, ResolvedFont>();

  // Characters no font has, reported once each (the first few).
  private readonly missing = new Set<number>();

  constructor(
    private readonly doc: Doc,
    private readonly fonts: FontService,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** Reports a character that prints as the empty box of .notdef: no font of the chain has it. */
  noGlyph(cp: number): void {
    if (this.missing.has(cp) || this.missing.size >= 20) return;
    this.missing.add(cp);
    const hex = cp.toString(16).toUpperCase().padStart(4, '0');
    this.warn(
      `character "${String.fromCodePoint(cp)}" (U+${hex}) is in none of the fonts available; it prints as ` +
        'an empty box',
    );
  }

  of(face: FontFace): FaceGlyphs {
    let g = this.faces.get(face);
    if (!g) {
      g = {
        font: embedFont(this.doc, face.font, face.name),
        unitsPerEm: face.unitsPerEm,
        latin: new Array<string | undefined>(256).fill(undefined),
        codes: new Map(),
        byGlyph: new Map(),
      };
      this.faces.set(face, g);
    }
    return g;
  }

  /** The content-stream code of a glyph the shaper chose (by glyph id; its ToUnicode entry is
   *  the characters of its first use, in visual order for a right-to-left run). */
  shapedCode(g: FaceGlyphs, glyph: ShapedGlyph, rtl: boolean): string {
    let c = g.byGlyph.get(glyph.id);
    if (c === undefined) {
      const cps = rtl && glyph.codePoints.length > 1 ? [...glyph.codePoints].reverse() : glyph.codePoints;
      c = glyphCode(g.font, glyph.id, glyph.advanceWidth, cps);
      g.byGlyph.set(glyph.id, c);
    }
    return c;
  }

  code(g: FaceGlyphs, face: FontFace, cp: number): string {
    const latin = cp < 256 && cp >= 0;
    let c = latin ? g.latin[cp] : g.codes.get(cp);
    if (c === undefined) {
      const glyph = face.font.glyphForCodePoint(cp);
      c = glyphCode(g.font, glyph.id, glyph.advanceWidth, cp);
      if (latin) g.latin[cp] = c;
      else g.codes.set(cp, c);
    }
    return c;
  }

  /** The font service's resolution of a prepared item's font. */
  resolve(font: FontSpec): ResolvedFont {
    let r = this.resolved.get(font);
    if (!r) {
      r = this.fonts.resolve(font);
      this.resolved.set(font, r);
    }
    return r;
  }
}

/** Characters that take no room and draw nothing. */
const isInvisible = (cp: number): boolean => isControl(cp) || isDefaultIgnorable(cp);

// Scratch for textOperators (which never runs inside itself): the glyph codes of the run being
// drawn and the pieces of its TJ array. Joining them once allocates one string per run instead
// of one per character.
const runCodes: string[] = [];
const runParts: string[] = [];

/** Ends the run being collected: its TJ operator (`[<codes>] TJ`, or with the word-spacing
 *  adjustments between the pieces). */
function endRun(ops: string[]): void {
  if (runParts.length === 0) {
    if (runCodes.length > 0) ops.push(`[<${runCodes.join('')}>] TJ`);
  } else {
    if (runCodes.length > 0) runParts.push(`<${runCodes.join('')}>`);
    ops.push(`[${runParts.join(' ')}] TJ`);
  }
  runCodes.length = 0;
  runParts.length = 0;
}

/** What text operators are written with (a PdfContext). */
export interface GlyphWriter {
  readonly doc: Doc;
  readonly fonts: FontService;
  readonly glyphs: PdfGlyphs;
}

/**
 * Appends to `ops` the text operators that draw one line of text with its baseline at (x, y)
 * (px, in the current user space), adding `wordSpacing` px after every space (justification).
 * The current fill colour is used. Returns the advance drawn, word spacing included. (Text that
 * needs shaping goes to shaped-text.ts instead: lineOperators chooses.)
 */
export function textOperators(
  ctx: GlyphWriter,
  ops: string[],
  font: ResolvedFont,
  x: number,
  y: number,
  text: string,
  wordSpacing = 0,
): number {
  const size = font.sizePx;
  if (!(size > 0) || text === '') return 0;
  const start = ops.length;
  let face: FontFace | undefined;
  let glyphs: FaceGlyphs | undefined;
  runCodes.length = 0;
  runParts.length = 0;
  let cx = x;
  const spaceAdjust = wordSpacing !== 0 ? num((-wordSpacing * 1000) / size) : '';
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    // A surrogate pair is one code point (as the string iterator gives them).
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (isInvisible(cp)) continue;
    const f = ctx.fonts.faceFor(font.face, cp);
    // Every face has ASCII; past it, a face the chain settled on may still lack the character.
    if (cp >= 0x80 && !f.hasGlyph(cp)) ctx.glyphs.noGlyph(cp);
    if (f !== face) {
      if (face === undefined) ops.push('BT');
      endRun(ops);
      face = f;
      glyphs = ctx.glyphs.of(f);
      useFontOnPage(ctx.doc, glyphs.font);
      ops.push(`/${glyphs.font.id} ${num(size)} Tf`, `1 0 0 -1 ${num(cx)} ${num(y)} Tm`);
    }
    const g = glyphs as FaceGlyphs;
    runCodes.push(ctx.glyphs.code(g, f, cp));
    cx += (f.advance(cp) * size) / g.unitsPerEm;
    if (cp === 0x20 && spaceAdjust !== '') {
      runParts.push(`<${runCodes.join('')}>`, spaceAdjust);
      runCodes.length = 0;
      cx += wordSpacing;
    }
  }
  endRun(ops);
  if (ops.length > start) ops.push('ET');
  return cx - x;
}
