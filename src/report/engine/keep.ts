// Keep together (FastReport's ReportEngine.Keep): the bands printed while a keep block is open
// move together to the next column or page when one of them does not fit. The block's items
// are cut from their page and pasted at the top of the next one.

import type { BandModel } from '../frx/model.js';
import type { BandStates } from './band-states.js';
import type { PageCursor } from './page-cursor.js';
import type { PreparedItem } from './prepared.js';
import { moveItem } from './prepared.js';
import type { Reprints } from './reprint.js';
import type { Totals } from './totals.js';

export class KeepBlock {
  keeping = false;
  /** Where the block started: page, its item count, the position. */
  page = 0;
  position = 0;
  curY = 0;
  curX = 0;
  /** The block's height when it is cut. */
  deltaY = 0;
  /** Items cut from the page while the next page starts. */
  cut: PreparedItem[] | undefined = undefined;
}

/** What keeping reads and changes. */
export interface KeepHost {
  readonly keep: KeepBlock;
  readonly cursor: PageCursor;
  readonly bands: BandStates;
  readonly reprints: Reprints;
  readonly totals: Totals;
}

export function startKeep(e: KeepHost, band?: BandModel): void {
  // The first row on a page is never kept (that would leave an empty page).
  const k = e.keep;
  if (k.keeping || (band && e.bands.rt(band).absRowNo === 1 && !band.firstRowStartsNewPage)) return;
  const c = e.cursor;
  k.keeping = true;
  k.page = c.curPage;
  k.position = c.pages[c.curPage]?.items.length ?? 0;
  k.curY = c.curY;
  k.curX = c.curX;
  k.deltaY = 0;
  k.cut = undefined;
  e.totals.startKeep();
  e.reprints.startKeep();
}

export function endKeep(e: KeepHost): void {
  if (!e.keep.keeping) return;
  e.totals.endKeep();
  e.reprints.endKeep();
  e.keep.keeping = false;
}

/** The next column or page starts while keeping: the block leaves its page. */
export function cutObjects(e: KeepHost): void {
  const k = e.keep;
  const c = e.cursor;
  k.deltaY = c.curY - k.curY;
  const page = c.pages[k.page];
  k.cut = page ? page.items.splice(k.position) : [];
  c.curY = k.curY;
}

/** The block goes to the top of the new column or page, and keeping ends. */
export function pasteObjects(e: KeepHost): void {
  const k = e.keep;
  const c = e.cursor;
  const page = c.pages[c.curPage];
  const cut = k.cut;
  if (cut && page) {
    // Mirrored margins: the block's new page may start further left or right than its old one.
    const from = c.pages[k.page];
    const margin = from ? page.margins.left - from.margins.left : 0;
    const dx = c.curX - k.curX + margin;
    const dy = c.curY - k.curY;
    for (const it of cut) {
      moveItem(it, dx, dy);
      page.items.push(it);
    }
  }
  k.cut = undefined;
  const delta = k.deltaY;
  endKeep(e);
  c.curY += delta;
}
