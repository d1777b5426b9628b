// The PDF document: pages one at a time, each written out as soon as the next one starts (pdfkit
// without bufferPages), so the exporter holds one page's content at a time; fonts are subset and
// written at the end. Everything pdfkit does here is synchronous: the caller decides whether the
// output goes to one Buffer or to a stream between pages.

import type { PreparedOutlineEntry, PreparedPage, PreparedReport } from '../../engine/prepared.js';
import { defaultFontService, type FontService } from '../../text/index.js';
import { PdfContext, PT_PER_PX } from './context.js';
import { PdfGlyphs } from './glyphs.js';
import { drawItem, drawPageBackground } from './items.js';
import { addSignatureForm, batchPageContent, newDocument, takeOutput, type Doc } from './kit.js';
import { PdfImages } from './pictures.js';
import { DocumentLinks } from '../links.js';

export interface PdfExportOptions {
  /** Document title (ReportInfo.Name); shown by viewers instead of the file name. */
  title?: string;
  /** Document author (ReportInfo.Author). */
  author?: string;
  /** Document subject (ReportInfo.Description). */
  subject?: string;
  /** Natural language of the text, e.g. "en-US". */
  lang?: string;
  /** CreationDate in the document info (default now). */
  creationDate?: Date;
  /** Font service (default the process-wide one): the one the report was measured with. */
  fonts?: FontService;
  /** Told about pictures left out and pages resized. */
  onWarning?: (message: string) => void;
  /** Compress content streams (default true). */
  compress?: boolean;
  /** zlib level (0–9) of the pages' content when compressed; default 3 (kit.ts
   *  CONTENT_DEFLATE_LEVEL: 6, pdfkit's level, is ~12 % smaller and takes over twice the time). */
  contentDeflateLevel?: number;
}

/** PDF viewers' page size limits (points): 1/24 in … 200 in. */
const MIN_PAGE_PT = 3;
const MAX_PAGE_PT = 14_400;
/** A4 in px, for a report that has no page at all. */
const A4_PX = { width: 793.8, height: 1122.66 };

/** pdfkit's outline items, with the destination options it reads (its typings omit them). */
interface OutlineNode {
  addItem(title: string, options: { pageNumber: number; top: number; left: number }): OutlineNode;
}
/** Outline entries longer or deeper than this are cut (viewers show a line per entry). */
const MAX_TITLE = 500;
const MAX_OUTLINE_DEPTH = 64;

const nonEmpty = (s: string | undefined): string | undefined => (s !== undefined && s.trim() !== '' ? s : undefined);

export class PdfWriter {
  private readonly doc: Doc;
  private readonly ctx: PdfContext;
  private readonly warn: (message: string) => void;
  private pageCount = 0;
  private ended = false;

  /** Each page's width in points (an outline entry's destination needs it, see addOutline). */
  private readonly pageWidthsPt: number[] = [];
  private readonly outline: readonly PreparedOutlineEntry[];

  /** `report`: the whole report the pages come from, for its internal links (their destinations
   *  are made as the pages are written) and its outline (written at the end: the PDF's bookmarks
   *  panel). Without it the PDF has neither. */
  constructor(options: PdfExportOptions = {}, report?: PreparedReport) {
    const info: PDFKit.DocumentInfo = {
      Producer: 'Platform Core',
      Creator: 'Platform Core report engine',
      CreationDate: options.creationDate ?? new Date(),
    };
    const title = nonEmpty(options.title);
    const author = nonEmpty(options.author);
    const subject = nonEmpty(options.subject);
    if (title !== undefined) info.Title = title;
    if (author !== undefined) info.Author = author;
    if (subject !== undefined) info.Subject = subject;
    this.doc = newDocument({
      info,
      compress: options.compress ?? true,
      ...(options.contentDeflateLevel !== undefined ? { contentDeflateLevel: options.contentDeflateLevel } : {}),
      ...(options.lang ? { lang: options.lang } : {}),
    });
    this.warn = options.onWarning ?? ((): void => undefined);
    const fonts = options.fonts ?? defaultFontService();
    this.ctx = new PdfContext(
      this.doc,
      fonts,
      new PdfGlyphs(this.doc, fonts, this.warn),
      new PdfImages(this.doc, this.warn),
      this.warn,
    );
    this.ctx.links = report ? new DocumentLinks(report) : undefined;
    this.outline = report?.outline ?? [];
  }

  get pages(): number {
    return this.pageCount;
  }

  private pageSizePt(page: PreparedPage): [number, number] {
    const size = (px: number, what: string): number => {
      const pt = px * PT_PER_PX;
      if (Number.isFinite(pt) && pt >= MIN_PAGE_PT && pt <= MAX_PAGE_PT) return pt;
      const clamped = Number.isFinite(pt) ? Math.min(MAX_PAGE_PT, Math.max(MIN_PAGE_PT, pt)) : MIN_PAGE_PT;
      this.warn(`page ${page.index}: a ${what} of ${px} px cannot be a PDF page; ${clamped / PT_PER_PX} px is used`);
      return clamped;
    };
    return [size(page.widthPx, 'width'), size(page.heightPx, 'height')];
  }

  /** Writes one page (the previous page's content is flushed to the output). */
  addPage(page: PreparedPage): void {
    if (this.ended) throw new Error('the PDF is already finished');
    const doc = this.doc;
    const size = this.pageSizePt(page);
    doc.addPage({ size, margin: 0 });
    this.pageWidthsPt.push(size[0]);
    batchPageContent(doc);
    // From here on the page is drawn in the report's px (see context.ts).
    doc.transform(PT_PER_PX, 0, 0, PT_PER_PX, 0, 0);
    this.ctx.resetState();
    // The places internal links go to on this page: named destinations (in points, from the top).
    for (const d of this.ctx.links?.destinationsOn(page.index) ?? [])
      doc.addNamedDestination(d.key, 'XYZ', 0, d.y * PT_PER_PX, null);
    this.ctx.pageIndex = page.index;
    drawPageBackground(this.ctx, page);
    for (const it of page.items) drawItem(this.ctx, it);
    this.pageCount++;
  }

  /** Finishes the document (fonts, info, cross-reference table). */
  end(): void {
    if (this.ended) return;
    if (this.pageCount === 0) {
      // A PDF needs a page: an empty report gives one blank A4 page.
      this.doc.addPage({ size: [A4_PX.width * PT_PER_PX, A4_PX.height * PT_PER_PX], margin: 0 });
    }
    this.addOutline(this.doc.outline as unknown as OutlineNode, this.outline, 0);
    addSignatureForm(this.doc, this.ctx.signatureFields);
    this.ended = true;
    this.doc.end();
  }

  /** The outline entries whose page is in the document, nested as in the report. pdfkit's item
   *  destination is [page, XYZ, width − left, height − top]: `left` is the page's width so that
   *  the view's left edge is the page's. */
  private addOutline(parent: OutlineNode, entries: readonly PreparedOutlineEntry[], depth: number): void {
    if (depth > MAX_OUTLINE_DEPTH) return;
    for (const e of entries) {
      const width = this.pageWidthsPt[e.page - 1];
      if (width === undefined) continue;
      const title = e.title.length > MAX_TITLE ? `${e.title.slice(0, MAX_TITLE)}…` : e.title;
      const item = parent.addItem(title, { pageNumber: e.page - 1, top: e.y * PT_PER_PX, left: width });
      this.addOutline(item, e.children, depth + 1);
    }
  }

  /** The bytes produced since the last call. */
  take(): Buffer[] {
    return takeOutput(this.doc);
  }
}
