// Where the engine writes (FastReport's CurX/CurY/CurColumn and PreparedPages): the prepared
// pages so far, the current page and its report page, and the position on it.

import { MM_TO_PX, type BandModel, type ReportPageModel } from '../frx/model.js';
import type { PreparedPage } from './prepared.js';

/** The size of an unlimited page while it is laid out (about 26 m). */
export const UNLIMITED_PX = 100_000;

export class PageCursor {
  pages: PreparedPage[] = [];
  /** Index of the current page in `pages` (-1 before the first). */
  curPage = -1;
  /** The report page being run. */
  page!: ReportPageModel;
  curX = 0;
  curY = 0;
  curColumn = 0;
  columnStartY = 0;
  /** Left offset of the band being printed (a repeated band prints where it was first). */
  originX = 0;
  /** Pages below this index have dropped their items (pages.ts, dropFinishedPages). */
  droppedBefore = 0;
  /** Heights of page/column footers per page (they are measured often). */
  readonly footerHeights = new Map<BandModel, { page: number; height: number }>();
  /** Per prepared page: the lowest band bottom and the rightmost object edge, from the page's
   *  top-left corner (an unlimited page is cut to them once its report page has run). */
  readonly extents = new Map<number, { bottom: number; right: number }>();

  // FastReport's PageWidth/PageHeight: paper minus margins; an unlimited page has room for
  // everything while it is laid out.
  get pageWidth(): number {
    if (this.page.unlimitedWidth) return UNLIMITED_PX;
    return (this.page.paperWidth - this.page.leftMargin - this.page.rightMargin) * MM_TO_PX;
  }

  get pageHeight(): number {
    if (this.page.unlimitedHeight) return UNLIMITED_PX;
    return (this.page.paperHeight - this.page.topMargin - this.page.bottomMargin) * MM_TO_PX;
  }

  /** CurY from the current page's top edge (its top margin included): where an outline entry
   *  made now points. */
  get yOnPage(): number {
    return (this.pages[this.curPage]?.margins.top ?? 0) + this.curY;
  }

  /** Before a second pass: no pages yet. */
  clear(): void {
    this.pages = [];
    this.curPage = -1;
    this.droppedBefore = 0;
    this.footerHeights.clear();
    this.extents.clear();
  }
}
