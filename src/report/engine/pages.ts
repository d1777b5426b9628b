// Pages and columns (FastReport's ReportEngine.Pages/Reprint/Keep/PageNumbers): starting and
// ending pages and page columns, page header/footer, repeated headers and footers, the keep
// mechanism (a block of bands moved whole to the next page) and logical page numbers.

import { MM_TO_PX, type BandModel } from '../frx/model.js';
import { showBand } from './bands.js';
import type { Engine } from './engine.js';
import { moveItem } from './prepared.js';

// --------------------------------------------------------------------------------------------
// Page numbers

export function incLogicalPageNumber(e: Engine): void {
  e.logicalPageNo++;
  const index = e.curPage - e.firstReportPage;
  if (e.firstPass || index >= e.pageNumbers.length) {
    e.pageNumbers[index] = { pageNo: e.logicalPageNo, totalPages: 0 };
  }
}

/** Ends a run of logical page numbers: the pages since the last reset learn their total. */
export function resetLogicalPageNumber(e: Engine): void {
  if (!e.firstPass) return;
  for (let i = e.pageNumbers.length - 1; i >= 0; i--) {
    const info = e.pageNumbers[i];
    if (!info) continue;
    info.totalPages = e.logicalPageNo;
    if (info.pageNo === 1) break;
  }
  e.logicalPageNo = 0;
}

// --------------------------------------------------------------------------------------------
// Pages

function addPage(e: Engine): void {
  const p = e.page;
  e.pages.push({
    index: e.pages.length + 1,
    name: p.name,
    widthPx: p.paperWidth * MM_TO_PX,
    heightPx: p.paperHeight * MM_TO_PX,
    margins: {
      left: p.leftMargin * MM_TO_PX,
      top: p.topMargin * MM_TO_PX,
      right: p.rightMargin * MM_TO_PX,
      bottom: p.bottomMargin * MM_TO_PX,
    },
    fill: p.fill,
    border: p.border,
    items: [],
  });
  e.curPage = e.pages.length - 1;
  incLogicalPageNumber(e);
  if (e.dropFinishedPages) dropFinishedPages(e);
}

/** In a first pass that only counts pages: empties the pages nothing writes to any more (all
 *  before the current one, and before the page a keep block started on). Their items would
 *  otherwise live until the second pass starts, doubling a large report's memory. */
function dropFinishedPages(e: Engine): void {
  const limit = e.keeping ? Math.min(e.curPage, e.keep.page) : e.curPage;
  for (let i = e.droppedBefore; i < limit; i++) {
    const page = e.pages[i];
    if (page) page.items = [];
  }
  e.droppedBefore = Math.max(e.droppedBefore, limit);
}

export function startFirstPage(e: Engine): void {
  const page = e.page;
  e.curX = 0;
  e.curY = 0;
  e.curColumn = 0;
  if (page.resetPageNumber) resetLogicalPageNumber(e);
  const previous = page.printOnPreviousPage && e.pages.length > 0 && samePaper(e);
  if (previous) e.curY = lastY(e);
  else {
    // A report page after the first starts a page too: it counts against the limit like any.
    if (!e.roomForPage()) return;
    addPage(e);
    if (page.startOnOddPage && e.curPage % 2 === 1 && e.roomForPage()) addPage(e);
  }
  if (e.isFirstReportPage) e.firstReportPage = e.curPage;
  if (e.isFirstReportPage && previous) incLogicalPageNumber(e);
  e.isFirstReportPage = false;

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
  e.columnStartY = e.curY;
  showBand(e, page.columnHeader);
  e.curX = 0;
}

function samePaper(e: Engine): boolean {
  const last = e.pages[e.pages.length - 1];
  return (
    last !== undefined &&
    Math.abs(last.widthPx - e.page.paperWidth * MM_TO_PX) < 0.01 &&
    Math.abs(last.heightPx - e.page.paperHeight * MM_TO_PX) < 0.01
  );
}

/** Bottom of the last band on the current page (PrintOnPreviousPage), from the content top. */
function lastY(e: Engine): number {
  const page = e.pages[e.curPage];
  if (!page) return 0;
  let y = 0;
  for (const it of page.items) y = Math.max(y, it.y + it.height - page.margins.top);
  return y;
}

export function endLastPage(e: Engine): void {
  if (e.page.reportSummary) showBand(e, e.page.reportSummary);
  else showBand(e, e.page.columnFooter);
  showBand(e, e.page.pageFooter);
}

/** Ends the current column: footers, then the next column or a new page. */
export function endColumn(e: Engine, showColumnFooter = true): void {
  if (e.keeping) cutObjects(e);
  showReprintFooters(e, true);
  if (showColumnFooter) showBand(e, e.page.columnFooter);
  e.curColumn++;
  if (e.curColumn >= e.page.columns.count) e.curColumn = 0;
  e.curX = e.curColumn === 0 ? 0 : (e.page.columns.positions[e.curColumn] ?? 0) * MM_TO_PX;
  if (e.curColumn === 0) endPage(e);
  else startColumn(e);
  if (e.keeping) pasteObjects(e);
}

function startColumn(e: Engine): void {
  e.curY = e.columnStartY;
  showBand(e, e.page.columnHeader);
  showReprintHeaders(e);
}

export function endPage(e: Engine, startNext = true): void {
  showBand(e, e.page.pageFooter);
  // The report goes on, so it needs another page: past the limit it stops or fails (roomForPage).
  if (startNext && !e.aborted && e.roomForPage()) startPage(e);
}

function startPage(e: Engine): void {
  e.curX = 0;
  e.curY = 0;
  e.curColumn = 0;
  addPage(e);
  if (e.page.overlay) showBand(e, e.page.overlay);
  showBand(e, e.page.pageHeader);
  e.columnStartY = e.curY;
  startColumn(e);
}

// --------------------------------------------------------------------------------------------
// Repeated headers and footers (RepeatOnEveryPage)

function showReprintHeaders(e: Engine): void {
  const saveOrigin = e.originX;
  for (const band of [...e.reprintHeaders]) {
    const r = e.rt(band);
    r.repeated = true;
    e.originX = r.reprintOffset;
    showBand(e, band);
    r.repeated = false;
  }
  e.originX = saveOrigin;
}

export function showReprintFooters(e: Engine, repeated: boolean): void {
  const saveOrigin = e.originX;
  for (let i = e.reprintFooters.length - 1; i >= 0; i--) {
    const band = e.reprintFooters[i] as BandModel;
    const r = e.rt(band);
    r.repeated = repeated;
    setCheckFreeSpace(e, band, false);
    e.originX = r.reprintOffset;
    showBand(e, band);
    r.repeated = false;
    setCheckFreeSpace(e, band, true);
  }
  e.originX = saveOrigin;
}

function setCheckFreeSpace(e: Engine, band: BandModel, value: boolean): void {
  for (let b: BandModel | null = band; b; b = b.child) e.rt(b).checkFreeSpace = value;
}

const isHeader = (b: BandModel): boolean => b.type === 'DataHeaderBand' || b.type === 'GroupHeaderBand';

export function addReprint(e: Engine, band: BandModel): void {
  e.rt(band).reprintOffset = e.originX;
  if (e.keeping) (isHeader(band) ? e.keepReprintHeaders : e.keepReprintFooters).push(band);
  else (isHeader(band) ? e.reprintHeaders : e.reprintFooters).push(band);
}

export function removeReprint(e: Engine, band: BandModel | null): void {
  if (!band) return;
  for (const list of [e.keepReprintHeaders, e.reprintHeaders, e.keepReprintFooters, e.reprintFooters]) {
    const i = list.indexOf(band);
    if (i >= 0) list.splice(i, 1);
  }
}

// --------------------------------------------------------------------------------------------
// Keep: bands printed while keeping move together to the next page when one does not fit.

export function startKeep(e: Engine, band?: BandModel): void {
  // The first row on a page is never kept (that would leave an empty page).
  if (e.keeping || (band && e.rt(band).absRowNo === 1 && !band.firstRowStartsNewPage)) return;
  e.keeping = true;
  e.keep = { page: e.curPage, position: e.pages[e.curPage]?.items.length ?? 0, curY: e.curY, curX: e.curX, deltaY: 0 };
  e.totals.startKeep();
  e.keepReprintHeaders = [];
  e.keepReprintFooters = [];
}

export function endKeep(e: Engine): void {
  if (!e.keeping) return;
  e.totals.endKeep();
  e.reprintHeaders.push(...e.keepReprintHeaders);
  e.reprintFooters.push(...e.keepReprintFooters);
  e.keepReprintHeaders = [];
  e.keepReprintFooters = [];
  e.keeping = false;
}

function cutObjects(e: Engine): void {
  e.keep.deltaY = e.curY - e.keep.curY;
  const page = e.pages[e.keep.page];
  e.keep.cut = page ? page.items.splice(e.keep.position) : [];
  e.curY = e.keep.curY;
}

function pasteObjects(e: Engine): void {
  const page = e.pages[e.curPage];
  const cut = e.keep.cut;
  if (cut && page) {
    const dx = e.curX - e.keep.curX;
    const dy = e.curY - e.keep.curY;
    for (const it of cut) {
      moveItem(it, dx, dy);
      page.items.push(it);
    }
  }
  e.keep.cut = undefined;
  const delta = e.keep.deltaY;
  endKeep(e);
  e.curY += delta;
}
