// The font service: which concrete font file draws a FastReport font, with what metrics.
//
// One service serves text measurement (measure.ts, html-tags.ts) and the exporters: the HTML
// exporter takes the CSS family stack and the face files for @font-face, the PDF exporter embeds
// the very same files through pdfkit (paths, buffers and the fontkit objects are exposed). Because
// every consumer reads the same files with the same rules, a line measured here has the same
// width in HTML and PDF.
//
// Faces come from npm packages (open fonts; see README.md in this folder for the choices and
// numbers): Arimo (metric-compatible with Arial), Tinos (Times New Roman), Cousine (Courier New)
// and DejaVu Sans (Verdana's widths). They are located with require.resolve from this module, so
// they are found wherever node_modules is, and are loaded lazily, once per process.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import type { ReportWarnings } from '../errors.js';
import { BoundedCache, CodePointNumbers } from '../bounded-cache.js';

/** Points → FastReport pixels (96 dpi). */
export const PX_PER_PT = 96 / 72;

/** A font as a FastReport object names it (`Font="Tahoma, 9pt, style=Bold"`). */
export interface FontSpec {
  family: string;
  sizePt: number;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strikeout: boolean;
}

/** TextObject's default font: Arial 10pt, regular. */
export const DEFAULT_FONT: Readonly<FontSpec> = Object.freeze({
  family: 'Arial',
  sizePt: 10,
  bold: false,
  italic: false,
  underline: false,
  strikeout: false,
});

/** Builds a FontSpec; styles default to false. */
export function fontSpec(
  family: string,
  sizePt: number,
  styles: Partial<Pick<FontSpec, 'bold' | 'italic' | 'underline' | 'strikeout'>> = {},
): FontSpec {
  return {
    family,
    sizePt,
    bold: styles.bold ?? false,
    italic: styles.italic ?? false,
    underline: styles.underline ?? false,
    strikeout: styles.strikeout ?? false,
  };
}

/** The families of the font files this service has. */
export type FaceFamily = 'Arimo' | 'Tinos' | 'Cousine' | 'DejaVu Sans';

export const FACE_FAMILIES: readonly FaceFamily[] = ['Arimo', 'Tinos', 'Cousine', 'DejaVu Sans'];

// Package paths of the 16 face files. Expo's packages have no "exports" map; fontsource's maps
// "./files/*" to the files.
const FACE_FILES: Record<FaceFamily, (bold: boolean, italic: boolean) => string> = {
  Arimo: (b, i) => expoFile('arimo', 'Arimo', b, i),
  Tinos: (b, i) => expoFile('tinos', 'Tinos', b, i),
  Cousine: (b, i) => expoFile('cousine', 'Cousine', b, i),
  'DejaVu Sans': (b, i) =>
    `@fontsource/dejavu-sans/files/dejavu-sans-latin-${b ? 700 : 400}-${i ? 'italic' : 'normal'}.woff`,
};

function expoFile(pkg: string, name: string, bold: boolean, italic: boolean): string {
  const style = `${bold ? '700Bold' : '400Regular'}${italic ? '_Italic' : ''}`;
  return `@expo-google-fonts/${pkg}/${style}/${name}_${style}.ttf`;
}

const requireFromHere = createRequire(import.meta.url);

/** C0/C1 control characters: drawn by no one, measured as zero width. */
export function isControl(cp: number): boolean {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

/**
 * Unicode default-ignorable code points that fontkit's layout (and so pdfkit) renders with zero
 * advance (the same list fontkit's LayoutEngine uses, after HarfBuzz).
 */
export function isDefaultIgnorable(cp: number): boolean {
  if (cp < 0x10000) {
    switch (cp >> 8) {
      case 0x00: return cp === 0x00ad;
      case 0x03: return cp === 0x034f;
      case 0x06: return cp === 0x061c;
      case 0x17: return cp >= 0x17b4 && cp <= 0x17b5;
      case 0x18: return cp >= 0x180b && cp <= 0x180e;
      case 0x20: return (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f);
      case 0xfe: return (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0xfeff;
      case 0xff: return cp >= 0xfff0 && cp <= 0xfff8;
      default: return false;
    }
  }
  return (cp >= 0x1bca0 && cp <= 0x1bca3) || (cp >= 0x1d173 && cp <= 0x1d17a) || (cp >= 0xe0000 && cp <= 0xe0fff);
}

/** Most code points a face (or a face's fallback choice) keeps cached: the caches grow by one
 *  entry per distinct character for the life of the process, and start over past this (a
 *  report uses a few hundred; a re-computed entry costs one fontkit lookup). */
export const MAX_CACHED_CODE_POINTS = 8192;

/** One font file (family + weight + style), loaded on first use and shared by the whole process. */
export class FontFace {
  /** e.g. "Arimo Bold Italic". */
  readonly name: string;
  /** The package path the file is resolved from. */
  readonly specifier: string;
  private resolvedPath: string | undefined;
  private bytes: Buffer | undefined;
  private loaded: fontkit.Font | undefined;
  // fontkit's unitsPerEm is a getter that reads the head table on every call; text measurement
  // asks for it per character.
  private upm = 0;
  private readonly glyphPresence = new BoundedCache<number, boolean>(MAX_CACHED_CODE_POINTS, (cp) => this.font.hasGlyphForCodePoint(cp));
  private readonly advances = new CodePointNumbers(MAX_CACHED_CODE_POINTS, (cp) => this.advanceOf(cp));

  constructor(
    readonly family: FaceFamily,
    readonly bold: boolean,
    readonly italic: boolean,
  ) {
    this.name = `${family}${bold ? ' Bold' : ''}${italic ? ' Italic' : ''}${bold || italic ? '' : ' Regular'}`;
    this.specifier = FACE_FILES[family](bold, italic);
  }

  /** "truetype" (.ttf) or "woff" — what a CSS `format()` and a file extension need. */
  get format(): 'truetype' | 'woff' {
    return this.specifier.endsWith('.woff') ? 'woff' : 'truetype';
  }

  /** Absolute path of the font file. */
  get path(): string {
    if (this.resolvedPath === undefined) {
      try {
        this.resolvedPath = requireFromHere.resolve(this.specifier);
      } catch (e) {
        throw new Error(`font file ${this.specifier} is not installed (${(e as Error).message})`);
      }
    }
    return this.resolvedPath;
  }

  /** The file's bytes (read once). pdfkit's registerFont/font accept this buffer directly. */
  buffer(): Buffer {
    this.bytes ??= readFileSync(this.path);
    return this.bytes;
  }

  /** The fontkit font object (created once from buffer()). */
  get font(): fontkit.Font {
    if (this.loaded === undefined) {
      const f = fontkit.create(this.buffer());
      if (!('glyphForCodePoint' in f)) throw new Error(`${this.path} is a font collection, not a font`);
      this.upm = f.unitsPerEm;
      this.loaded = f;
    }
    return this.loaded;
  }

  /** Whether the file has been read and parsed yet. */
  get isLoaded(): boolean {
    return this.loaded !== undefined;
  }

  get unitsPerEm(): number {
    if (this.upm === 0) this.upm = this.font.unitsPerEm;
    return this.upm;
  }

  /** Vertical metrics from the hhea table, in font units (descent positive). */
  get hhea(): { ascent: number; descent: number; lineGap: number } {
    const h = this.font.hhea;
    return { ascent: h.ascent, descent: Math.abs(h.descent), lineGap: h.lineGap };
  }

  /** Whether the font maps this code point to a real glyph. */
  hasGlyph(cp: number): boolean {
    return this.glyphPresence.get(cp);
  }

  /**
   * Advance width of one code point in font units, exactly as fontkit's layout with
   * layoutFeatures() gives it (no kerning, no ligatures): the cmap glyph's advance (.notdef's for
   * unmapped code points), zero for default-ignorable and control code points.
   */
  advance(cp: number): number {
    return this.advances.get(cp);
  }

  /** The advance as the font file gives it (uncached). */
  private advanceOf(cp: number): number {
    return isControl(cp) || isDefaultIgnorable(cp) ? 0 : this.font.glyphForCodePoint(cp).advanceWidth;
  }

  /** An @font-face rule for this file served at `url`, under the face's own family name. */
  cssFontFaceRule(url: string): string {
    return (
      `@font-face{font-family:"${this.family}";src:url("${url.replace(/["\\\n\r]/g, (c) => encodeURIComponent(c))}") format("${this.format}");` +
      `font-weight:${this.bold ? 700 : 400};font-style:${this.italic ? 'italic' : 'normal'}}`
    );
  }
}

const faceRegistry = new Map<string, FontFace>();

/** The shared face object of a family and style (not loaded until used). */
export function getFace(family: FaceFamily, bold: boolean, italic: boolean): FontFace {
  const key = `${family}|${bold ? 1 : 0}|${italic ? 1 : 0}`;
  let face = faceRegistry.get(key);
  if (!face) {
    face = new FontFace(family, bold, italic);
    faceRegistry.set(key, face);
  }
  return face;
}

/**
 * Vertical metrics per em. GDI+ (and so FastReport) spaces lines by the font family's line
 * spacing = hhea ascender + |descender| + lineGap, and puts the baseline `ascent` below a line's
 * top.
 */
export interface EmMetrics {
  ascent: number;
  descent: number;
  lineGap: number;
}

interface FamilyInfo {
  face: FaceFamily;
  /** CSS font-family list for the HTML exporter. */
  css: string;
  /** Whether the face has the same advance widths as the requested family. */
  metricCompatible: boolean;
  /**
   * The requested family's own vertical metrics, where the face differs from them: line heights
   * then follow the original font, as FastReport lays out with it.
   */
  metrics?: EmMetrics;
}

const SANS_METRIC = 'Arial, Arimo, "Liberation Sans", Helvetica, sans-serif';
const SANS_SUBST = 'Arimo, "Liberation Sans", Arial, sans-serif';
const SERIF_METRIC = '"Times New Roman", Tinos, "Liberation Serif", Times, serif';
const MONO_METRIC = '"Courier New", Cousine, "Liberation Mono", Courier, monospace';
const MONO_SUBST = 'Cousine, "Liberation Mono", "Courier New", monospace';
const DEJAVU = '"DejaVu Sans", Verdana, sans-serif';

const sans = (metricCompatible: boolean, css = metricCompatible ? SANS_METRIC : SANS_SUBST, metrics?: EmMetrics): FamilyInfo =>
  metrics ? { face: 'Arimo', css, metricCompatible, metrics } : { face: 'Arimo', css, metricCompatible };

// Keys are normalised family names (see normaliseFamily).
const FAMILIES = new Map<string, FamilyInfo>([
  ['arial', sans(true)],
  ['helvetica', sans(true, 'Helvetica, Arial, Arimo, "Liberation Sans", sans-serif')],
  ['arimo', sans(true)],
  ['liberation sans', sans(true)],
  ['microsoft sans serif', sans(false)],
  ['ms sans serif', sans(false)],
  ['segoe ui', sans(false)],
  ['calibri', sans(false)],
  ['sans-serif', sans(false)],
  // Tahoma's advance widths are within 0.5 % of Arial's (README.md); its line spacing is its own:
  // hhea 2049 + 423 (+0) of 2048 units/em.
  ['tahoma', sans(false, SANS_SUBST, { ascent: 2049 / 2048, descent: 423 / 2048, lineGap: 0 })],
  ['times new roman', { face: 'Tinos', css: SERIF_METRIC, metricCompatible: true }],
  ['times', { face: 'Tinos', css: SERIF_METRIC, metricCompatible: true }],
  ['tinos', { face: 'Tinos', css: SERIF_METRIC, metricCompatible: true }],
  ['liberation serif', { face: 'Tinos', css: SERIF_METRIC, metricCompatible: true }],
  ['serif', { face: 'Tinos', css: 'Tinos, "Liberation Serif", "Times New Roman", serif', metricCompatible: false }],
  ['courier new', { face: 'Cousine', css: MONO_METRIC, metricCompatible: true }],
  ['courier', { face: 'Cousine', css: MONO_METRIC, metricCompatible: true }],
  ['cousine', { face: 'Cousine', css: MONO_METRIC, metricCompatible: true }],
  ['liberation mono', { face: 'Cousine', css: MONO_METRIC, metricCompatible: true }],
  ['consolas', { face: 'Cousine', css: MONO_SUBST, metricCompatible: false }],
  ['monospace', { face: 'Cousine', css: MONO_SUBST, metricCompatible: false }],
  // Verdana's widths are DejaVu Sans's to 0.1 % (README.md); line spacing 1005 + 209 per 1000.
  ['verdana', { face: 'DejaVu Sans', css: DEJAVU, metricCompatible: false, metrics: { ascent: 1.005, descent: 0.209, lineGap: 0 } }],
  ['dejavu sans', { face: 'DejaVu Sans', css: DEJAVU, metricCompatible: true }],
]);

const UNKNOWN_FAMILY: FamilyInfo = sans(false);

/** "  'Times  New Roman' " → "times new roman". */
export function normaliseFamily(family: string): string {
  return family
    .trim()
    .replace(/^(["'])(.*)\1$/s, '$2')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** Where a requested family goes. */
export interface FamilyMapping {
  /** The face family that draws it. */
  face: FaceFamily;
  /** False when the family is unknown and Arimo stands in (a warning is due). */
  known: boolean;
  /** Whether the face has the requested family's advance widths. */
  metricCompatible: boolean;
  /** CSS font-family list for the HTML exporter. */
  css: string;
  /** Line spacing, ascent and descent per em used for this family. */
  metrics?: EmMetrics;
}

/** A FontSpec bound to its face, with its metrics in pixels. */
export interface ResolvedFont {
  spec: FontSpec;
  /** The face that draws every character it has (fallbacks: FontService.runs). */
  face: FontFace;
  mapping: FamilyMapping;
  /** Font size in pixels (pt × 96/72). */
  sizePx: number;
  /** GDI+ line spacing in pixels: FastReport's line height for this font. */
  lineHeightPx: number;
  /** Baseline distance below a line's top (GDI+ cell ascent). */
  ascentPx: number;
  /** Distance from the baseline to the bottom of the cell. */
  descentPx: number;
  /** Width of a space (what FastReport's space-width measurement gives). */
  spaceWidthPx: number;
  /** CSS font-family list for the HTML exporter. */
  cssFamily: string;
}

/** A piece of text drawn with one face. */
export interface FaceRun {
  face: FontFace;
  text: string;
}

/**
 * OpenType feature settings for fontkit's `layout` (and pdfkit's `features` text option) that
 * lay text out the way this module measures it: kerning and ligatures off. Returns a fresh object
 * each time because fontkit writes into the object it is given.
 *
 * Why off: FastReport measures and draws with GDI+, which applies neither; and pdfkit, left to
 * its defaults, would kern and ligate (fontkit's default shaping), so the PDF exporter must pass
 * these features explicitly — an empty array is not enough, fontkit only adds to its defaults.
 */
export function layoutFeatures(): Record<string, boolean> {
  return { kern: false, liga: false, clig: false, calt: false, dlig: false };
}

/** CSS declarations that make a browser draw text like layoutFeatures() (for the HTML exporter). */
export const CSS_TEXT_FEATURES =
  'font-kerning:none;font-variant-ligatures:none;font-feature-settings:"kern" 0,"liga" 0,"clig" 0,"calt" 0';

export interface FontServiceOptions {
  /** Called once per unknown family (per service) with a human-readable warning. */
  onWarning?: (message: string) => void;
}

/** Maps FastReport fonts to faces; caches resolutions. Faces themselves are process-wide. */
export class FontService {
  private readonly resolved = new Map<string, ResolvedFont>();
  private readonly warned = new Set<string>();
  private readonly warnedReports = new WeakMap<ReportWarnings, Set<string>>();
  private readonly faceForCp = new Map<FontFace, BoundedCache<number, FontFace>>();
  private readonly onWarning: ((message: string) => void) | undefined;

  constructor(options: FontServiceOptions = {}) {
    this.onWarning = options.onWarning;
  }

  /** Which face family draws a requested family, and with what CSS stack and metrics. */
  mapFamily(family: string): FamilyMapping {
    const info = FAMILIES.get(normaliseFamily(family));
    const i = info ?? UNKNOWN_FAMILY;
    const m: FamilyMapping = { face: i.face, known: info !== undefined, metricCompatible: i.metricCompatible, css: i.css };
    if (i.metrics) m.metrics = i.metrics;
    return m;
  }

  /** The CSS font-family list for a requested family. */
  cssFamily(family: string): string {
    return this.mapFamily(family).css;
  }

  /** The face a requested family and style are drawn with. */
  face(family: string, bold: boolean, italic: boolean): FontFace {
    return getFace(this.mapFamily(family).face, bold, italic);
  }

  /**
   * Binds a font to its face and computes its pixel metrics. An unknown family is drawn with
   * Arimo and reported once per family: to each `warnings` given, and to the service's onWarning.
   */
  resolve(spec: FontSpec, warnings?: ReportWarnings): ResolvedFont {
    const mapping = this.mapFamily(spec.family);
    if (!mapping.known) this.warnUnknown(spec.family, warnings);
    const sizePt = Number.isFinite(spec.sizePt) && spec.sizePt > 0 ? spec.sizePt : 0;
    const key = `${normaliseFamily(spec.family)}|${sizePt}|${spec.bold ? 1 : 0}${spec.italic ? 1 : 0}${spec.underline ? 1 : 0}${spec.strikeout ? 1 : 0}`;
    let r = this.resolved.get(key);
    if (r) return r;
    const face = getFace(mapping.face, spec.bold, spec.italic);
    const sizePx = sizePt * PX_PER_PT;
    let em = mapping.metrics;
    if (!em) {
      const h = face.hhea;
      const upm = face.unitsPerEm;
      em = { ascent: h.ascent / upm, descent: h.descent / upm, lineGap: h.lineGap / upm };
    }
    r = {
      spec: { ...spec, sizePt },
      face,
      mapping,
      sizePx,
      lineHeightPx: sizePx * (em.ascent + em.descent + em.lineGap),
      ascentPx: sizePx * em.ascent,
      descentPx: sizePx * em.descent,
      spaceWidthPx: (face.advance(0x20) * sizePx) / face.unitsPerEm,
      cssFamily: mapping.css,
    };
    if (this.resolved.size > 10_000) this.resolved.clear();
    this.resolved.set(key, r);
    return r;
  }

  private warnUnknown(family: string, warnings: ReportWarnings | undefined): void {
    const message = `font "${family.trim()}" is not available; Arimo (Arial's metrics) is used instead`;
    const key = normaliseFamily(family);
    if (warnings) {
      let told = this.warnedReports.get(warnings);
      if (!told) {
        told = new Set();
        this.warnedReports.set(warnings, told);
      }
      if (!told.has(key)) {
        told.add(key);
        warnings.add(message);
      }
    }
    if (this.onWarning && !this.warned.has(key)) {
      this.warned.add(key);
      this.onWarning(message);
    }
  }

  /**
   * The faces tried, in order, for characters the primary face lacks: Arimo, then DejaVu Sans
   * (both cover Latin, Latin Extended, Greek and Cyrillic; DejaVu Sans much more), same style.
   */
  fallbackFaces(primary: FontFace): FontFace[] {
    const out: FontFace[] = [];
    for (const fam of ['Arimo', 'DejaVu Sans'] as const) {
      if (fam !== primary.family) out.push(getFace(fam, primary.bold, primary.italic));
    }
    return out;
  }

  /**
   * The face that draws one code point for a primary face: the primary if it has the glyph,
   * else the first fallback that has it, else the primary (its .notdef).
   */
  faceFor(primary: FontFace, cp: number): FontFace {
    if (cp < 0x80 || primary.hasGlyph(cp)) return primary;
    let cache = this.faceForCp.get(primary);
    if (!cache) {
      cache = new BoundedCache(MAX_CACHED_CODE_POINTS, (c) => this.fallbackFaceFor(primary, c));
      this.faceForCp.set(primary, cache);
    }
    return cache.get(cp);
  }

  /** The first fallback face of `primary` with a glyph for `cp`, else the primary. */
  private fallbackFaceFor(primary: FontFace, cp: number): FontFace {
    if (isControl(cp) || isDefaultIgnorable(cp)) return primary;
    for (const fb of this.fallbackFaces(primary)) if (fb.hasGlyph(cp)) return fb;
    return primary;
  }

  /** Advance of one code point in pixels for a resolved font (fallback faces included). */
  advancePx(cp: number, font: ResolvedFont): number {
    const face = this.faceFor(font.face, cp);
    return (face.advance(cp) * font.sizePx) / face.unitsPerEm;
  }

  /**
   * Splits text into runs of one face each — what an exporter draws. Control characters
   * (including tabs and line breaks, which the line breaker turns into positions) are left out;
   * default-ignorable ones stay with the run they are in.
   */
  runs(text: string, font: FontSpec | ResolvedFont): FaceRun[] {
    const primary = 'face' in font ? font.face : this.resolve(font).face;
    const out: FaceRun[] = [];
    let cur: FaceRun | undefined;
    for (const ch of text) {
      const cp = ch.codePointAt(0) ?? 0;
      if (isControl(cp)) continue;
      const face = isDefaultIgnorable(cp) && cur ? cur.face : this.faceFor(primary, cp);
      if (cur && cur.face === face) cur.text += ch;
      else {
        cur = { face, text: ch };
        out.push(cur);
      }
    }
    return out;
  }

  /** Faces this process has loaded so far (for an exporter that embeds what was used). */
  loadedFaces(): FontFace[] {
    return [...faceRegistry.values()].filter((f) => f.isLoaded);
  }
}

let shared: FontService | undefined;

/** The process-wide service used when a caller passes none. */
export function defaultFontService(): FontService {
  shared ??= new FontService();
  return shared;
}
