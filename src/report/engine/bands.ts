// Showing one band (FastReport's ReportEngine.Bands): StartNewPage, laying the band out, placing
// it on the page (free space check, breaking, PrintOnBottom, the page footer at the bottom),
// totals, and its child band.

import type { BandModel, ComponentModel } from '../frx/model.js';
import { prepareBand } from './band-layout.js';
import { breakBand } from './break.js';
import type { Engine } from './engine.js';
import { endKeep, startKeep } from './keep.js';
import { endColumn, showReprintFooters } from './pages.js';
import type { BandInstance, OutputBand } from './runtime.js';
import { moveItem } from './prepared.js';

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Shows a band RepeatBandNTimes times at the current position. */
export function showBand(e: Engine, band: BandModel | null): void {
  if (!band) return;
  for (let i = 0; i < band.repeatBandNTimes && !e.limits.aborted; i++) showBandOnce(e, band);
}

function showBandOnce(e: Engine, band: BandModel): void {
  const saveCur = e.bands.current;
  e.bands.current = band;
  try {
    const child = band.child;
    const showChild =
      child !== null &&
      !(band.type === 'DataBand' && child.completeToNRows > 0) &&
      !child.fillUnusedSpace &&
      !(band.type === 'DataBand' && child.printIfDatabandEmpty);
    if (showChild && band.keepChild) startKeep(e, band);
    const shown = showBandToPage(e, band);
    e.totals.processBand(band, e.bands.rt(band).repeated, shown);
    if (showChild) {
      showBand(e, child);
      if (band.keepChild) endKeep(e);
    }
  } finally {
    e.bands.current = saveCur;
  }
}

function showBandToPage(e: Engine, band: BandModel): boolean {
  const r = e.bands.rt(band);
  if (e.bands.output === null && band.startNewPage && (r.rowNo !== 1 || band.firstRowStartsNewPage) && !r.repeated)
    endColumn(e);
  const inst = prepareBand(e, band);
  if (!inst) return false;
  if (e.bands.output) {
    addToOutput(e.bands.output, inst);
    return true;
  }
  addToPreparedPages(e, inst);
  return true;
}

function addToOutput(out: OutputBand, inst: BandInstance): void {
  for (const l of inst.items) {
    l.item.x += out.x + inst.left;
    l.item.y += out.y;
    if (l.item.kind === 'line') {
      l.item.x1 += out.x + inst.left;
      l.item.x2 += out.x + inst.left;
      l.item.y1 += out.y;
      l.item.y2 += out.y;
    }
    out.items.push(l);
  }
  out.y += inst.height;
  out.bottom = Math.max(out.bottom, out.y);
}

const PAGE_BANDS = new Set(['PageHeaderBand', 'PageFooterBand', 'OverlayBand']);
const COLUMN_BANDS = new Set(['ColumnHeaderBand', 'ColumnFooterBand']);

/** The band a ChildBand belongs to (the first non-child band up its parents). */
function mainBandOf(e: Engine, band: BandModel): BandModel {
  if (band.type !== 'ChildBand') return band;
  return e.structure.childParents.get(band) ?? band;
}

/** Places a laid-out band on the current page (FastReport's AddToPreparedPages). */
export function addToPreparedPages(e: Engine, inst: BandInstance): void {
  if (e.limits.aborted) return;
  const band = inst.band;
  const r = e.bands.rt(band);
  const main = mainBandOf(e, band);
  const isPageBand = PAGE_BANDS.has(main.type);
  const isColumnBand = COLUMN_BANDS.has(main.type);
  const isSummary = band.type === 'ReportSummaryBand';

  if (!isPageBand && !isColumnBand && r.checkFreeSpace && freeSpace(e) < inst.height) {
    if (
      band.canBreak ||
      r.mustBreak ||
      (r.absRowNo <= 1 && inst.height > e.cursor.pageHeight - footerHeight(e, e.cursor.page.pageFooter))
    ) {
      if (isSummary) {
        showReprintFooters(e, true);
        showBand(e, e.cursor.page.columnFooter);
      }
      breakBand(e, inst);
      return;
    }
    endColumn(e);
    r.mustBreak = true;
    addToPreparedPages(e, inst);
    r.mustBreak = false;
    return;
  }
  if (isSummary) {
    if ('keepWithData' in band && band.keepWithData) endKeep(e);
    showReprintFooters(e, false);
    showBand(e, e.cursor.page.columnFooter);
  }

  const child = band.child;
  if (child?.fillUnusedSpace) {
    const h = r.repeated ? 0 : inst.height;
    for (let guard = 0; freeSpace(e) - h - child.height > 0 && guard < 10_000 && !e.limits.aborted; guard++) {
      const saveY = e.cursor.curY;
      showBand(e, child);
      if (e.cursor.curY === saveY) break;
    }
  }

  if (band.type === 'PageFooterBand') e.cursor.curY = e.cursor.pageHeight - bandHeightWithChildren(e, band);
  let left = inst.left;
  if (!isPageBand) left += e.cursor.originX + e.cursor.curX;
  if (band.printOnBottom) {
    e.cursor.curY =
      e.cursor.pageHeight - footerHeight(e, e.cursor.page.pageFooter) - footerHeight(e, e.cursor.page.columnFooter);
    e.cursor.curY -= band.type === 'ChildBand' ? inst.height : inst.height + childrenHeight(e, band);
  }
  let width = inst.width;
  if (!isPageBand && !isColumnBand && e.bands.hierarchy.indent !== 0) {
    left += e.bands.hierarchy.indent;
    width -= e.bands.hierarchy.indent;
  }
  if (!canPrint(e, band, r.repeated)) return;
  place(e, inst, left, e.cursor.curY, width);
  if (main.type !== 'OverlayBand') e.cursor.curY = round2(e.cursor.curY + inst.height);
}

/** Copies a band's items to the current page at (left, top) of the content area. */
export function place(e: Engine, inst: BandInstance, left: number, top: number, width: number): void {
  const page = e.cursor.pages[e.cursor.curPage];
  if (!page) return;
  const dx = page.margins.left + left;
  const dy = page.margins.top + top;
  const shrink = width - inst.width;
  for (const l of inst.items) {
    const it = l.item;
    // The band background narrows with the hierarchy indent.
    if (it.name === inst.band.name && it.kind === 'box') it.width += shrink;
    moveItem(it, dx, dy);
    page.items.push(it);
    // Post-processed after the final pass only (a first pass that drops its pages keeps none).
    if (l.duplicates && l.duplicates !== 'Show' && it.kind === 'text' && !e.passes.dropFinishedPages)
      e.records.duplicates.set(it, { mode: l.duplicates, bandTop: dy, bandBottom: dy + inst.height });
  }
}

function childrenHeight(e: Engine, band: BandModel): number {
  return band.child ? bandHeightWithChildren(e, band.child) : 0;
}

// PrintOn flags as bits, worked out once per flag list (canPrint runs for every object of every
// band printed). A flag this engine does not know gets a bit of its own, so that "only these
// flags" stays false for a list holding it, as it was for the set of names.
const FIRST = 1;
const LAST = 2;
const ODD = 4;
const EVEN = 8;
const REPEATED = 16;
const SINGLE = 32;
const UNKNOWN = 64;
const FLAG_BITS = new Map<string, number>([
  ['FirstPage', FIRST],
  ['LastPage', LAST],
  ['OddPages', ODD],
  ['EvenPages', EVEN],
  ['RepeatedBand', REPEATED],
  ['SinglePage', SINGLE],
]);
const printOnMasks = new WeakMap<readonly string[], number>();

function printOnMask(flags: readonly string[]): number {
  let mask = printOnMasks.get(flags);
  if (mask === undefined) {
    mask = 0;
    for (const f of flags) mask |= FLAG_BITS.get(f) ?? UNKNOWN;
    printOnMasks.set(flags, mask);
  }
  return mask;
}

/** FastReport's CanPrint: PrintOn flags against the current page (first, last, odd, even,
 *  single page) and repeated bands. Page parity is the page number's (1 = odd). */
export function canPrint(e: Engine, c: ComponentModel, repeated: boolean): boolean {
  if (!c.visible) return false;
  const flags = printOnMask(c.printOn);
  const pageNum = e.cursor.curPage + 1;
  const isFirst = e.cursor.curPage === e.numbering.firstReportPage;
  const isLast = e.passes.finalPass && e.passes.doublePass && e.cursor.curPage === e.passes.firstPassPageCount - 1;
  let can = ((flags & ODD) !== 0 && pageNum % 2 === 1) || ((flags & EVEN) !== 0 && pageNum % 2 === 0);
  if (isLast) {
    if ((flags & LAST) === 0) can = false;
    if (flags === LAST || flags === (LAST | SINGLE) || flags === (FIRST | LAST)) can = true;
  }
  if (isFirst) {
    if ((flags & FIRST) === 0) can = false;
    if (flags === FIRST || flags === (FIRST | SINGLE) || flags === (FIRST | LAST)) can = true;
  }
  if (isFirst && isLast) can = (flags & SINGLE) !== 0;
  if (repeated) can = (flags & REPEATED) !== 0;
  return can;
}

/** Height of a band printed now, with its child bands (FastReport's GetBandHeightWithChildren). */
export function bandHeightWithChildren(e: Engine, band: BandModel | null): number {
  let h = 0;
  for (let b: BandModel | null = band; b; ) {
    const r = e.bands.rt(b);
    if (canPrint(e, b, r.repeated)) h += b.canGrow || b.canShrink ? calcBandHeight(e, b) : b.height;
    const c: BandModel | null = b.child;
    if (c && c.type === 'ChildBand' && (c.fillUnusedSpace || c.completeToNRows !== 0)) break;
    b = c;
  }
  return h;
}

/** The height a band would print with now (its data evaluated, nothing placed). */
export function calcBandHeight(e: Engine, band: BandModel): number {
  return prepareBand(e, band)?.height ?? 0;
}

/** Page and column footer heights, measured once per page. */
export function footerHeight(e: Engine, band: BandModel | null): number {
  if (!band) return 0;
  const cached = e.cursor.footerHeights.get(band);
  if (cached && cached.page === e.cursor.curPage) return cached.height;
  const height = bandHeightWithChildren(e, band);
  e.cursor.footerHeights.set(band, { page: e.cursor.curPage, height });
  return height;
}

function repeatedFootersHeight(e: Engine): number {
  let h = 0;
  for (const band of [...e.reprints.footers, ...e.reprints.keepFooters]) {
    const r = e.bands.rt(band);
    const save = r.repeated;
    r.repeated = true;
    h += bandHeightWithChildren(e, band);
    r.repeated = save;
  }
  return h;
}

/** Space left on the page for data: page height minus footers minus the current position. */
export function freeSpace(e: Engine): number {
  const h =
    e.cursor.pageHeight -
    footerHeight(e, e.cursor.page.pageFooter) -
    footerHeight(e, e.cursor.page.columnFooter) -
    repeatedFootersHeight(e);
  return round2(h - e.cursor.curY);
}
