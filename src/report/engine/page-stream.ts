// Streaming the output's pages (memory): a caller that writes pages as they come (the PDF writer)
// gives the engine a sink (EngineOptions.onPage), and the pass whose pages are the output hands
// each page to it as soon as nothing writes to it any more (pages.ts: before the current page and
// before an open keep block, as a first pass drops its pages), post-processed as the run's end
// would (duplicates, page-number macros, watermark), then empties it. So a 100,000-row report
// never holds its 563,000 items at once.
//
// What a page needs must be known when it goes: `[TotalPages#]`'s count comes from the first pass
// of a double-pass report. A single-pass report that needs the total holds its pages (as without a
// sink) up to HOLD_PAGES; past that it runs again as a double pass whose final pass streams, when
// running twice cannot change the output: no script, no pass-dependent name, no PrintOn that
// knows the last page (statically), and the final pass reads no page total a single pass would
// have read differently (checked as it runs; else StreamRestart). Reports with what
// needs every page at the end (internal links, outline, unlimited pages) are not streamed: see
// streamBlocker. Whatever holds, every page reaches the sink, in order, before the run returns.

import type { ReportModel } from '../frx/model.js';
import { printsByLastPage } from './print-on.js';
import type { EngineContext } from './context.js';
import { postprocessPage } from './postprocess.js';
import type { PreparedPage } from './prepared.js';
import { watermarker } from './watermark.js';

/** Receives the output's pages, in order, each once; its items are emptied after the call. */
export type PageSink = (page: PreparedPage) => void;

/** A single-pass report that needs the page total holds this many pages before it runs again as
 *  a double pass that streams: ≈ 13,000 rows of the generated list, ≈ 35 MB of items (a 10,000-row
 *  list, 189 pages, stays one pass). The restart wastes their layout (~0.25 s there), and V8
 *  keeps the heap they grew: 500 pages left the 100,000-row peak RSS at 340–354 MB. */
export const HOLD_PAGES = 250;

/** Pages already given to the sink turn out wrong (the final pass counted other pages than the
 *  first, the report has an outline after all…): the caller drops what it got and renders again
 *  without a sink. */
export class StreamRestart extends Error {
  constructor(reason: string) {
    super(`streamed pages cannot be used: ${reason}`);
    this.name = 'StreamRestart';
  }
}

/** Thrown out of a single pass that should run again as a double pass (Engine.run catches it). */
export class RunAsDoublePass extends Error {}

/** Every value of the template under `root` (objects, arrays, maps, strings: texts, expressions,
 *  script, raw attributes), each object once: what a check must not miss, wherever it is. */
function* modelValues(root: unknown): Generator<unknown> {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v !== null && typeof v === 'object') {
      if (ArrayBuffer.isView(v) || seen.has(v)) continue;
      seen.add(v);
      yield v;
      for (const x of v instanceof Map ? v.values() : Object.values(v)) stack.push(x);
    } else yield v;
  }
}

function mentions(report: ReportModel, re: RegExp): boolean {
  for (const v of modelValues(report)) if (typeof v === 'string' && re.test(v)) return true;
  return false;
}

/** A component whose PrintOn makes it print differently on a double pass's last page. */
function knowsLastPage(report: ReportModel): boolean {
  for (const v of modelValues(report.pages)) {
    const flags = (v as { printOn?: unknown } | null | undefined)?.printOn;
    if (Array.isArray(flags) && printsByLastPage(flags as string[])) return true;
  }
  return false;
}

const INTERNAL_LINKS = new Set(['PageNumber', 'Bookmark', 'DetailPage', 'DetailReport']);

function findBlocker(report: ReportModel): string | undefined {
  if (report.pages.some((p) => p.unlimitedHeight || p.unlimitedWidth)) return 'an unlimited page';
  for (const v of modelValues(report.pages)) {
    if (v === null || typeof v !== 'object') continue;
    const o = v as { hyperlink?: { kind?: string }; outlineExpression?: unknown };
    if (o.hyperlink?.kind !== undefined && INTERNAL_LINKS.has(o.hyperlink.kind)) return 'a link inside the document';
    if (typeof o.outlineExpression === 'string' && o.outlineExpression.trim() !== '') return 'an outline';
  }
  return undefined;
}

/** What a template says about streaming; it never changes, so each fact walks the model once per
 *  loaded template rather than on every render (workers reuse their loaded templates). */
interface StreamFacts {
  blocker: string | undefined;
  /** A page total is read somewhere. */
  readsTotal: boolean;
  /** A single pass and a double pass's final pass could differ (pass names, last-page PrintOn). */
  passDependent: boolean;
}

const facts = new WeakMap<ReportModel, StreamFacts>();

function streamFacts(report: ReportModel): StreamFacts {
  let f = facts.get(report);
  if (!f) {
    f = {
      blocker: findBlocker(report),
      readsTotal: mentions(report, /TotalPages|PageNofM/),
      passDependent: mentions(report, /FinalPass|FirstPass|DoublePass|GetBookmarkPage/) || knowsLastPage(report),
    };
    facts.set(report, f);
  }
  return f;
}

/** Why this report's pages cannot be streamed, or undefined. Links inside the document need their
 *  targets (every page's) before the first page is written; the outline anchors its entries to
 *  items once the run is over; an unlimited page is sized once its report page has run; detail
 *  pages are appended at the end. A script can still make such links or entries: the sink's
 *  owner checks the pages it gets, and the engine the outline (StreamRestart). */
export function streamBlocker(report: ReportModel): string | undefined {
  return streamFacts(report).blocker;
}

/** The run's streaming state (EngineContext.stream, set when the run has a sink). */
export class PageStream {
  /** Pages below this index went to the sink. */
  private given = 0;
  /** 'stream': finished pages go at once; 'hold': all at the end; 'restart': hold, and past
   *  HOLD_PAGES run again as a double pass. */
  private readonly mode: 'stream' | 'hold' | 'restart';
  private readonly watermark: ((page: PreparedPage) => void) | undefined;
  /** Why the pages cannot be given (found while an expression ran; see totalRead). */
  private wrong: string | undefined;

  /** `restarted`: the run is the double pass a single pass became (RunAsDoublePass). */
  constructor(
    private readonly e: EngineContext,
    private readonly sink: PageSink,
    hasScript: boolean,
    private readonly restarted: boolean,
  ) {
    const report = e.report;
    const f = streamFacts(report);
    if (f.blocker !== undefined) this.mode = 'hold';
    else if (e.passes.doublePass || !f.readsTotal) this.mode = 'stream';
    else if (hasScript || f.passDependent) this.mode = 'hold';
    else this.mode = 'restart';
    this.watermark = watermarker(e, report.pages);
  }

  /** A page was added: in the output's pass, the finished pages before it go to the sink. */
  pageAdded(): void {
    const e = this.e;
    if (!e.passes.finalPass) return;
    if (this.mode === 'restart' && e.cursor.pages.length > HOLD_PAGES) throw new RunAsDoublePass();
    if (this.mode !== 'stream') return;
    if (this.wrong !== undefined) throw new StreamRestart(this.wrong);
    const limit = e.keep.keeping ? Math.min(e.cursor.curPage, e.keep.page) : e.cursor.curPage;
    if (limit <= this.given) return;
    // Engine.GetBookmarkPage reads the bookmarks of the pages so far.
    e.bookmarks.search(e.cursor.pages, limit);
    const total = e.passes.doublePass ? e.passes.firstPassPageCount : e.cursor.pages.length;
    for (let i = this.given; i < limit; i++) this.give(i, total);
    this.given = limit;
  }

  private give(i: number, total: number): void {
    const e = this.e;
    const page = e.cursor.pages[i] as PreparedPage;
    postprocessPage(page, i + 1, total, e.records, e.fonts);
    this.watermark?.(page);
    this.sink(page);
    // The records of its items are not needed any more (they would hold the items).
    if (e.records.duplicates.size > 0 || e.records.macroItems.size > 0)
      for (const it of page.items) {
        if (it.kind !== 'text') continue;
        e.records.duplicates.delete(it);
        e.records.macroItems.delete(it);
      }
    page.items = [];
  }

  /** A page total was read: `asSinglePass` says whether a single pass would have read the same.
   *  In the final pass of a run that was a single pass, a different value would print
   *  differently: the pages given may be wrong. */
  totalRead(asSinglePass: boolean): void {
    // Not thrown here: an expression's evaluation would wrap it. The page it is read for is not
    // given yet; pageAdded and end throw before giving it.
    if (this.restarted && this.e.passes.finalPass && !asSinglePass)
      this.wrong ??= 'a page total is read that the single pass would not know';
  }

  /** The run is over: the pages not given yet are post-processed and given. Throws
   *  StreamRestart when the pages given already were made with what turned out wrong. */
  end(outlineEntries: number): void {
    const e = this.e;
    const pages = e.cursor.pages;
    if (this.given > 0 && e.passes.doublePass && pages.length !== e.passes.firstPassPageCount)
      throw new StreamRestart(`the final pass has ${pages.length} pages, the first ${e.passes.firstPassPageCount}`);
    if (outlineEntries > 0) throw new StreamRestart('the report has an outline');
    if (this.wrong !== undefined) throw new StreamRestart(this.wrong);
    for (let i = this.given; i < pages.length; i++) this.give(i, pages.length);
    this.given = pages.length;
  }

  /** The index of the first page not given to the sink yet. */
  get held(): number {
    return this.given;
  }
}
