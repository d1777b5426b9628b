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
//   turns every operator string into its own byte array, character by character, and deflates
//   at a level that costs more time than it saves bytes here (CONTENT_DEFLATE_LEVEL).

import { deflateSync } from 'node:zlib';
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
  /** The content stream (a PDFReference): deflated by pdfkit at its end when `compress`. */
  content: { compress: boolean; data: Record<string, unknown>; buffer: Uint8Array[] };
}

interface DocInternals {
  _font: EmbeddedFont | null;
  page: PageResources & PageInternals;
}

const internals = (doc: Doc): DocInternals => doc as unknown as DocInternals;

/**
 * zlib level of page content streams (the default of PdfExportOptions.contentDeflateLevel).
 * pdfkit deflates every stream at zlib's default (6) and cannot be told otherwise, so page
 * content is deflated here (fonts, images and the rest stay with pdfkit). The 10,000-row list
 * (189 pages, 3.2 MB of operators) deflates to 433 KB at level 1, 405 KB at 3, 335 KB at 6 and
 * 326 KB at 9 (whole file 508 / 481 / 410 / 402 KB); level 6 takes ~2.4 times as long as 3
 * (36 against 15 ms on a quiet core for the 3.9 MB the list had before Td moves), level 1
 * hardly less than 3. So 3: the file is still smaller than pdfkit's level 6 made it before
 * text objects were shared (586 KB).
 */
export const CONTENT_DEFLATE_LEVEL = 3;

export interface NewDocumentOptions {
  info: PDFKit.DocumentInfo;
  lang?: string;
  compress: boolean;
  /** zlib level (0–9) of page content; default CONTENT_DEFLATE_LEVEL. */
  contentDeflateLevel?: number;
}

// Each document's page content level (newDocument).
const contentLevels = new WeakMap<object, number>();

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
  const level = o.contentDeflateLevel ?? CONTENT_DEFLATE_LEVEL;
  if (!(Number.isInteger(level) && level >= 0 && level <= 9))
    throw new RangeError(`contentDeflateLevel must be an integer from 0 to 9, not ${level}`);
  const doc = new PDFDocument(options as PDFKit.PDFDocumentOptions);
  contentLevels.set(doc, level);
  return doc;
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

/** What the content batching knows of the text state of the page (see PageContent). */
export interface TextState {
  /** A text object (BT) is open: more text may follow without a new BT, anything else must
   *  close it first (ET). */
  open: boolean;
  /** The fill colour operator (`r g b rg`) in effect, when the text writer set it. */
  fill: string | undefined;
  /** The font operator (`/F1 12 Tf`) in effect, when the text writer set it. */
  font: string | undefined;
  /** Where the open text object's last line started (px, as written; NaN: none yet), so the
   *  next one can be a relative move (Td) instead of a whole matrix (Tm). */
  x: number;
  y: number;
}

/** The current page's content as it is collected: operators one string each, and the text
 *  state they leave. The text writer appends to `lines` itself (text.ts, glyphs.ts). */
export interface PageContent {
  readonly lines: string[];
  readonly text: TextState;
}

interface ContentBatch extends PageContent {
  lines: string[];
  /** The page's content so far as bytes (operators are turned into bytes in one piece). */
  parts: Buffer[];
  /** Fill colour and font at each open `q`, restored by its `Q` (both are graphics state). */
  saved: { fill: string | undefined; font: string | undefined }[];
}

const batches = new WeakMap<object, ContentBatch>();

/** Ends the open text object, if any, before an operator that may not stand inside one. */
export function closeText(c: PageContent): void {
  if (c.text.open) {
    c.lines.push('ET');
    c.text.open = false;
  }
}

/** Operators written by anything other than the text writer (pdfkit's drawing, paths, images):
 *  they close the text object; `q`/`Q` save and restore the known colour and font, anything
 *  else may have changed the colour (and a `Tf` the font). */
function foreignOperator(b: ContentBatch, op: string): void {
  const t = b.text;
  if (op === 'q') b.saved.push({ fill: t.fill, font: t.font });
  else if (op === 'Q') {
    const s = b.saved.pop();
    t.fill = s?.fill;
    t.font = s?.font;
  } else {
    t.fill = undefined;
    if (op.includes('Tf')) t.font = undefined;
  }
}

/**
 * Makes the current page collect its content operators and hand them to pdfkit as one deflated
 * byte array when the page ends (pdfkit ends a page when the next one is added or the document
 * ends). The operators are the same text pdfkit would write: each string chunk as its
 * characters' low bytes followed by a newline, byte chunks in their place. Text between other
 * drawing is kept in as few text objects as possible (PageContent, TextState).
 */
export function batchPageContent(doc: Doc): PageContent {
  const page = internals(doc).page;
  const write = page.write.bind(page);
  const end = page.end.bind(page);
  const batch: ContentBatch = {
    lines: [],
    parts: [],
    text: { open: false, fill: undefined, font: undefined, x: Number.NaN, y: Number.NaN },
    saved: [],
  };
  let ended = false;
  const flush = (): void => {
    if (batch.lines.length === 0) return;
    batch.parts.push(Buffer.from(`${batch.lines.join('\n')}\n`, 'latin1'));
    batch.lines.length = 0;
  };
  page.write = (chunk: string | Uint8Array): unknown => {
    if (ended) return write(chunk);
    closeText(batch);
    if (chunk instanceof Uint8Array) {
      flush();
      batch.parts.push(Buffer.from(chunk));
      batch.text.fill = undefined;
      batch.text.font = undefined;
      return undefined;
    }
    const op = String(chunk);
    batch.lines.push(op);
    if (!op.includes('\n')) foreignOperator(batch, op);
    else for (const o of op.split('\n')) foreignOperator(batch, o);
    return undefined;
  };
  page.end = (): unknown => {
    closeText(batch);
    flush();
    ended = true;
    batches.delete(page);
    if (batch.parts.length > 0) {
      const bytes = batch.parts.length === 1 ? (batch.parts[0] as Buffer) : Buffer.concat(batch.parts);
      const content = page.content;
      if (content.compress) {
        // The stream's start (pdfkit's flip to a top-left origin, written by addPage before
        // the batching began) is deflated with the rest; pdfkit's own deflate is then skipped
        // (it checks `compress`).
        const head = content.buffer;
        content.buffer = [];
        content.compress = false;
        content.data.Filter = 'FlateDecode';
        const all = head.length > 0 ? Buffer.concat([...head, bytes]) : bytes;
        write(deflateSync(all, { level: contentLevels.get(doc) ?? CONTENT_DEFLATE_LEVEL }));
      } else write(bytes);
      batch.parts.length = 0;
    }
    return end();
  };
  batches.set(page, batch);
  return batch;
}

/** The content of the current page (batched from its start by the writer). */
export function pageContent(doc: Doc): PageContent {
  const page = internals(doc).page;
  return batches.get(page) ?? batchPageContent(doc);
}

/** Adds operators that are not plain text (a text object of its own, like a text clip) to the
 *  current page: as if written one by one by pdfkit. */
export function addContentLines(doc: Doc, lines: readonly string[]): void {
  if (lines.length === 0) return;
  const b = batches.get(internals(doc).page);
  if (!b) {
    doc.addContent(lines.join('\n'));
    return;
  }
  closeText(b);
  for (const l of lines) {
    b.lines.push(l);
    foreignOperator(b, l);
  }
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
