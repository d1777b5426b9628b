// Pages and columns (FastReport's ReportEngine.Pages/Reprint): starting and ending pages and page
// columns, page header/footer, repeated headers and footers shown (their lists: reprint.ts), a
// keep block moved to the next column or page (keep.ts), logical page numbers (page-numbers.ts).

import { MM_TO_PX, type BandModel } from '../frx/model.js';
import { showBand } from './bands.js';
import type { EngineContext } from './context.js';
import { cutObjects, pasteObjects } from './keep.js';
import { incLogicalPageNumber, resetLogicalPageNumber } from './page-numbers.js';

// --------------------------------------------------------------------------------------------
// Pages

function addPage(e: EngineContext): void {
  const p = e.cursor.page;
  const index = e.cursor.pages.length + 1;
  // MirrorMargins: an even page of the document (a left-hand page) swaps its left and right
  // margins, as FastReport's PreparedPages.GetPage does.
  const mirrored = p.mirrorMargins && index % 2 === 0;
  e.cursor.pages.push({
    index,
    name: p.name,
    widthPx: p.paperWidth * MM_TO_PX,
    heightPx: p.paperHeight * MM_TO_PX,
    margins: {
      left: (mirrored ? p.rightMargin : p.leftMargin) * MM_TO_PX,
      top: p.topMargin * MM_TO_PX,
      right: (mirrored ? p.leftMargin : p.rightMargin) * MM_TO_PX,
      bottom: p.bottomMargin * MM_TO_PX,
    },
    fill: p.fill,
    border: p.border,
    items: [],
  });
  e.cursor.curPage = e.cursor.pages.length - 1;
  incLogicalPageNumber(e);
  if (e.passes.dropFinishedPages) dropFinishedPages(e);
  else e.stream?.pageAdded();
}

/** In a first pass that only counts pages: empties the pages nothing writes to any more (all
 *  before the current one, and before the page a keep block started on). Their items would
 *  otherwise live until the second pass starts, doubling a large report's memory. */
function dropFinishedPages(e: EngineContext): void {
  const limit = e.keep.keeping ? Math.min(e.cursor.curPage, e.keep.page) : e.cursor.curPage;
  // Their bookmarks are recorded first (Engine.GetBookmarkPage in the final pass).
  e.bookmarks.search(e.cursor.pages, limit);
  for (let i = e.cursor.droppedBefore; i < limit; i++) {
    const page = e.cursor.pages[i];
    if (page) page.items = [];
  }
  e.cursor.droppedBefore = Math.max(e.cursor.droppedBefore, limit);
}

export function startFirstPage(e: EngineContext): void {
  const page = e.cursor.page;
  // A report page's outline starts at the top level (FastReport's OutlineRoot).
  e.outline.toRoot();
  e.cursor.curX = 0;
  e.cursor.curY = 0;
  e.cursor.curColumn = 0;
  if (page.resetPageNumber) resetLogicalPageNumber(e);
  const previous = page.printOnPreviousPage && e.cursor.pages.length > 0 && samePaper(e);
  if (previous) e.cursor.curY = lastY(e);
  else {
    // A report page after the first starts a page too: it counts against the limit like any.
    if (!e.limits.roomForPage(e.cursor.pages.length)) return;
    addPage(e);
    if (page.startOnOddPage && e.cursor.curPage % 2 === 1 && e.limits.roomForPage(e.cursor.pages.length)) addPage(e);
  }
  if (e.numbering.isFirstReportPage) e.numbering.firstReportPage = e.cursor.curPage;
  if (e.numbering.isFirstReportPage && previous) incLogicalPageNumber(e);
  e.numbering.isFirstReportPage = false;
  // The page's OutlineExpression: an entry at its top, holding the entries of its bands.
  if (page.outlineExpression.trim() !== '') {
    const title = e.exprs.text(page, 'outline', page.outlineExpression, `${page.name}.OutlineExpression`);
    e.outline.add(title ?? '', e.cursor.curPage + 1, 0);
  }
  e.script.fire(page.name, page.events, 'StartPageEvent');

  if (previous) showBand(e, page.reportTitle);
  else {
    if (page.overlay) showBand(e, page.overlay);
    if (page.titleBeforeHeader) {
      showBand(e, page.reportTitle);
      showBand(e, page.pageHeader);
    } else {
      showBand(e, page.pageHeader);
      showBand(e, page.reportTitle);
    }
  }
  e.cursor.columnStartY = e.cursor.curY;
  showBand(e, page.columnHeader);
  e.cursor.curX = 0;
}

function samePaper(e: EngineContext): boolean {
  const last = e.cursor.pages[e.cursor.pages.length - 1];
  return (
    last !== undefined &&
    Math.abs(last.widthPx - e.cursor.page.paperWidth * MM_TO_PX) < 0.01 &&
    Math.abs(last.heightPx - e.cursor.page.paperHeight * MM_TO_PX) < 0.01
  );
}

/** Bottom of the last band on the current page (PrintOnPreviousPage), from the content top. */
function lastY(e: EngineContext): number {
  const page = e.cursor.pages[e.cursor.curPage];
  if (!page) return 0;
  let y = 0;
  for (const it of page.items) y = Math.max(y, it.y + it.height - page.margins.top);
  return y;
}

export function endLastPage(e: EngineContext): void {
  if (e.cursor.page.reportSummary) showBand(e, e.cursor.page.reportSummary);
  else showBand(e, e.cursor.page.columnFooter);
  showBand(e, e.cursor.page.pageFooter);
  e.script.fire(e.cursor.page.name, e.cursor.page.events, 'FinishPageEvent');
}

/** Once a report page has run: its unlimited pages take the size of what they hold (the lowest
 *  band and the rightmost object, plus the margins); band backgrounds end at the new edge. */
export function fitUnlimitedPages(e: EngineContext, firstPage: number): void {
  const p = e.cursor.page;
  if (!p.unlimitedHeight && !p.unlimitedWidth) return;
  for (let i = Math.max(0, firstPage); i < e.cursor.pages.length; i++) {
    const page = e.cursor.pages[i];
    const extent = e.cursor.extents.get(i);
    if (!page || page.name !== p.name || !extent) continue;
    if (p.unlimitedHeight) page.heightPx = extent.bottom + page.margins.bottom;
    if (p.unlimitedWidth) {
      page.widthPx = extent.right + page.margins.right;
      const edge = extent.right;
      for (const it of page.items) if (it.kind === 'box' && it.x + it.width > edge) it.width = Math.max(0, edge - it.x);
    }
  }
}

/** Ends the current column: footers, then the next column or a new page. */
export function endColumn(e: EngineContext, showColumnFooter = true): void {
  if (e.keep.keeping) cutObjects(e);
  showReprintFooters(e, true);
  if (showColumnFooter) showBand(e, e.cursor.page.columnFooter);
  e.cursor.curColumn++;
  if (e.cursor.curColumn >= e.cursor.page.columns.count) e.cursor.curColumn = 0;
  e.cursor.curX = e.cursor.curColumn === 0 ? 0 : (e.cursor.page.columns.positions[e.cursor.curColumn] ?? 0) * MM_TO_PX;
  if (e.cursor.curColumn === 0) endPage(e);
  else startColumn(e);
  if (e.keep.keeping) pasteObjects(e);
}

function startColumn(e: EngineContext): void {
  e.cursor.curY = e.cursor.columnStartY;
  showBand(e, e.cursor.page.columnHeader);
  showReprintHeaders(e);
}

export function endPage(e: EngineContext, startNext = true): void {
  showBand(e, e.cursor.page.pageFooter);
  e.script.fire(e.cursor.page.name, e.cursor.page.events, 'FinishPageEvent');
  // The report goes on, so it needs another page: past the limit it stops or fails (roomForPage).
  if (startNext && !e.limits.aborted && e.limits.roomForPage(e.cursor.pages.length)) startPage(e);
}

function startPage(e: EngineContext): void {
  e.cursor.curX = 0;
  e.cursor.curY = 0;
  e.cursor.curColumn = 0;
  addPage(e);
  e.script.fire(e.cursor.page.name, e.cursor.page.events, 'StartPageEvent');
  if (e.cursor.page.overlay) showBand(e, e.cursor.page.overlay);
  showBand(e, e.cursor.page.pageHeader);
  e.cursor.columnStartY = e.cursor.curY;
  startColumn(e);
}

// --------------------------------------------------------------------------------------------
// Repeated headers and footers (RepeatOnEveryPage)

function showReprintHeaders(e: EngineContext): void {
  const saveOrigin = e.cursor.originX;
  for (const band of [...e.reprints.headers]) {
    const r = e.bands.rt(band);
    r.repeated = true;
    e.cursor.originX = r.reprintOffset;
    showBand(e, band);
    r.repeated = false;
  }
  e.cursor.originX = saveOrigin;
}

export function showReprintFooters(e: EngineContext, repeated: boolean): void {
  const saveOrigin = e.cursor.originX;
  for (let i = e.reprints.footers.length - 1; i >= 0; i--) {
    const band = e.reprints.footers[i] as BandModel;
    const r = e.bands.rt(band);
    r.repeated = repeated;
    setCheckFreeSpace(e, band, false);
    e.cursor.originX = r.reprintOffset;
    showBand(e, band);
    r.repeated = false;
    setCheckFreeSpace(e, band, true);
  }
  e.cursor.originX = saveOrigin;
}

function setCheckFreeSpace(e: EngineContext, band: BandModel, value: boolean): void {
  for (let b: BandModel | null = band; b; b = b.child) e.bands.rt(b).checkFreeSpace = value;
}

export function addReprint(e: EngineContext, band: BandModel): void {
  e.bands.rt(band).reprintOffset = e.cursor.originX;
  e.reprints.add(band, e.keep.keeping);
}

export function removeReprint(e: EngineContext, band: BandModel | null): void {
  if (band) e.reprints.remove(band);
}
