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
import { num, round3 } from './graphics.js';
import { embedFont, glyphCode, useFontOnPage, type Doc, type EmbeddedFont, type TextState } from './kit.js';

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
  /** The last font operator made for the face, and its size (most text is one size). */
  tf: string;
  tfSize: number;
}

/** Sets the text object's font (beginning the text object if none is open), unless it is the
 *  one in effect: the font is graphics state and outlives ET, so one Tf serves every text
 *  object of the page drawn in it until a Q restores an earlier one. */
export function useFont(ctx: GlyphWriter, ops: string[], state: TextState, g: FaceGlyphs, size: number): void {
  if (!state.open) {
    ops.push('BT');
    state.open = true;
    state.x = Number.NaN;
  }
  if (g.tfSize !== size) {
    g.tf = `/${g.font.id} ${num(size)} Tf`;
    g.tfSize = size;
  }
  if (state.font !== g.tf) {
    useFontOnPage(ctx.doc, g.font);
    ops.push(g.tf);
    state.font = g.tf;
  }
}

/** How one Latin-1 character of a requested face is drawn: the face that has it (FontService
 *  faceFor), its code in that face's subset and its advance in that face's units. */
interface LatinGlyph {
  face: FontFace;
  glyphs: FaceGlyphs;
  code: string;
  advance: number;
}

/** The embedded fonts of one document. */
export class PdfGlyphs {
  private readonly faces = new Map<FontFace, FaceGlyphs>();
  // Per requested face, U+0000…U+00FF as drawn (filled on first use; null: draws nothing): most
  // text is Latin-1, and one array read then replaces the face choice, subset code and advance
  // lookups per character.
  private readonly latinTables = new Map<FontFace, (LatinGlyph | null | undefined)[]>();
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
        tf: '',
        tfSize: Number.NaN,
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

  /** The Latin-1 table of a requested face (see latinTables). */
  latinTable(face: FontFace): (LatinGlyph | null | undefined)[] {
    let t = this.latinTables.get(face);
    if (!t) {
      t = new Array<LatinGlyph | null | undefined>(256).fill(undefined);
      this.latinTables.set(face, t);
    }
    return t;
  }

  /** How `cp` (below 256) of the requested face is drawn; null for a character that draws
   *  nothing. Used through latinTable, which keeps the answer. */
  latinGlyph(requested: FontFace, cp: number): LatinGlyph | null {
    if (isInvisible(cp)) return null;
    const face = this.fonts.faceFor(requested, cp);
    if (cp >= 0x80 && !face.hasGlyph(cp)) this.noGlyph(cp);
    const glyphs = this.of(face);
    return { face, glyphs, code: this.code(glyphs, face, cp), advance: face.advance(cp) };
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

// Scratch for textOperators (which never runs inside itself): the pieces of a TJ array with
// word-spacing adjustments between them.
const runParts: string[] = [];

/** The TJ operator of a run: `[<codes>] TJ`, or with the word-spacing adjustments between the
 *  pieces (runParts). */
function runOperator(codes: string): string {
  if (runParts.length === 0) return `[<${codes}>] TJ`;
  if (codes !== '') runParts.push(`<${codes}>`);
  const op = `[${runParts.join(' ')}] TJ`;
  runParts.length = 0;
  return op;
}

/**
 * Starts a line of text at (x, y): a whole text matrix (Tm, flipping y back up) for the first
 * line of a text object, then moves from the last line's start (Td: a few bytes instead of
 * ~25, and a smaller deflated stream). The offsets are differences of the 3-decimal positions
 * a Tm would have written, so the line starts where that Tm would put it.
 */
export function startLine(ops: string[], state: TextState, x: number, y: number): void {
  const vx = round3(x);
  const vy = round3(y);
  if (Number.isNaN(state.x)) ops.push(`1 0 0 -1 ${num(vx)} ${num(vy)} Tm`);
  else ops.push(`${num(vx - state.x)} ${num(state.y - vy)} Td`);
  state.x = vx;
  state.y = vy;
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
 * The current fill colour is used. `state` is the text state `ops` leaves: a text object is
 * begun when none is open and left open (the caller ends it), the font set when it changes.
 * Returns the advance drawn, word spacing included. (Text that needs shaping goes to
 * shaped-text.ts instead: lineOperators chooses.)
 */
export function textOperators(
  ctx: GlyphWriter,
  ops: string[],
  font: ResolvedFont,
  x: number,
  y: number,
  text: string,
  wordSpacing: number,
  state: TextState,
): number {
  const size = font.sizePx;
  if (!(size > 0) || text === '') return 0;
  const latin = ctx.glyphs.latinTable(font.face);
  let face: FontFace | undefined;
  // The glyph codes of the run being drawn (appended to, not joined: fewer allocations).
  let codes = '';
  if (runParts.length > 0) runParts.length = 0;
  let cx = x;
  const spaceAdjust = wordSpacing !== 0 ? num((-wordSpacing * 1000) / size) : '';
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    let f: FontFace;
    let g: FaceGlyphs;
    let code: string;
    let advance: number;
    if (cp < 256) {
      let e = latin[cp];
      if (e === undefined) {
        e = ctx.glyphs.latinGlyph(font.face, cp);
        latin[cp] = e;
      }
      if (e === null) continue;
      f = e.face;
      g = e.glyphs;
      code = e.code;
      advance = e.advance;
    } else {
      // A surrogate pair is one code point (as the string iterator gives them).
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
        const lo = text.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
          i++;
        }
      }
      if (isInvisible(cp)) continue;
      f = ctx.fonts.faceFor(font.face, cp);
      // Past ASCII, a face the chain settled on may still lack the character.
      if (!f.hasGlyph(cp)) ctx.glyphs.noGlyph(cp);
      g = ctx.glyphs.of(f);
      code = ctx.glyphs.code(g, f, cp);
      advance = f.advance(cp);
    }
    if (f !== face) {
      if (codes !== '' || runParts.length > 0) ops.push(runOperator(codes));
      codes = '';
      face = f;
      useFont(ctx, ops, state, g, size);
      startLine(ops, state, cx, y);
    }
    codes += code;
    cx += (advance * size) / g.unitsPerEm;
    if (cp === 0x20 && spaceAdjust !== '') {
      runParts.push(`<${codes}>`, spaceAdjust);
      codes = '';
      cx += wordSpacing;
    }
  }
  if (codes !== '' || runParts.length > 0) ops.push(runOperator(codes));
  return cx - x;
}
