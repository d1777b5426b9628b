// The font service: which concrete font file draws a FastReport font, with what metrics.
//
// One service serves text measurement (measure.ts, html-lines.ts) and the exporters: the HTML
// exporter takes the CSS family stack and the face files for @font-face, the PDF exporter embeds
// the very same files through pdfkit (paths, buffers and the fontkit objects are exposed). Because
// every consumer reads the same files with the same rules, a line measured here has the same
// width in HTML and PDF.
//
// The face files are in font-faces.ts, the family table in font-families.ts, FontSpec in
// font-spec.ts.

import type { ReportWarnings } from '../errors.js';
import { BoundedCache } from '../bounded-cache.js';
import {
  type FaceFamily,
  FontFace,
  isControl,
  isDefaultIgnorable,
  MAX_CACHED_CODE_POINTS,
  SCRIPT_FAMILIES,
} from './font-faces.js';
import { extraFaces, fontDirsGeneration } from './font-dirs.js';
import { type FamilyMapping, FAMILIES, normaliseFamily, UNKNOWN_FAMILY } from './font-families.js';
import { type FontSpec, PX_PER_PT } from './font-spec.js';

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
  // The font directories these choices were made with: new directories, new choices.
  private dirsGeneration = fontDirsGeneration();
  private readonly onWarning: ((message: string) => void) | undefined;

  constructor(options: FontServiceOptions = {}) {
    this.onWarning = options.onWarning;
  }

  /** Which face family draws a requested family, and with what CSS stack and metrics. */
  mapFamily(family: string): FamilyMapping {
    const info = FAMILIES.get(normaliseFamily(family));
    const i = info ?? UNKNOWN_FAMILY;
    const m: FamilyMapping = {
      face: i.face,
      known: info !== undefined,
      metricCompatible: i.metricCompatible,
      css: i.css,
    };
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
    this.checkFontDirs();
    const mapping = this.mapFamily(spec.family);
    if (!mapping.known) this.warnUnknown(spec.family, warnings);
    const sizePt = Number.isFinite(spec.sizePt) && spec.sizePt > 0 ? spec.sizePt : 0;
    const key =
      `${normaliseFamily(spec.family)}|${sizePt}` +
      `|${spec.bold ? 1 : 0}${spec.italic ? 1 : 0}${spec.underline ? 1 : 0}${spec.strikeout ? 1 : 0}`;
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
   * (both cover Latin, Latin Extended, Greek and Cyrillic; DejaVu Sans much more), same style;
   * then the Noto script fonts (Arabic, Hebrew, Thai, Devanagari, CJK), same weight; then the
   * faces of the font directories (font-dirs.ts: Settings:FontDirs, Debian's Noto packages).
   */
  fallbackFaces(primary: FontFace): FontFace[] {
    const out: FontFace[] = [];
    for (const fam of ['Arimo', 'DejaVu Sans'] as const) {
      if (fam !== primary.family) out.push(getFace(fam, primary.bold, primary.italic));
    }
    for (const fam of SCRIPT_FAMILIES) if (fam !== primary.family) out.push(getFace(fam, primary.bold, false));
    for (const face of extraFaces()) if (face !== primary) out.push(face);
    return out;
  }

  /**
   * The face that draws one code point for a primary face: the primary if it has the glyph,
   * else the first fallback that has it, else the primary (its .notdef).
   */
  faceFor(primary: FontFace, cp: number): FontFace {
    if (cp < 0x80 || primary.hasGlyph(cp)) return primary;
    this.checkFontDirs();
    let cache = this.faceForCp.get(primary);
    if (!cache) {
      cache = new BoundedCache(MAX_CACHED_CODE_POINTS, (c) => this.fallbackFaceFor(primary, c));
      this.faceForCp.set(primary, cache);
    }
    return cache.get(cp);
  }

  /** Forgets fallback choices and resolutions (and so the advances measured with them) made
   *  before the font directories changed. */
  private checkFontDirs(): void {
    if (this.dirsGeneration === fontDirsGeneration()) return;
    this.dirsGeneration = fontDirsGeneration();
    this.faceForCp.clear();
    this.resolved.clear();
  }

  /** The first fallback face of `primary` with a glyph for `cp`, else the primary. A letter of
   *  a script with its own Noto face (Arabic, Thai…) is drawn with that face before DejaVu
   *  Sans, whose coverage of those scripts is partial and of another design. */
  private fallbackFaceFor(primary: FontFace, cp: number): FontFace {
    if (isControl(cp) || isDefaultIgnorable(cp)) return primary;
    const faces = this.fallbackFaces(primary);
    if (isScriptLetter(cp)) for (const fb of faces) if (fb.family !== 'DejaVu Sans' && fb.hasGlyph(cp)) return fb;
    for (const fb of faces) if (fb.hasGlyph(cp)) return fb;
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

/** Code points of the scripts SCRIPT_FAMILIES cover beyond DejaVu Sans's Latin, Greek and
 *  Cyrillic: Hebrew to Thai, the Hebrew and Arabic presentation forms, CJK and Hangul. */
function isScriptLetter(cp: number): boolean {
  return (
    (cp >= 0x0590 && cp <= 0x0e7f) ||
    (cp >= 0xfb1d && cp <= 0xfdff) ||
    (cp >= 0xfe70 && cp <= 0xfeff) ||
    (cp >= 0x1100 && cp <= 0x11ff) ||
    (cp >= 0x2e80 && cp <= 0x9fff) ||
    (cp >= 0xac00 && cp <= 0xd7af)
  );
}

let shared: FontService | undefined;

/** The process-wide service used when a caller passes none. */
export function defaultFontService(): FontService {
  shared ??= new FontService();
  return shared;
}
