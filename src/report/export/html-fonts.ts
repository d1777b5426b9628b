// The fonts of an HTML document that brings its own: which face draws which characters (the
// engine's choice, fallbacks per character included), the @font-face rules of the head, and the
// font-family lists that make a browser pick the same face for each character.
//
// A browser walks a font-family list per character and takes the first family that has the
// glyph, which is what FontService.faceFor does over its fallback order; with the same files in
// the same order both pick the same face. Each list therefore starts with the face's own family,
// followed by the fallback families the document uses, in the engine's order.

import type { PreparedPage } from '../engine/prepared.js';
import { type FontFace, type FontService, type FontSpec, isControl, subsetFace } from '../text/index.js';

/** The faces a document draws with and the characters each draws. */
export class DocumentFaces {
  /** Code points per face, in the order faces were first met. */
  readonly chars = new Map<FontFace, Set<number>>();
  /** Faces some text is set in (not only a fallback for some characters). */
  readonly primaries = new Set<FontFace>();

  /** How many families the document used when the first font-family list was made: a document
   *  written page by page (html-stream.ts) whose later pages add a family wrote lists that a
   *  document written at once would not have (see familyList). */
  familiesAtFirstList: number | undefined;

  constructor(private readonly fonts: FontService) {}

  /** The families of the faces met so far. */
  families(): Set<string> {
    return new Set([...this.chars.keys()].map((f) => f.family));
  }

  private charsOf(face: FontFace): Set<number> {
    let set = this.chars.get(face);
    if (!set) this.chars.set(face, (set = new Set()));
    return set;
  }

  /** Records a text drawn in `font`. */
  add(text: string, font: FontSpec): void {
    const primary = this.fonts.resolve(font).face;
    this.primaries.add(primary);
    const own = this.charsOf(primary);
    for (const ch of text) {
      const cp = ch.codePointAt(0) as number;
      if (isControl(cp)) continue;
      const face = this.fonts.faceFor(primary, cp);
      (face === primary ? own : this.charsOf(face)).add(cp);
    }
  }

  /** Records every text of a page. */
  addPage(page: PreparedPage): void {
    for (const it of page.items) {
      if (it.kind !== 'text') continue;
      for (const l of it.lines) this.add(l.text, it.font);
      for (const l of it.html ?? []) for (const r of l.runs) this.add(r.text, r.font);
    }
  }

  /** The CSS font-family list for a face: the face, the fallback families this document uses
   *  (the engine's order), then `rest` (the stack for a browser without the files). */
  familyList(face: FontFace, rest: string): string {
    const used = this.families();
    this.familiesAtFirstList ??= used.size;
    const fallbacks = this.fonts
      .fallbackFaces(face)
      .map((f) => f.family)
      .filter((family, i, all) => used.has(family) && all.indexOf(family) === i);
    // Unquoted: the faces' names are plain words (valid CSS identifiers), and quotes in a style
    // attribute would be written as &quot; on every text element.
    return [face.family, ...fallbacks].join(',') + `,${rest}`;
  }
}

/** "U+41-43,U+2713": the code points as CSS unicode-range ranges. */
export function unicodeRange(codePoints: Iterable<number>): string {
  const sorted = [...codePoints].sort((a, b) => a - b);
  const out: string[] = [];
  const hex = (n: number) => n.toString(16).toUpperCase();
  for (let i = 0; i < sorted.length; ) {
    const start = sorted[i] as number;
    let end = start;
    while (i + 1 < sorted.length && (sorted[i + 1] as number) === end + 1) end = sorted[++i] as number;
    i++;
    out.push(start === end ? `U+${hex(start)}` : `U+${hex(start)}-${hex(end)}`);
  }
  return out.join(',');
}

export interface FaceSources {
  /** Where a face's WOFF2 file is served (the API's font route). */
  fontUrl?: ((face: FontFace) => string) | undefined;
  /** Embed subsets of the faces as data: URIs instead. */
  embed?: boolean | undefined;
}

/**
 * One @font-face rule per face the document uses. Served files are whole fonts shared by every
 * report (cached by the browser), so a face that is only a fallback gets a `unicode-range` of
 * the characters it draws here: a browser fetches the big script fonts only for such text.
 * Embedded faces are subsets of exactly those characters (the whole file if HarfBuzz fails).
 */
export function fontFaceRules(faces: DocumentFaces, sources: FaceSources): string {
  const rules: string[] = [];
  for (const [face, chars] of faces.chars) {
    if (chars.size === 0 && !faces.primaries.has(face)) continue;
    if (sources.embed) rules.push(face.cssFontFaceRule(embeddedUrl(face, chars), { format: 'truetype' }));
    else if (sources.fontUrl) {
      const range = faces.primaries.has(face) ? undefined : unicodeRange(chars);
      rules.push(face.cssFontFaceRule(sources.fontUrl(face), { format: 'woff2', unicodeRange: range }));
    }
  }
  return rules.join('\n');
}

function embeddedUrl(face: FontFace, chars: Set<number>): string {
  let bytes: Buffer;
  try {
    // The space too: an empty text of a face still measures its spaces.
    bytes = subsetFace(face, [0x20, ...chars]);
  } catch {
    return `data:font/${face.format === 'woff' ? 'woff' : 'ttf'};base64,${face.buffer().toString('base64')}`;
  }
  return `data:font/ttf;base64,${bytes.toString('base64')}`;
}
