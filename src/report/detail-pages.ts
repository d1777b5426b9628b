// Drill-down in a document: FastReport's DetailPage and DetailReport hyperlinks open, in its
// preview, the clicked value's details (a hidden page of the report, or another report, run with
// the value in a report parameter). A document has no preview to run them in, so each distinct
// (detail, value) is run once here, its pages are appended after the report's own, and every
// link to it becomes a link to the first of those pages. Detail pages' own detail links are
// followed the same way. Bounded: at most MAX_DETAIL_RUNS runs and the run's page limit in all;
// the links past the limit print as plain text, and one warning says how many.

import type { PreparedDetailTarget, PreparedHyperlink, PreparedPage, PreparedReport } from './engine/prepared.js';
import type { ReportWarnings } from './errors.js';

/** The most detail runs one document makes (one per distinct detail and value). */
export const MAX_DETAIL_RUNS = 500;

/** Runs a detail with a value: its pages (numbered from 1, links within them as they were), or
 *  undefined when it cannot run (the runner has said why in a warning). At most `maxPages`
 *  pages: past that it throws the engine's RenderTooLargeError. */
export type DetailRunner = (
  detail: PreparedDetailTarget,
  value: string,
  maxPages: number,
) => PreparedPage[] | undefined;

const keyOf = (h: PreparedHyperlink): string =>
  JSON.stringify([h.detail?.page ?? '', h.detail?.report ?? '', h.detail?.parameter ?? '', h.target]);

/** Appends the detail pages the report's detail links need, and points the links at them. */
export function appendDetailPages(
  prepared: PreparedReport,
  run: DetailRunner,
  maxPages: number,
  warnings: ReportWarnings,
): void {
  const firstPageOf = new Map<string, number | undefined>();
  let runs = 0;
  let dropped = 0;
  let limited = false;
  const pages = prepared.pages;
  // The list grows while it is walked: appended pages are walked too.
  for (let p = 0; p < pages.length; p++) {
    for (const it of (pages[p] as PreparedPage).items) {
      const h = it.hyperlink;
      if (h?.kind !== 'detail' || !h.detail) continue;
      const key = keyOf(h);
      if (!firstPageOf.has(key)) {
        if (limited || runs >= MAX_DETAIL_RUNS || pages.length >= maxPages) {
          limited = true;
          delete it.hyperlink;
          dropped++;
          continue;
        }
        runs++;
        let detailPages: PreparedPage[] | undefined;
        try {
          detailPages = run(h.detail, h.target, maxPages - pages.length);
        } catch (err) {
          if (!(err instanceof Error && err.name === 'RenderTooLargeError')) throw err;
          limited = true;
        }
        firstPageOf.set(key, detailPages && detailPages.length > 0 ? append(pages, detailPages) : undefined);
      }
      const first = firstPageOf.get(key);
      if (first === undefined) {
        delete it.hyperlink;
        dropped++;
      } else it.hyperlink = { kind: 'page', target: String(first), newTab: false };
    }
  }
  if (limited && dropped > 0)
    warnings.add(
      `${dropped} detail link(s) print as plain text: the document reached its limit of ` +
        `${MAX_DETAIL_RUNS} detail runs or ${maxPages} pages`,
    );
}

/** Appends pages numbered from 1 after the document's; their page links move with them. The
 *  1-based number of the first. */
function append(pages: PreparedPage[], added: readonly PreparedPage[]): number {
  const offset = pages.length;
  for (const page of added) {
    page.index += offset;
    for (const it of page.items) {
      const h = it.hyperlink;
      if (h?.kind === 'page' && /^\s*\d+\s*$/.test(h.target))
        it.hyperlink = { ...h, target: String(Number(h.target) + offset) };
    }
    pages.push(page);
  }
  return offset + 1;
}
