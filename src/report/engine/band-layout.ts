// One band laid out (FastReport's PrepareBand: GetData + BandBase.CalcHeight): its objects'
// data, grown/shrunk objects with the objects below shifted, the band's own height (CanGrow/
// CanShrink), bottom anchors, GrowToBottom, and the prepared items relative to the band.

import type { BandModel } from '../frx/model.js';
import type { EngineContext } from './context.js';
import { printsAfterBand } from './matrix-object.js';
import { objectCalcHeight, objectData, objectItems, visibleByExpression } from './objects.js';
import type { PreparedBox } from './prepared.js';
import { newRtBand, type BandInstance, type LaidItem, type RtBand, type RtObject } from './runtime.js';
import { hasBorder, isTransparentFill } from './styles.js';

const COLUMN_BANDS = new Set([
  'DataHeaderBand',
  'DataBand',
  'DataFooterBand',
  'GroupHeaderBand',
  'GroupFooterBand',
  'ColumnHeaderBand',
  'ColumnFooterBand',
  'ReportSummaryBand',
]);

/** The printed width of a band: the page's (or page column's) width, a data band column's. */
export function bandWidth(e: EngineContext, band: BandModel): number {
  if (band.type === 'DataBand' && band.columns.count > 1) return dataColumnWidth(e, band);
  const main = band.type === 'ChildBand' ? (e.structure.childParents.get(band) ?? band) : band;
  if (e.cursor.page.columns.count > 1 && COLUMN_BANDS.has(main.type)) return e.cursor.page.columns.width * 3.78;
  return e.cursor.pageWidth;
}

export function dataColumnWidth(e: EngineContext, band: BandModel & { type: 'DataBand' }): number {
  return band.columns.width > 0 ? band.columns.width : e.cursor.pageWidth / band.columns.count;
}

/** Lays a band out for the current data row; null when the band is not visible. */
export function prepareBand(e: EngineContext, band: BandModel): BandInstance | null {
  const rt = newRtBand(band);
  e.script.applyToBand(rt);
  if (!rt.visible || !visibleByExpression(e, band, band.name, band.visibleExpression)) return null;
  const r = e.bands.rt(band);
  const even = r.rowNo % 2 === 0;
  if (band.style) e.styles.apply(rt, band.style, band.name);
  if (even && band.evenStyle) e.styles.applyEven(rt, band.evenStyle, band.evenStylePriority, band.name);

  const objects: RtObject[] = band.objects.map((o) => objectData(e, o, even, r.repeated));
  // Matrices printed after the band: the band keeps only its part above them (FastReport sets its
  // height to the matrix's Top and turns CanGrow/CanShrink off).
  const tables = objects.filter((o) => o.visible && printsAfterBand(e, o));
  for (const t of tables) {
    t.visible = false;
    rt.height = Math.min(rt.height, t.top);
    rt.canGrow = rt.canShrink = false;
  }
  // PrintOnParent subreports: their bands become part of this band before it is sized.
  const inner = band.objects.some((o) => o.type === 'SubreportObject')
    ? e.flow.renderInnerSubreports(e, objects)
    : { items: [], bottom: 0 };
  // BandBase.CalcHeight runs the band's BeforeLayout and AfterLayout handlers around it.
  e.script.fire(band.name, band.events, 'BeforeLayoutEvent');
  const height = calcHeight(e, rt, objects, inner.bottom);
  e.script.fire(band.name, band.events, 'AfterLayoutEvent');
  const width = bandWidth(e, band);

  const items: LaidItem[] = [];
  const bookmark = bandBookmark(e, band);
  if (!isTransparentFill(rt.fill) || hasBorder(rt.border) || bookmark !== undefined) {
    const item: PreparedBox = {
      kind: 'box',
      name: band.name,
      x: 0,
      y: 0,
      width,
      height,
      fill: rt.fill,
      border: rt.border,
    };
    // A band's bookmark marks its background (an empty one when it has none to draw).
    if (bookmark !== undefined) item.bookmark = bookmark;
    items.push({ item, canBreak: false });
  }
  for (const rt of objects) if (rt.visible) items.push(...objectItems(e, rt));
  items.push(...inner.items);
  const inst: BandInstance = { band, left: band.left, width, height, items, canBreak: band.canBreak };
  if (tables.length > 0) inst.tables = tables;
  return inst;
}

/** The band's Bookmark expression's value (a table of contents finds the band's page by it). */
function bandBookmark(e: EngineContext, band: BandModel): string | undefined {
  if (band.bookmark.trim() === '') return undefined;
  return e.exprs.text(band, 'bookmark', band.bookmark, `${band.name}.Bookmark`);
}

/** BandBase.CalcHeight: sizes the objects, shifts those below grown ones, sizes the band. */
function calcHeight(e: EngineContext, band: RtBand, objects: RtObject[], innerBottom: number): number {
  const maxHeight = objects.some((o) => o.visible && (o.model.canGrow || o.model.canShrink))
    ? growObjects(e, objects)
    : bottomOf(objects);
  return sizeBand(band, objects, Math.max(maxHeight, innerBottom));
}

/** The lowest bottom of the visible objects (nothing grows or shrinks, so nothing shifts). */
function bottomOf(objects: readonly RtObject[]): number {
  let maxHeight = 0;
  for (const o of objects) if (o.visible && o.top + o.height > maxHeight) maxHeight = o.top + o.height;
  return maxHeight;
}

/** Sizes the objects that grow or shrink and shifts those below them; returns the lowest bottom.
 *  (Also a table cell's objects: FastReport's TableCellData.CalcHeight does the same.) */
export function growObjects(e: EngineContext, objects: RtObject[]): number {
  // Stable sort by Top (objects at the same Top keep their template order).
  const sorted = objects
    .map((o, i) => ({ o, i }))
    .sort((a, b) => a.o.top - b.o.top || a.i - b.i)
    .map((x) => x.o);
  const heights = sorted.map((o) => {
    let h = o.height;
    if (o.visible && (o.model.canGrow || o.model.canShrink)) {
      const h1 = objectCalcHeight(e, o);
      if ((o.model.canGrow && h1 > h) || (o.model.canShrink && h1 < h)) h = h1;
    }
    return h;
  });
  const shifts = sorted.map(() => 0);
  for (let i = 0; i < sorted.length; i++) {
    const parent = sorted[i] as RtObject;
    const shift = (heights[i] as number) - parent.height;
    if (shift === 0) continue;
    const parentBottom = parent.top + parent.height;
    for (let j = i + 1; j < sorted.length; j++) {
      const child = sorted[j] as RtObject;
      if (child.model.shiftMode === 'Never') continue;
      if (child.top < parentBottom - 1e-4) continue;
      if (
        child.model.shiftMode === 'WhenOverlapped' &&
        (child.left > parent.left + parent.width - 1e-4 || parent.left > child.left + child.width - 1e-4)
      )
        continue;
      const total = shift + (shifts[i] as number);
      shifts[j] = shift > 0 ? Math.max(total, shifts[j] as number) : Math.min(total, shifts[j] as number);
    }
  }
  let maxHeight = 0;
  sorted.forEach((o, i) => {
    // Lines were broken for the width, which does not change here: only the box grows.
    o.height = heights[i] as number;
    o.top += shifts[i] as number;
    if (o.visible && o.top + o.height > maxHeight) maxHeight = o.top + o.height;
  });
  return maxHeight;
}

/** The band's height from its objects' (CanGrow/CanShrink), then bottom anchors and GrowToBottom. */
function sizeBand(band: RtBand, objects: RtObject[], maxHeight: number): number {
  let height = band.height;
  if ((band.canGrow && maxHeight > height) || (band.canShrink && maxHeight < height)) height = maxHeight;
  const dy = height - band.height;
  if (dy !== 0) {
    for (const o of objects) {
      const a = o.model.anchor;
      if (a.includes('Bottom')) {
        if (a.includes('Top')) o.height += dy;
        else o.top += dy;
      } else if (!a.includes('Top')) o.top += dy / 2;
    }
  }
  for (const o of objects) {
    if (o.model.growToBottom || o.top + o.height > height) o.height = height - o.top;
  }
  return Math.max(0, height);
}
