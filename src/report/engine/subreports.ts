// Subreports (FastReport's ReportEngine.Subreports): a SubreportObject prints the data bands of
// its report page.
// - PrintOnParent ("inner"): while its band is laid out, before the band's height is known, the
//   page's bands are collected into the band at the subreport's Left/Top; the band grows to hold
//   them (when it can grow), and they move with it.
// - Otherwise ("outer"): after its band is shown, from the band's bottom less the subreport's
//   height, shifted right by its Left; several such subreports of one band start at the same
//   place, side by side, and the report goes on below the longest.
// A subreport page never prints on its own (the loader marks it). A subreport that would print a
// page already printing (a page holding a subreport of itself, directly or not) is skipped with a
// warning.

import type { BandModel, ReportPageModel, SubreportObjectModel } from '../frx/model.js';
import type { EngineContext } from './context.js';
import { runBands } from './databands.js';
import { visibleByExpression } from './objects.js';
import type { LaidItem, OutputBand, RtObject } from './runtime.js';

/** The pages whose subreports are printing now, innermost last (a guard against recursion). */
const running = new WeakMap<EngineContext, ReportPageModel[]>();

function subreportPage(e: EngineContext, sub: SubreportObjectModel): ReportPageModel | null {
  const page = e.report.pages.find((p) => p.name === sub.reportPageName && p.subreportOf !== '');
  if (!page) return null;
  const stack = running.get(e) ?? [];
  if (stack.includes(page)) {
    e.warnings.add(`${sub.name}: its page "${page.name}" is already printing (a subreport of itself); it is skipped`);
    return null;
  }
  return page;
}

function runPage(e: EngineContext, page: ReportPageModel): void {
  const stack = running.get(e) ?? [];
  running.set(e, stack);
  stack.push(page);
  try {
    runBands(e, page.bands);
  } finally {
    stack.pop();
  }
}

/** The inner subreports of a band being laid out: their bands' items (relative to the band) and
 *  the lowest bottom they reach. */
export function renderInnerSubreports(
  e: EngineContext,
  objects: readonly RtObject[],
): { items: LaidItem[]; bottom: number } {
  const items: LaidItem[] = [];
  let bottom = 0;
  for (const rt of objects) {
    const sub = rt.model;
    if (sub.type !== 'SubreportObject' || !sub.printOnParent || !rt.visible) continue;
    const page = subreportPage(e, sub);
    if (!page) continue;
    const output: OutputBand = { items: [], x: rt.left, y: rt.top, bottom: rt.top };
    const save = { output: e.bands.output, curX: e.cursor.curX, curY: e.cursor.curY };
    e.bands.output = output;
    e.cursor.curX = rt.left;
    e.cursor.curY = rt.top;
    try {
      runPage(e, page);
    } finally {
      e.bands.output = save.output;
      e.cursor.curX = save.curX;
      e.cursor.curY = save.curY;
    }
    items.push(...output.items);
    bottom = Math.max(bottom, output.bottom);
  }
  return { items, bottom };
}

/** The outer subreports of a band just shown, side by side below it. */
export function renderOuterSubreports(e: EngineContext, band: BandModel): void {
  const subs = band.objects.filter(
    (o): o is SubreportObjectModel => o.type === 'SubreportObject' && !o.printOnParent && o.visible,
  );
  if (subs.length === 0) return;
  const c = e.cursor;
  const start = { page: c.curPage, y: c.curY, originX: c.originX };
  let end = { page: c.curPage, y: c.curY };
  try {
    for (const sub of subs) {
      if (!visibleByExpression(e, sub, sub.name, sub.visibleExpression)) continue;
      const page = subreportPage(e, sub);
      if (!page) continue;
      if (c.curPage === start.page) {
        c.curY = start.y - sub.height;
      } else {
        // The engine only appends pages: a subreport beside one that went on to further pages
        // starts where that one ended instead.
        e.warnings.add(
          `${sub.name}: the subreport beside it went on to another page, so this one prints after it ` +
            'instead of beside it',
        );
      }
      c.originX = start.originX + sub.left;
      runPage(e, page);
      if (c.curPage > end.page || (c.curPage === end.page && c.curY > end.y)) end = { page: c.curPage, y: c.curY };
    }
  } finally {
    c.originX = start.originX;
  }
  if (c.curPage === end.page) c.curY = end.y;
}
