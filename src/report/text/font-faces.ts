// The face files: one FontFace per font file (family + weight + style), loaded on first use.
//
// Faces come from npm packages (open fonts; see README.md in this folder for the choices and
// numbers): Arimo (metric-compatible with Arial), Tinos (Times New Roman), Cousine (Courier New)
// and DejaVu Sans (Verdana's widths). They are located with require.resolve from this module, so
// they are found wherever node_modules is, and are loaded lazily, once per process.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import { BoundedCache, CodePointNumbers } from '../bounded-cache.js';

/** The script fonts text falls back to for what the metric-compatible faces lack (Noto, from
 *  npm; regular and bold, no italic). Noto Sans SC carries Han and kana, KR Hangul. */
export const SCRIPT_FAMILIES = [
  'Noto Sans Arabic',
  'Noto Sans Hebrew',
  'Noto Sans Thai',
  'Noto Sans Devanagari',
  'Noto Sans SC',
  'Noto Sans KR',
] as const;

/** The families of the font files this service has. */
export type FaceFamily = 'Arimo' | 'Tinos' | 'Cousine' | 'DejaVu Sans' | (typeof SCRIPT_FAMILIES)[number];

export const FACE_FAMILIES: readonly FaceFamily[] = ['Arimo', 'Tinos', 'Cousine', 'DejaVu Sans', ...SCRIPT_FAMILIES];

// Package paths of the 16 face files. Expo's packages have no "exports" map; fontsource's maps
// "./files/*" to the files.
const FACE_FILES: Record<FaceFamily, (bold: boolean, italic: boolean) => string> = {
  Arimo: (b, i) => expoFile('arimo', 'Arimo', b, i),
  Tinos: (b, i) => expoFile('tinos', 'Tinos', b, i),
  Cousine: (b, i) => expoFile('cousine', 'Cousine', b, i),
  'DejaVu Sans': (b, i) =>
    `@fontsource/dejavu-sans/files/dejavu-sans-latin-${b ? 700 : 400}-${i ? 'italic' : 'normal'}.woff`,
  'Noto Sans Arabic': (b) => expoFile('noto-sans-arabic', 'NotoSansArabic', b, false),
  'Noto Sans Hebrew': (b) => expoFile('noto-sans-hebrew', 'NotoSansHebrew', b, false),
  'Noto Sans Thai': (b) => expoFile('noto-sans-thai', 'NotoSansThai', b, false),
  'Noto Sans Devanagari': (b) => expoFile('noto-sans-devanagari', 'NotoSansDevanagari', b, false),
  'Noto Sans SC': (b) => expoFile('noto-sans-sc', 'NotoSansSC', b, false),
  'Noto Sans KR': (b) => expoFile('noto-sans-kr', 'NotoSansKR', b, false),
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
      case 0x00:
        return cp === 0x00ad;
      case 0x03:
        return cp === 0x034f;
      case 0x06:
        return cp === 0x061c;
      case 0x17:
        return cp >= 0x17b4 && cp <= 0x17b5;
      case 0x18:
        return cp >= 0x180b && cp <= 0x180e;
      case 0x20:
        return (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f);
      case 0xfe:
        return (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0xfeff;
      case 0xff:
        return cp >= 0xfff0 && cp <= 0xfff8;
      default:
        return false;
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
  /** The package path the file is resolved from (an absolute path for a directory's face). */
  readonly specifier: string;
  private resolvedPath: string | undefined;
  private bytes: Buffer | undefined;
  private loaded: fontkit.Font | undefined;
  // fontkit's unitsPerEm is a getter that reads the head table on every call; text measurement
  // asks for it per character.
  private upm = 0;
  private readonly glyphPresence = new BoundedCache<number, boolean>(MAX_CACHED_CODE_POINTS, (cp) =>
    this.font.hasGlyphForCodePoint(cp),
  );
  private readonly advances = new CodePointNumbers(MAX_CACHED_CODE_POINTS, (cp) => this.advanceOf(cp));

  /** Whether the face is a file from a font directory (font-dirs.ts), not one of the npm faces. */
  readonly fromDirectory: boolean;

  /** An npm face of `family`, or with `file` (an absolute path) a face from a font directory. */
  constructor(
    readonly family: string,
    readonly bold: boolean,
    readonly italic: boolean,
    file?: string,
  ) {
    this.name = `${family}${bold ? ' Bold' : ''}${italic ? ' Italic' : ''}${bold || italic ? '' : ' Regular'}`;
    this.fromDirectory = file !== undefined;
    this.specifier = file ?? FACE_FILES[family as FaceFamily](bold, italic);
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

  /** An @font-face rule for this file served at `url`, under the face's own family name: in the
   *  file's own format unless the URL serves another (a WOFF2 version, a TrueType subset), and
   *  limited to `unicodeRange` when given; `font-display: swap`. */
  cssFontFaceRule(
    url: string,
    opts: { format?: 'truetype' | 'woff' | 'woff2'; unicodeRange?: string | undefined } = {},
  ): string {
    const range = opts.unicodeRange ? `;unicode-range:${opts.unicodeRange}` : '';
    return (
      `@font-face{font-family:"${this.family}";src:url(` +
      `"${url.replace(/["\\\n\r]/g, (c) => encodeURIComponent(c))}") format("${opts.format ?? this.format}");` +
      `font-weight:${this.bold ? 700 : 400};font-style:${this.italic ? 'italic' : 'normal'};` +
      // The text shows at once in a local fallback and is redrawn when the face arrives, rather
      // than staying invisible while a slow font request runs.
      `font-display:swap${range}}`
    );
  }
}
