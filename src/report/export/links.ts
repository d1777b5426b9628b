// Links inside the document, as both exporters make them: a hyperlink of kind Bookmark goes to
// the first item that sets that bookmark (its page, at its top), one of kind PageNumber to the
// top of that page (1-based, as FastReport's Hyperlink.Value), an outline entry to its band's
// place. Only targets something uses become destinations (named in PDF, ids in HTML), and a
// link whose target the document lacks is not exported (rather than a link to nowhere).

import type { PreparedHyperlink, PreparedOutlineEntry, PreparedReport } from '../engine/prepared.js';

/** Where an internal link goes: a short key (its PDF destination name and HTML id), the page
 *  (1-based) and the top in px. */
export interface LinkTarget {
  key: string;
  page: number;
  y: number;
}

export class DocumentLinks {
  private readonly bookmarks = new Map<string, LinkTarget>();
  private readonly pageCount: number;
  /** The targets some link uses, by page. */
  private readonly used = new Map<number, LinkTarget[]>();
  private readonly outlineKeys = new Map<PreparedOutlineEntry, LinkTarget>();

  constructor(report: PreparedReport) {
    this.pageCount = report.pages.length;
    for (const page of report.pages)
      for (const it of page.items) {
        if (it.bookmark === undefined || this.bookmarks.has(it.bookmark)) continue;
        this.bookmarks.set(it.bookmark, { key: `b${this.bookmarks.size + 1}`, page: page.index, y: it.y });
      }
    const seen = new Set<string>();
    const use = (t: LinkTarget): void => {
      if (seen.has(t.key)) return;
      seen.add(t.key);
      const list = this.used.get(t.page);
      if (list) list.push(t);
      else this.used.set(t.page, [t]);
    };
    for (const page of report.pages)
      for (const it of page.items) {
        const t = this.target(it.hyperlink);
        if (t) use(t);
      }
    // The outline's entries are targets too (the HTML's table of contents links to them).
    const walk = (entries: readonly PreparedOutlineEntry[]): void => {
      for (const e of entries) {
        const t = this.outlineTarget(e);
        if (t) use(t);
        walk(e.children);
      }
    };
    walk(report.outline ?? []);
  }

  /** Where an outline entry goes (undefined when its page is not in the document). */
  outlineTarget(e: PreparedOutlineEntry): LinkTarget | undefined {
    let t = this.outlineKeys.get(e);
    if (!t && Number.isInteger(e.page) && e.page >= 1 && e.page <= this.pageCount) {
      t = { key: `o${this.outlineKeys.size + 1}`, page: e.page, y: e.y };
      this.outlineKeys.set(e, t);
    }
    return t;
  }

  /** The place an internal hyperlink goes to; undefined for an external one or a missing target. */
  target(h: PreparedHyperlink | undefined): LinkTarget | undefined {
    if (!h) return undefined;
    if (h.kind === 'bookmark') return this.bookmarks.get(h.target);
    if (h.kind !== 'page') return undefined;
    const n = Number(h.target.trim());
    if (!Number.isInteger(n) || n < 1 || n > this.pageCount) return undefined;
    return { key: `p${n}`, page: n, y: 0 };
  }

  /** The destinations on a page that links go to. */
  destinationsOn(page: number): readonly LinkTarget[] {
    return this.used.get(page) ?? [];
  }
}
