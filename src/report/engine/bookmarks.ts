// Bookmarks (FastReport's PreparedPages.Bookmarks): the page on which each bookmark name first
// prints, for Engine.GetBookmarkPage (a table of contents). A page's bookmarks are its items'
// `bookmark`; pages are searched once they are finished (the engine writes only to the current
// page), and before a first pass drops their items. A double-pass report's final pass also sees
// the first pass's bookmarks, so a contents page before the chapters gets their pages.

import type { PreparedPage } from './prepared.js';

export class Bookmarks {
  private firstPass: Map<string, number> | undefined;
  private current = new Map<string, number>();
  /** Pages of this pass already searched. */
  private searched = 0;

  /** Records the bookmarks of the pages before `upTo` not searched yet. */
  search(pages: readonly PreparedPage[], upTo: number): void {
    for (let i = this.searched; i < Math.min(upTo, pages.length); i++) {
      const page = pages[i];
      if (!page) continue;
      for (const it of page.items)
        if (it.bookmark !== undefined && !this.current.has(it.bookmark)) this.current.set(it.bookmark, page.index);
    }
    this.searched = Math.max(this.searched, upTo);
  }

  /** The 1-based page of a bookmark, 0 when it has not printed (yet). */
  pageOf(name: string, pages: readonly PreparedPage[], curPage: number): number {
    this.search(pages, curPage);
    return this.current.get(name) ?? this.firstPass?.get(name) ?? 0;
  }

  /** The first pass is over: its bookmarks (every page searched) serve the final pass. */
  endFirstPass(pages: readonly PreparedPage[]): void {
    this.search(pages, pages.length);
    this.firstPass = this.current;
    this.current = new Map();
    this.searched = 0;
  }
}
