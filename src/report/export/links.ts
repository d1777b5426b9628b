// Links inside the document, as both exporters make them: a hyperlink of kind Bookmark goes to
// the first item that sets that bookmark (its page, at its top), one of kind PageNumber to the
// top of that page (1-based, as FastReport's Hyperlink.Value). Only targets some link uses
// become destinations (named in PDF, ids in HTML), and a link whose target the document lacks
// is not exported (rather than a link to nowhere).

import type { PreparedHyperlink, PreparedReport } from '../engine/prepared.js';

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

  constructor(report: PreparedReport) {
    this.pageCount = report.pages.length;
    for (const page of report.pages)
      for (const it of page.items) {
        if (it.bookmark === undefined || this.bookmarks.has(it.bookmark)) continue;
        this.bookmarks.set(it.bookmark, { key: `b${this.bookmarks.size + 1}`, page: page.index, y: it.y });
      }
    const seen = new Set<string>();
    for (const page of report.pages)
      for (const it of page.items) {
        const t = this.target(it.hyperlink);
        if (!t || seen.has(t.key)) continue;
        seen.add(t.key);
        const list = this.used.get(t.page);
        if (list) list.push(t);
        else this.used.set(t.page, [t]);
      }
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
