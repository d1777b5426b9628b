// After layout (FastReport's PreparedPagePostprocessor): duplicate values (Duplicates = Hide,
// Clear or Merge for consecutive bands showing the same text) and the page-number macros
// [Page#] and [TotalPages#], filled in once the page count is final.

import type { Duplicates, TextObjectModel } from '../frx/model.js';
import { measureWidth, type FontService } from '../text/index.js';
import type { PreparedPage, PreparedText } from './prepared.js';
import type { LateText } from './runtime.js';
import { positionLines } from './text-layout.js';

/** A late text as laid out (late-totals.ts): its object and the box its text was measured for. */
export interface LateItem extends LateText {
  model: TextObjectModel;
  width: number;
  height: number;
}

export interface DuplicateInfo {
  mode: Duplicates;
  bandTop: number;
  bandBottom: number;
}

/** What layout records for after it (in the final pass only: a first pass that drops its pages
 *  keeps none). */
export class PostprocessRecords {
  /** Text items with Duplicates other than Show, and where their band was printed. */
  readonly duplicates = new Map<PreparedText, DuplicateInfo>();
  /** TextObjects whose text holds [Page#]/[TotalPages#] macros, with their model. */
  readonly macroItems = new Map<object, TextObjectModel>();
  /** Texts whose logical totals a single pass fills in after layout (late-totals.ts). */
  readonly lateItems = new Map<PreparedText, LateItem>();

  clear(): void {
    this.duplicates.clear();
    this.macroItems.clear();
    this.lateItems.clear();
  }
}

function closeDuplicates(
  page: PreparedPage,
  list: PreparedText[],
  info: Map<PreparedText, DuplicateInfo>,
  removed: Set<PreparedText>,
): void {
  if (list.length < 2) return;
  const mode = info.get(list[0] as PreparedText)?.mode;
  if (mode === 'Clear') {
    for (const t of list.slice(1)) {
      t.text = '';
      t.lines = [];
      if (t.html) t.html = [];
    }
  } else if (mode === 'Hide') {
    for (const t of list.slice(1)) removed.add(t);
  } else if (mode === 'Merge') {
    const first = list[0] as PreparedText;
    const last = list[list.length - 1] as PreparedText;
    for (const t of list.slice(0, -1)) removed.add(t);
    const delta = last.y - first.y;
    last.y -= delta;
    last.height += delta;
    positionLines(last);
  }
  void page;
}

function processDuplicates(page: PreparedPage, info: Map<PreparedText, DuplicateInfo>): void {
  const lists = new Map<string, PreparedText[]>();
  const removed = new Set<PreparedText>();
  for (const it of page.items) {
    if (it.kind !== 'text') continue;
    const mine = info.get(it);
    if (!mine) continue;
    const list = lists.get(it.name);
    if (!list) {
      lists.set(it.name, [it]);
      continue;
    }
    const last = list[list.length - 1] as PreparedText;
    const lastInfo = info.get(last);
    if (it.text === last.text && lastInfo && Math.abs(mine.bandTop - lastInfo.bandBottom) <= 0.5) list.push(it);
    else {
      closeDuplicates(page, list, info, removed);
      lists.set(it.name, [it]);
    }
  }
  for (const list of lists.values()) closeDuplicates(page, list, info, removed);
  if (removed.size > 0) page.items = page.items.filter((i) => !(i.kind === 'text' && removed.has(i)));
}

function fillMacros(fonts: FontService, t: PreparedText, pageNo: number, total: number): void {
  const sub = (s: string): string => s.replaceAll('[Page#]', String(pageNo)).replaceAll('[TotalPages#]', String(total));
  t.text = sub(t.text);
  for (const l of t.lines) {
    const text = sub(l.text);
    if (text === l.text) continue;
    l.text = text;
    l.width = measureWidth(text, t.font, fonts);
    delete l.segments;
  }
  for (const l of t.html ?? []) {
    let shift = 0;
    for (const r of l.runs) {
      r.x += shift;
      const text = sub(r.text);
      if (text === r.text) continue;
      const w = measureWidth(text, r.font, fonts);
      shift += w - r.width;
      l.width += w - r.width;
      r.text = text;
      r.width = w;
    }
  }
  positionLines(t);
}

/** One page (`pageNo` of `total`, physical): what postprocess does to each (page-stream.ts runs
 *  it on pages given away before the run ends). */
export function postprocessPage(
  page: PreparedPage,
  pageNo: number,
  total: number,
  records: PostprocessRecords,
  fonts: FontService,
): void {
  // Most reports have no Duplicates texts and no page macros: no scan of every item then.
  if (records.duplicates.size > 0) processDuplicates(page, records.duplicates);
  if (records.macroItems.size > 0)
    for (const it of page.items)
      if (it.kind === 'text' && records.macroItems.has(it)) fillMacros(fonts, it, pageNo, total);
}

export function postprocess(pages: readonly PreparedPage[], records: PostprocessRecords, fonts: FontService): void {
  pages.forEach((page, i) => {
    postprocessPage(page, i + 1, pages.length, records, fonts);
  });
}
