// Drill-down in a document: FastReport's DetailPage and DetailReport hyperlinks open, in its
// preview, the clicked value's details (a hidden page of the report, or another report, run with
// the value in a report parameter). A document has no preview to run them in, so each distinct
// (detail, value) is run once here, its pages are appended after the report's own, and every
// link to it becomes a link to the first of those pages. Detail pages' own detail links are
// followed the same way: a DetailPage link runs a page of the report its page came from, with
// the parameters that run had (FastReport's preview keeps one report's parameters across clicks),
// a DetailReport link starts the other report afresh. Bounded: at most MAX_DETAIL_RUNS runs and
// the run's page limit in all; the links past the limit print as plain text, with one warning.

import type { PreparedDetailTarget, PreparedPage, PreparedReport } from './engine/prepared.js';
import type { ReportWarnings } from './errors.js';

/** The most detail runs one document makes (one per distinct detail and value). */
export const MAX_DETAIL_RUNS = 500;

/** Where a page comes from: the report (undefined: the one rendered; else a DetailReport's file
 *  name) and the parameter values its run had. */
export interface DetailOrigin {
  report?: string;
  parameters: Readonly<Record<string, unknown>>;
}

/** A detail run, planned: `key` says what runs with what (two links with equal keys share their
 *  pages); `run` gives its pages (numbered from 1, links within them as they were) and their
 *  origin, or undefined when it cannot run (having said why in a warning), at most `maxPages`
 *  of them (past that it throws the engine's RenderTooLargeError). */
export interface DetailRun {
  key: string;
  run(maxPages: number): { pages: PreparedPage[]; origin: DetailOrigin } | undefined;
}

/** Plans the run of a detail link's target with its value, from a page of `from`. */
export type DetailRunner = (detail: PreparedDetailTarget, value: string, from: DetailOrigin) => DetailRun;

const MAIN: DetailOrigin = { parameters: {} };

/** Appends the detail pages the report's detail links need, and points the links at them. */
export function appendDetailPages(
  prepared: PreparedReport,
  run: DetailRunner,
  maxPages: number,
  warnings: ReportWarnings,
): void {
  const firstPageOf = new Map<string, number | undefined>();
  const pages = prepared.pages;
  const origins: DetailOrigin[] = pages.map(() => MAIN);
  let runs = 0;
  let dropped = 0;
  let limited = false;
  // The list grows while it is walked: appended pages are walked too.
  for (let p = 0; p < pages.length; p++) {
    const from = origins[p] ?? MAIN;
    for (const it of (pages[p] as PreparedPage).items) {
      const h = it.hyperlink;
      if (h?.kind !== 'detail' || !h.detail) continue;
      const planned = run(h.detail, h.target, from);
      const key = planned.key;
      if (!firstPageOf.has(key)) {
        if (limited || runs >= MAX_DETAIL_RUNS || pages.length >= maxPages) {
          limited = true;
          delete it.hyperlink;
          dropped++;
          continue;
        }
        runs++;
        let ran: ReturnType<DetailRun['run']>;
        try {
          ran = planned.run(maxPages - pages.length);
        } catch (err) {
          if (!(err instanceof Error && err.name === 'RenderTooLargeError')) throw err;
          limited = true;
        }
        let first: number | undefined;
        if (ran && ran.pages.length > 0) {
          first = append(pages, ran.pages);
          for (const _ of ran.pages) origins.push(ran.origin);
        }
        firstPageOf.set(key, first);
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
