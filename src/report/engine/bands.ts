// Showing one band (FastReport's ReportEngine.Bands): StartNewPage, laying the band out, placing
// it on the page (free space check, breaking, PrintOnBottom, the page footer at the bottom),
// totals, and its child band.

import type { BandModel } from '../frx/model.js';
import { prepareBand } from './band-layout.js';
import { splitBand } from './break.js';
import type { EngineContext } from './context.js';
import { endKeep, startKeep } from './keep.js';
import { canPrint } from './print-on.js';
import type { BandInstance, OutputBand } from './runtime.js';
import { moveItem } from './prepared.js';

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Shows a band RepeatBandNTimes times at the current position. */
export function showBand(e: EngineContext, band: BandModel | null): void {
  if (!band) return;
  for (let i = 0; i < band.repeatBandNTimes && !e.limits.aborted; i++) showBandOnce(e, band);
}

function showBandOnce(e: EngineContext, band: BandModel): void {
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
    const shown = e.script.aroundBand(band, () => showBandToPage(e, band));
    e.totals.processBand(band, e.bands.rt(band).repeated, shown !== null);
    if (shown?.tables) e.flow.printTables(e, band, shown.tables);
    if (shown && e.bands.output === null) e.flow.renderOuterSubreports(e, band);
    if (showChild) {
      showBand(e, child);
      if (band.keepChild) endKeep(e);
    }
  } finally {
    e.bands.current = saveCur;
  }
}

/** Shows a band where the engine writes now; the band as laid out, or null when it is hidden. */
function showBandToPage(e: EngineContext, band: BandModel): BandInstance | null {
  const r = e.bands.rt(band);
  if (e.bands.output === null && band.startNewPage && (r.rowNo !== 1 || band.firstRowStartsNewPage) && !r.repeated)
    e.flow.endColumn(e);
  const inst = prepareBand(e, band);
  if (!inst) return null;
  if (e.bands.output) {
    addToOutput(e.bands.output, inst);
    return inst;
  }
  addToPreparedPages(e, inst);
  return inst;
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
function mainBandOf(e: EngineContext, band: BandModel): BandModel {
  if (band.type !== 'ChildBand') return band;
  return e.structure.childParents.get(band) ?? band;
}

/** Places a laid-out band on the current page (FastReport's AddToPreparedPages). */
export function addToPreparedPages(e: EngineContext, inst: BandInstance): void {
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
        e.flow.showReprintFooters(e, true);
        showBand(e, e.cursor.page.columnFooter);
      }
      breakBand(e, inst);
      return;
    }
    e.flow.endColumn(e);
    r.mustBreak = true;
    addToPreparedPages(e, inst);
    r.mustBreak = false;
    return;
  }
  if (isSummary) {
    if ('keepWithData' in band && band.keepWithData) endKeep(e);
    e.flow.showReprintFooters(e, false);
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

  // On an unlimited page the page footer follows the content.
  if (band.type === 'PageFooterBand' && !e.cursor.page.unlimitedHeight)
    e.cursor.curY = e.cursor.pageHeight - bandHeightWithChildren(e, band);
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
  if (!r.repeated) addBandOutline(e, band, inst);
  place(e, inst, left, e.cursor.curY, width);
  if (main.type !== 'OverlayBand') e.cursor.curY = round2(e.cursor.curY + inst.height);
}

/** FastReport's AddBandOutline: the band's OutlineExpression adds an outline entry where the band
 *  prints; a data band's or group header's stays the current one until its row or group ends
 *  (databands.ts, groups.ts), so the bands inside it add theirs under it. */
function addBandOutline(e: EngineContext, band: BandModel, inst: BandInstance): void {
  if (band.outlineExpression.trim() === '') return;
  const title = e.exprs.text(band, 'outline', band.outlineExpression, `${band.name}.OutlineExpression`) ?? '';
  const first = inst.items[0]?.item;
  e.outline.add(title, e.cursor.curPage + 1, e.cursor.yOnPage, first && { item: first, top: first.y }, band);
  if (band.type !== 'DataBand' && band.type !== 'GroupHeaderBand') e.outline.upFrom(band);
}

/** Copies a band's items to the current page at (left, top) of the content area. */
export function place(e: EngineContext, inst: BandInstance, left: number, top: number, width: number): void {
  const page = e.cursor.pages[e.cursor.curPage];
  if (!page) return;
  const dx = page.margins.left + left;
  const dy = page.margins.top + top;
  const shrink = width - inst.width;
  // Only an unlimited page is cut to what it holds (pages.ts fitUnlimitedPages): others skip this.
  const unlimited = e.cursor.page.unlimitedHeight || e.cursor.page.unlimitedWidth;
  const extent = unlimited ? (e.cursor.extents.get(e.cursor.curPage) ?? { bottom: 0, right: 0 }) : undefined;
  if (extent) extent.bottom = Math.max(extent.bottom, dy + inst.height);
  for (const l of inst.items) {
    const it = l.item;
    // The band background narrows with the hierarchy indent.
    const background = it.name === inst.band.name && it.kind === 'box';
    if (background) it.width += shrink;
    moveItem(it, dx, dy);
    if (extent && !background) extent.right = Math.max(extent.right, it.x + it.width);
    page.items.push(it);
    // Post-processed after the final pass only (a first pass that drops its pages keeps none).
    if (l.duplicates && l.duplicates !== 'Show' && it.kind === 'text' && !e.passes.dropFinishedPages)
      e.records.duplicates.set(it, { mode: l.duplicates, bandTop: dy, bandBottom: dy + inst.height });
  }
  if (extent) e.cursor.extents.set(e.cursor.curPage, extent);
}

function childrenHeight(e: EngineContext, band: BandModel): number {
  return band.child ? bandHeightWithChildren(e, band.child) : 0;
}

/** Height of a band printed now, with its child bands (FastReport's GetBandHeightWithChildren). */
export function bandHeightWithChildren(e: EngineContext, band: BandModel | null): number {
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
export function calcBandHeight(e: EngineContext, band: BandModel): number {
  return e.script.aroundBand(band, () => prepareBand(e, band)?.height ?? 0);
}

/** Page and column footer heights, measured once per page. */
export function footerHeight(e: EngineContext, band: BandModel | null): number {
  if (!band) return 0;
  const cached = e.cursor.footerHeights.get(band);
  if (cached && cached.page === e.cursor.curPage) return cached.height;
  const height = bandHeightWithChildren(e, band);
  e.cursor.footerHeights.set(band, { page: e.cursor.curPage, height });
  return height;
}

function repeatedFootersHeight(e: EngineContext): number {
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
export function freeSpace(e: EngineContext): number {
  const h =
    e.cursor.pageHeight -
    footerHeight(e, e.cursor.page.pageFooter) -
    footerHeight(e, e.cursor.page.columnFooter) -
    repeatedFootersHeight(e);
  return round2(h - e.cursor.curY);
}

/** FastReport's BreakBand: print what fits, then the rest on the next page. */
export function breakBand(e: EngineContext, inst: BandInstance): void {
  const r = e.bands.rt(inst.band);
  const { first, rest } = splitBand(inst, freeSpace(e));
  if (first.items.length > 0) {
    const save = r.checkFreeSpace;
    r.checkFreeSpace = false;
    addToPreparedPages(e, first);
    r.checkFreeSpace = save;
    e.flow.endColumn(e);
    mustBreak(e, rest);
  } else if (r.mustBreak) {
    // Nothing can be split off: print the band as it is (it overflows the page).
    const save = r.checkFreeSpace;
    r.checkFreeSpace = false;
    addToPreparedPages(e, inst);
    r.checkFreeSpace = save;
  } else {
    e.flow.endColumn(e);
    mustBreak(e, inst);
  }
}

function mustBreak(e: EngineContext, inst: BandInstance): void {
  if (e.limits.aborted) return;
  const r = e.bands.rt(inst.band);
  const save = r.mustBreak;
  r.mustBreak = true;
  addToPreparedPages(e, inst);
  r.mustBreak = save;
}
