// Prepared pages → one self-contained HTML5 document: inline CSS, pictures as data URIs, no
// script. One element per page (`data-page="N"`), every item absolutely positioned in px. Text is
// drawn line by line as the engine broke it (`white-space:pre`), with the font stacks and
// kerning/ligature settings of the text module, so what was measured is what the browser draws.

import type { PreparedOutlineEntry, PreparedPage, PreparedReport } from '../engine/prepared.js';
import { defaultFontService, type FontFace, type FontService } from '../text/index.js';
import { escapeAttr, escapeText, px, TEXT_FEATURES } from './html-css.js';
import { DocumentFaces, fontFaceRules } from './html-fonts.js';
import { ByteSink } from './html-bytes.js';
import { declareTextClasses, HtmlWriter, writePage } from './html-items.js';
import { DocumentLinks } from './links.js';

export interface HtmlExportOptions {
  /** The document title (default "Report"). */
  title?: string;
  /** The document language (default "en"). */
  lang?: string;
  /** Embed the fonts used as data URIs (subsets of the characters drawn): exact metrics
   *  everywhere, a self-contained file. */
  embedFonts?: boolean;
  /** Where a face's WOFF2 file is served (e.g. the API's `/fonts/<name>.<hash>.woff2`): the head
   *  then links the faces the pages use, script fallbacks with their `unicode-range`. */
  fontUrl?: (face: FontFace) => string;
  fonts?: FontService;
}

const STYLE = [
  'html{background:#e8e8e8}',
  'body{margin:0;padding:12px 0}',
  '.p{position:relative;overflow:hidden;margin:0 auto 12px;box-shadow:0 1px 4px rgba(0,0,0,.35)}',
  '.i{position:absolute;display:block;box-sizing:border-box;margin:0;padding:0}',
  '.f{position:absolute;overflow:visible}',
  // text-decoration does not reach absolutely positioned descendants: lines and runs take the
  // frame's (an underlined or struck-out font) explicitly; a run's own font style overrides it.
  `.l{position:absolute;white-space:pre;text-decoration:inherit;${TEXT_FEATURES}}`,
  `.r{position:absolute;white-space:pre;text-decoration:inherit;${TEXT_FEATURES}}`,
  '.x{font-kerning:auto;font-variant-ligatures:normal;font-feature-settings:normal}',
  '.c{position:absolute;left:0;top:0;width:100%;height:100%;box-sizing:border-box}',
  '.b{position:absolute;box-sizing:border-box;pointer-events:none}',
  '.s{position:absolute;left:0;top:0}',
  'a.i{color:inherit;text-decoration:none}',
  '.toc{box-sizing:border-box;max-width:794px;margin:0 auto 12px;padding:8px 16px;background:#fff;' +
    'font:13px/1.5 sans-serif;box-shadow:0 1px 4px rgba(0,0,0,.35)}',
  '.toc ul{margin:0;padding-left:18px}',
  '@media print{html{background:none}body{padding:0}.toc{display:none}' +
    '.p{margin:0;box-shadow:none;break-after:page}}',
].join('\n');

const DOCUMENT_END = '</body>\n</html>\n';

/** A writer for the document; when it brings its fonts, with the faces of all its pages (the
 *  head links them, and every font-family list names them). `headFirst`: the text classes are
 *  collected from all pages too, for a head written before them. */
function writerFor(report: PreparedReport, options: HtmlExportOptions, headFirst: boolean): HtmlWriter {
  const w = new HtmlWriter(options.fonts ?? defaultFontService());
  w.links = new DocumentLinks(report);
  if (options.embedFonts || options.fontUrl) {
    w.faces = new DocumentFaces(w.fonts);
    for (const page of report.pages) w.faces.addPage(page);
  }
  if (headFirst) for (const page of report.pages) declareTextClasses(w, page);
  return w;
}

/** Entries nested deeper than this are left out of the contents. */
const MAX_NAV_DEPTH = 64;

/** The report's outline as a table of contents before the first page, each entry a link to its
 *  place ('' when the report has no outline). */
function outlineNav(w: HtmlWriter, outline: readonly PreparedOutlineEntry[] | undefined): string {
  const links = w.links;
  if (!outline || outline.length === 0 || !links) return '';
  const list = (entries: readonly PreparedOutlineEntry[], depth: number): string => {
    const items = entries.map((e) => {
      const t = links.outlineTarget(e);
      const label = escapeText(e.title);
      const inner = e.children.length > 0 && depth < MAX_NAV_DEPTH ? list(e.children, depth + 1) : '';
      return `<li>${t ? `<a href="#${t.key}">${label}</a>` : label}${inner}</li>`;
    });
    return `<ul>${items.join('')}</ul>`;
  };
  return `<nav class="toc" aria-label="Contents">${list(outline, 0)}</nav>\n`;
}

/** Everything before the first page (the fonts are those of `w.faces`). */
function documentHead(report: PreparedReport, options: HtmlExportOptions, w: HtmlWriter): string {
  const first = report.pages[0];
  const pageRule = first ? `@page{size:${px(first.widthPx)} ${px(first.heightPx)};margin:0}` : '';
  const classes = w.textClasses.css();
  const faces = w.faces ? fontFaceRules(w.faces, { embed: options.embedFonts, fontUrl: options.fontUrl }) : '';
  const title = options.title && options.title.trim() !== '' ? options.title : 'Report';
  return [
    '<!DOCTYPE html>',
    `<html lang="${escapeAttr(options.lang ?? 'en')}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeText(title)}</title>`,
    `<style>\n${STYLE}\n${pageRule}${classes ? `\n${classes}` : ''}${faces ? `\n${faces}` : ''}\n</style>`,
    '</head>',
    '<body>',
    '',
  ].join('\n');
}

/** The whole report as one HTML5 document. */
export function exportHtml(report: PreparedReport, options: HtmlExportOptions = {}): string {
  const w = writerFor(report, options, false);
  // The pieces are joined once: a large report's document is tens of megabytes, and every
  // intermediate copy of it (a body string, then the document around it) would count double.
  // The head is written last, when the pages have made their text classes.
  w.parts.push(''); // the head
  w.parts.push(outlineNav(w, report.outline));
  for (const page of report.pages) writePage(w, page);
  w.parts.push(DOCUMENT_END);
  w.parts[0] = documentHead(report, options, w);
  const html = w.parts.join('');
  w.parts = [];
  return html;
}

/**
 * The same document as exportHtml, handed to `sink` in pieces as it is written: the head, then
 * one piece per page, then the end. Nothing of a page is kept once it is written, so a stream
 * (an HTTP response, a file) never holds the whole document.
 */
export function exportHtmlChunks(
  report: PreparedReport,
  options: HtmlExportOptions,
  sink: (chunk: string) => void,
): void {
  const w = writerFor(report, options, true);
  sink(documentHead(report, options, w) + outlineNav(w, report.outline));
  for (const page of report.pages) {
    writePage(w, page);
    const chunk = w.parts.join('');
    w.parts = [];
    sink(chunk);
  }
  sink(DOCUMENT_END);
}

/** The document as UTF-8 bytes, built item by item (no document-sized string at any time; the
 *  items' strings are encoded as they are, most of them one byte per character). */
export function exportHtmlBuffer(report: PreparedReport, options: HtmlExportOptions = {}): Buffer {
  const w = writerFor(report, options, true);
  const out = new ByteSink();
  out.write(documentHead(report, options, w));
  out.write(outlineNav(w, report.outline));
  for (const page of report.pages) {
    writePage(w, page);
    for (const part of w.parts) out.write(part);
    w.parts = [];
  }
  out.write(DOCUMENT_END);
  return out.bytes();
}

/**
 * exportHtmlBuffer's document written as the engine hands over the pages (EngineOptions.onPage),
 * so a report's pages need not all be held (the engine drops each once it is written). The text
 * classes and the faces are collected page by page, in the order exportHtmlBuffer collects them
 * from all pages, and the head they make is written last and put in front (ByteSink.prepend).
 * Only for a report whose pages have no links inside the document and that has no outline (their
 * targets need every page; see engine/page-stream.ts streamBlocker): the caller checks the pages.
 */
export class HtmlBytesStream {
  private readonly w: HtmlWriter;
  private readonly out = new ByteSink();

  constructor(private readonly options: HtmlExportOptions = {}) {
    this.w = writerFor({ pages: [] }, options, false);
  }

  /** The body's bytes written so far. */
  get size(): number {
    return this.out.size;
  }

  addPage(page: PreparedPage): void {
    const w = this.w;
    w.faces?.addPage(page);
    declareTextClasses(w, page);
    writePage(w, page);
    for (const part of w.parts) this.out.write(part);
    w.parts = [];
  }

  /** The document of `report`, the run whose pages were added (their items may be gone by now);
   *  undefined when the pages written are not exportHtmlBuffer's: the report has an outline, or
   *  a page brought a font family after the first font-family list was written (a list names
   *  the families of the whole document). */
  end(report: PreparedReport): Buffer | undefined {
    const faces = this.w.faces;
    if (faces?.familiesAtFirstList !== undefined && faces.families().size !== faces.familiesAtFirstList)
      return undefined;
    if (report.outline && report.outline.length > 0) return undefined;
    this.out.write(DOCUMENT_END);
    this.out.prepend(documentHead(report, this.options, this.w));
    return this.out.bytes();
  }
}
