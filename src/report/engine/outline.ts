// The document outline (FastReport's PreparedPages.Outline): a band with an OutlineExpression adds
// an entry where it prints (its page and top), a data band's or group header's entry holding the
// entries of the bands printed inside it (their details) until the row or group ends; a report
// page's OutlineExpression adds an entry where the report page starts, holding its bands'.
// Exporters make it the PDF's bookmarks panel and the HTML's table of contents.
// An entry keeps the first item of its band: a block kept together that moves to the next page
// takes its entries along (their page and top are read from that item once the pass is over).

import type { PreparedItem, PreparedOutlineEntry, PreparedPage } from './prepared.js';

interface Entry extends PreparedOutlineEntry {
  children: Entry[];
  /** What added it (a band): only that takes it off the path again. */
  key?: object;
  /** The band's first item, and its top within the band. */
  anchor?: { item: PreparedItem; top: number };
}

/** Entries in one report at most (a report of a million rows with an outline per row is cut). */
const MAX_ENTRIES = 100_000;

export class Outline {
  private roots: Entry[] = [];
  /** The entry new entries go under (none: the root). */
  private path: Entry[] = [];
  private count = 0;

  /** Adds an entry under the current one, and makes it the current one. */
  add(title: string, page: number, y: number, anchor?: { item: PreparedItem; top: number }, key?: object): void {
    if (this.count >= MAX_ENTRIES) return;
    this.count++;
    const entry: Entry = { title, page, y, children: [] };
    if (anchor) entry.anchor = anchor;
    if (key) entry.key = key;
    const parent = this.path.at(-1);
    (parent ? parent.children : this.roots).push(entry);
    this.path.push(entry);
  }

  /** The current entry's parent becomes the current one (FastReport's OutlineUp). */
  up(): void {
    this.path.pop();
  }

  /** Ends the entry `key` added (a data row's or a group's), if it is the current one. */
  upFrom(key: object): void {
    if (this.path.at(-1)?.key === key) this.path.pop();
  }

  /** New entries go to the top level (FastReport's OutlineRoot). */
  toRoot(): void {
    this.path = [];
  }

  clear(): void {
    this.roots = [];
    this.path = [];
    this.count = 0;
  }

  /** The entries with their final pages and tops (empty when the report has none). */
  finish(pages: readonly PreparedPage[]): PreparedOutlineEntry[] {
    if (this.roots.length === 0) return [];
    const anchored = new Map<PreparedItem, Entry[]>();
    const collect = (list: Entry[]): void => {
      for (const e of list) {
        if (e.anchor) {
          const list = anchored.get(e.anchor.item);
          if (list) list.push(e);
          else anchored.set(e.anchor.item, [e]);
        }
        collect(e.children);
      }
    };
    collect(this.roots);
    for (const page of pages)
      for (const it of page.items)
        for (const e of anchored.get(it) ?? []) {
          e.page = page.index;
          e.y = it.y - (e.anchor?.top ?? 0);
        }
    const plain = (list: Entry[]): PreparedOutlineEntry[] =>
      list.map((e) => ({ title: e.title, page: e.page, y: e.y, children: plain(e.children) }));
    return plain(this.roots);
  }
}
