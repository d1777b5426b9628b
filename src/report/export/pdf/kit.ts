// The one place that reaches into pdfkit beyond its typed API. pdfkit writes the PDF structure
// (objects, xref, compressed streams, font subsets, JPEG images, gradients, link annotations);
// a few things it cannot do the way this exporter needs are done here on its documented-in-code
// internals, each with the reason:
// - glyphs: pdfkit's text() lays text out again (fontkit shaping, its own word spacing that
//   collapses runs of spaces). The exporter instead draws the very glyphs the font service
//   measured (`glyphForCodePoint`, one glyph per code point), so it adds them to the font's
//   subset itself, exactly as pdfkit's EmbeddedFont.encode does;
// - fonts are handed to pdfkit as the font service's fontkit objects (pdfkit accepts a fontkit
//   font), so measurement and embedding share one parsed file;
// - image XObjects and extended graphics states the exporter builds itself (PNG decoded here,
//   blend modes) are registered in the current page's resources;
// - page content is collected and handed to pdfkit once per page (batchPageContent): pdfkit
//   turns every operator string into its own byte array, character by character.

import PDFDocument from 'pdfkit';
import type { Font as FontkitFont } from 'fontkit';

export type Doc = PDFKit.PDFDocument;
export type Ref = PDFKit.PDFKitReference;

/** The parts of pdfkit's EmbeddedFont the glyph writer uses. */
export interface EmbeddedFont {
  /** Resource name on the page, e.g. "F2". */
  id: string;
  font: FontkitFont;
  subset: { includeGlyph(glyphId: number): number };
  /** Advance per subset glyph id, in 1000ths of the em (the PDF /W array). */
  widths: (number | undefined)[];
  /** Code points per subset glyph id (the ToUnicode map). */
  unicode: (number[] | undefined)[];
  /** 1000 / unitsPerEm. */
  scale: number;
  ref(): Ref;
}

interface PageResources {
  fonts: Record<string, Ref>;
  xobjects: Record<string, Ref>;
  ext_gstates: Record<string, Ref>;
}

/** The parts of pdfkit's PDFPage the content batching wraps. */
interface PageInternals {
  write(chunk: string | Uint8Array): unknown;
  end(): unknown;
}

interface DocInternals {
  _font: EmbeddedFont | null;
  page: PageResources & PageInternals;
}

const internals = (doc: Doc): DocInternals => doc as unknown as DocInternals;

export interface NewDocumentOptions {
  info: PDFKit.DocumentInfo;
  lang?: string;
  compress: boolean;
}

/** A document with no page yet; pages come from addPage. No default font is loaded (an unused
 *  standard font would not be written, but loading its metrics costs time). */
export function newDocument(o: NewDocumentOptions): Doc {
  // `font: null` is pdfkit's way to start without a default font; its types only allow a name.
  const options: Record<string, unknown> = {
    autoFirstPage: false,
    bufferPages: false,
    compress: o.compress,
    pdfVersion: '1.4',
    info: o.info,
    displayTitle: o.info.Title !== undefined,
    font: null,
  };
  if (o.lang) options.lang = o.lang;
  return new PDFDocument(options as PDFKit.PDFDocumentOptions);
}

/** pdfkit's embedded font for a fontkit font, created on first use in this document. */
export function embedFont(doc: Doc, font: FontkitFont, key: string): EmbeddedFont {
  (doc.font as (src: unknown, family: string) => Doc)(font, key);
  const f = internals(doc)._font;
  if (!f || typeof f.subset?.includeGlyph !== 'function') throw new Error(`pdfkit did not embed font ${key}`);
  return f;
}

/** Makes the font a resource of the current page (before text that uses it). */
export function useFontOnPage(doc: Doc, f: EmbeddedFont): void {
  const fonts = internals(doc).page.fonts;
  if (fonts[f.id] === undefined) fonts[f.id] = f.ref();
}

/** Adds a glyph to the font's subset; returns its 4-hex-digit code in the content stream. */
export function glyphCode(
  f: EmbeddedFont,
  glyphId: number,
  advanceWidth: number,
  codePoints: number | readonly number[],
): string {
  const gid = f.subset.includeGlyph(glyphId);
  if (f.widths[gid] == null) f.widths[gid] = advanceWidth * f.scale;
  if (f.unicode[gid] == null) f.unicode[gid] = typeof codePoints === 'number' ? [codePoints] : [...codePoints];
  return gid.toString(16).padStart(4, '0');
}

/**
 * Makes the current page collect its content operators and hand them to pdfkit as one byte
 * array when the page ends (pdfkit ends a page when the next one is added or the document
 * ends). The bytes are the same: pdfkit writes each string chunk as its characters' low bytes
 * followed by a newline, which is what joining the chunks with newlines and encoding them as
 * latin1 gives; byte chunks keep their place.
 */
export function batchPageContent(doc: Doc): void {
  const page = internals(doc).page;
  const write = page.write.bind(page);
  const end = page.end.bind(page);
  const batch: ContentBatch = { lines: [] };
  let ended = false;
  const flush = (): void => {
    if (batch.lines.length === 0) return;
    const text = `${batch.lines.join('\n')}\n`;
    batch.lines = [];
    write(Buffer.from(text, 'latin1'));
  };
  page.write = (chunk: string | Uint8Array): unknown => {
    if (ended) return write(chunk);
    if (chunk instanceof Uint8Array) {
      flush();
      write(chunk);
    } else batch.lines.push(String(chunk));
    return undefined;
  };
  page.end = (): unknown => {
    flush();
    ended = true;
    batches.delete(page);
    return end();
  };
  batches.set(page, batch);
}

interface ContentBatch {
  lines: string[];
}

const batches = new WeakMap<object, ContentBatch>();

/** Adds content operators to the current page: the same bytes as addContent(lines.join('\n')),
 *  without joining them first when the page collects its content (batchPageContent). */
export function addContentLines(doc: Doc, lines: readonly string[]): void {
  if (lines.length === 0) return;
  const batch = batches.get(internals(doc).page);
  if (batch) for (const l of lines) batch.lines.push(l);
  else doc.addContent(lines.join('\n'));
}

export function addXObject(doc: Doc, name: string, ref: Ref): void {
  internals(doc).page.xobjects[name] = ref;
}

export function addExtGState(doc: Doc, name: string, ref: Ref): void {
  internals(doc).page.ext_gstates[name] = ref;
}

/** Everything the document has produced so far (pdfkit pushes synchronously into its readable
 *  side; reading drains it, so no more than one page is ever buffered here). */
export function takeOutput(doc: Doc): Buffer[] {
  const out: Buffer[] = [];
  for (let c = doc.read() as Buffer | null; c !== null; c = doc.read() as Buffer | null) out.push(c);
  return out;
}

interface AnnotationInternals {
  page: { annotations: Ref[] };
  _root: { data: Record<string, unknown> };
}

/** An empty signature field (a widget annotation of field type Sig) over the rectangle, in the
 *  current user space; returns its reference for the document's form. */
export function addSignatureField(doc: Doc, name: string, x: number, y: number, w: number, h: number): Ref {
  (doc as unknown as { annotate(...a: unknown[]): unknown }).annotate(x, y, w, h, {
    Subtype: 'Widget',
    FT: 'Sig',
    T: new String(name),
    F: 4,
  });
  const annotations = (doc as unknown as AnnotationInternals).page.annotations;
  return annotations[annotations.length - 1] as Ref;
}

/** The document's interactive form, holding the signature fields (SigFlags 1: the document has
 *  signature fields). Called once, before the document ends. */
export function addSignatureForm(doc: Doc, fields: Ref[]): void {
  if (fields.length === 0) return;
  // pdfkit ends the root's AcroForm itself (its endAcroForm), reading its own form state: that
  // state says the form needs no font (a signature field has no text), and DR is left empty.
  const form = doc.ref({ Fields: fields, SigFlags: 1, DR: { Font: {} } });
  const d = doc as unknown as AnnotationInternals & { _acroform?: unknown };
  d._root.data.AcroForm = form;
  d._acroform = { fonts: {}, defaultFont: true };
}
