// The report engine's state and its run: one or two passes over the report pages (two when the
// report is DoublePass or shows the total page count), then the prepared-page post-processing.
// The work is split like FastReport's ReportEngine partial class (see README, Modules); the
// modules take the engine as an EngineContext (context.ts), and its state is grouped by concern
// into the objects below.

import type { DataContext } from '../data/index.js';
import { ReportWarnings, TemplateError } from '../errors.js';
import type { TypedValue } from '../expr/index.js';
import { allBands } from '../frx/load.js';
import type { BandModel, ReportModel, ReportPageModel } from '../frx/model.js';
import { createFormatter, EN_US, type Culture, type Formatter } from '../format/index.js';
import { defaultFontService, type FontService, type FontSpec, type ResolvedFont } from '../text/index.js';
import { growObjects } from './band-layout.js';
import { BandStates } from './band-states.js';
import type { CellData, EngineContext, EngineFlow } from './context.js';
import { runBands } from './databands.js';
import { Expressions } from './expressions.js';
import { isGroupEmpty, runGroup } from './groups.js';
import { KeepBlock } from './keep.js';
import { RunLimits } from './limits.js';
import { objectData, objectItems } from './objects.js';
import { DialogForms } from './dialogs.js';
import { startScript } from './script.js';
import { DEFAULT_SCRIPT_LIMITS, type ScriptLimits } from '../script/interpreter.js';
import { NO_SCRIPT, type ScriptEvents } from './script-events.js';
import { printTables } from './table-pages.js';
import { PageCursor } from './page-cursor.js';
import { PageNumbering } from './page-numbers.js';
import { resetLogicalPageNumber } from './page-numbers.js';
import { endColumn, endLastPage, fitUnlimitedPages, showReprintFooters, startFirstPage } from './pages.js';
import { Passes } from './passes.js';
import { fillLateTotals } from './late-totals.js';
import { passPlan } from './pass-plan.js';
import { Bookmarks } from './bookmarks.js';
import { Outline } from './outline.js';
import { EngineProxy } from './script-model/report.js';
import { postprocess, PostprocessRecords } from './postprocess.js';
import { addWatermarks } from './watermark.js';
import { PageStream, RunAsDoublePass, StreamRestart, type PageSink } from './page-stream.js';
import type { PreparedReport } from './prepared.js';
import { Reprints } from './reprint.js';
import { ReportScope } from './scope.js';
import { ReportStructure } from './structure.js';
import { StyleSheet } from './styles.js';
import { renderInnerSubreports, renderOuterSubreports } from './subreports.js';
import { Totals } from './totals.js';

/** The page limit of a run that sets none (Settings:RenderMaxPages has the same default). */
export const DEFAULT_MAX_PAGES = 10_000;

export interface EngineOptions {
  /** Formats numbers and dates (en-US by default). */
  culture?: Culture;
  /** The report's start time as a wall clock ("Date", DateTime.Now); default: now, local time. */
  now?: Date;
  /** The run's page limit (default 10,000): a report that needs more pages fails with
   *  RenderTooLargeError, unless `truncatePages` is set. A template's own MaxPages, when not
   *  larger, is the author's choice instead: the report stops there with a warning, no error. */
  maxPages?: number;
  /** Stop at `maxPages` with the pages so far (the prepared report says `truncated`) instead of
   *  failing: for a caller that asked for the first pages only. */
  truncatePages?: boolean;
  /** Most data rows the engine walks in one pass (default 1,000,000). */
  maxRows?: number;
  /** Report parameter values by name (they win over the template's). */
  parameters?: Record<string, unknown>;
  /** The report script's budgets for the whole render (defaults: DEFAULT_SCRIPT_LIMITS). */
  scriptLimits?: Partial<Pick<ScriptLimits, 'maxSteps' | 'maxItems'>>;
  fonts?: FontService;
  /** Run this one page of the report (a DetailPage hyperlink's page, usually hidden) instead of
   *  its visible pages, without its dialogs: the run that shows a clicked value's details. */
  detailPage?: string;
  /** Hand the output's pages to this as they are finished instead of holding them all
   *  (page-stream.ts): every page reaches it, in order, and the prepared report's pages come
   *  back without items. Throws StreamRestart (page-stream.ts) when pages it got are wrong after
   *  all: render again without it. */
  onPage?: PageSink;
}

/** The local wall clock as a Date whose UTC fields are the local time (the engine's DateTime). */
function localWallClock(): Date {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
}

export class Engine implements EngineContext {
  readonly warnings: ReportWarnings;
  readonly fonts: FontService;
  readonly culture: Culture;
  readonly formatter: Formatter;
  readonly scope: ReportScope;
  readonly exprs: Expressions;
  readonly styles: StyleSheet;
  readonly totals: Totals;
  readonly date: Date;
  readonly structure: ReportStructure;
  readonly limits: RunLimits;
  readonly passes: Passes;
  readonly bookmarks = new Bookmarks();
  readonly outline = new Outline();
  /** `Engine` in the report's expressions (GetBookmarkPage, CurPage …), made on first use. */
  private engineObject: EngineProxy | undefined;
  // The state of a pass, by concern (each class's file says what it holds).
  readonly cursor = new PageCursor();
  readonly numbering = new PageNumbering();
  readonly bands = new BandStates();
  readonly keep = new KeepBlock();
  readonly reprints = new Reprints();
  readonly records = new PostprocessRecords();
  script: ScriptEvents = NO_SCRIPT;
  readonly stream: PageStream | undefined;
  cellData: CellData | undefined = undefined;
  private readonly dialogs: DialogForms;
  readonly flow: EngineFlow = {
    endColumn,
    showReprintFooters,
    runGroup,
    isGroupEmpty,
    objectData,
    objectItems,
    growObjects,
    renderInnerSubreports,
    renderOuterSubreports,
    printTables,
  };
  private readonly resolvedFonts = new WeakMap<FontSpec, ResolvedFont>();

  constructor(
    readonly report: ReportModel,
    readonly data: DataContext,
    private readonly options: EngineOptions = {},
    warnings?: ReportWarnings,
    /** Keep the first pass's pages whole (set for the rerun of a first pass that became the
     *  output, see run()). */
    private readonly keepFirstPassPages = false,
    /** Run two passes even if the report needs one (a single pass that would hold too many
     *  pages, see page-stream.ts). */
    private readonly restarted = false,
  ) {
    this.warnings = warnings ?? new ReportWarnings();
    this.fonts = options.fonts ?? defaultFontService();
    this.culture = options.culture ?? EN_US;
    this.formatter = createFormatter(this.culture);
    this.date = options.now ?? localWallClock();
    this.limits = new RunLimits(
      options.maxPages ?? DEFAULT_MAX_PAGES,
      report.maxPages,
      options.maxRows ?? 1_000_000,
      options.truncatePages ?? false,
      this.warnings,
    );
    // A single pass made a double one (page-stream.ts) evaluates its totals as two passes do: the
    // plan chose one pass only where that prints the same.
    const plan = passPlan(report);
    this.passes = restarted ? new Passes(true) : new Passes(plan.doublePass, plan.lateTotals);
    this.structure = new ReportStructure(report);
    this.scope = new ReportScope({
      report,
      data,
      formatter: this.formatter,
      date: this.date,
      convertNulls: report.convertNulls,
      parameterValues: options.parameters ?? {},
      pageNo: () => this.numbering.pageNo(this.cursor.curPage, report.initialPageNumber),
      totalPages: () => {
        // Late totals (pass-plan.ts) read it as the final pass of two would: not a difference.
        this.stream?.totalRead(passPlan(report).lateTotals.size > 0);
        return this.numbering.totalPages(this.cursor.curPage, report.initialPageNumber);
      },
      physicalPageNo: () => this.cursor.curPage + 1,
      physicalTotalPages: () => {
        const n =
          this.passes.finalPass && this.passes.doublePass ? this.passes.firstPassPageCount : this.cursor.pages.length;
        this.stream?.totalRead(n === this.cursor.pages.length);
        return n;
      },
      rowNo: () => (this.bands.current ? this.bands.rt(this.bands.current).rowNo : 0),
      absRowNo: () => (this.bands.current ? this.bands.rt(this.bands.current).absRowNo : 0),
      hierarchyLevel: () => this.bands.hierarchy.level,
      hierarchyRowNo: () => this.bands.hierarchy.rowNo,
      totalValue: (name) => this.totals.value(name),
      hasTotal: (name) => this.totals.has(name),
      calc: (expression, where) => this.exprs.calc(this.scope, `dict:${where}`, expression, where),
      engineObject: () => (this.engineObject ??= new EngineProxy(this)),
    });
    this.exprs = new Expressions(this.scope);
    this.dialogs = new DialogForms(report, options.parameters ?? {}, this.date);
    this.dialogs.expose(this.scope);
    this.styles = new StyleSheet(report.styles, this.warnings);
    this.totals = new Totals(
      report.dictionary.totals,
      (name) => this.structure.bandByName(name),
      {
        calc: (owner, key, source, where) => this.exprs.calc(owner, key, source, where),
        convertNulls: report.convertNulls,
      },
      (m) => this.warnings.add(m),
    );
    // Last: the script's field initialisers may already read the report (totals, data, objects).
    const script = startScript(this, this.dialogs, { ...DEFAULT_SCRIPT_LIMITS, ...options.scriptLimits });
    this.scope.script = script;
    this.script = script ?? NO_SCRIPT;
    this.stream = options.onPage ? new PageStream(this, options.onPage, script !== undefined, restarted) : undefined;
  }

  /** fonts.resolve for a font of the template, once per font object and run (resolving builds
   *  a key from the family name on every call; texts are measured tens of thousands of times). */
  resolveFont(font: FontSpec): ResolvedFont {
    let r = this.resolvedFonts.get(font);
    if (!r) this.resolvedFonts.set(font, (r = this.fonts.resolve(font, this.warnings)));
    return r;
  }

  /** Evaluates a text (Row#, totals… of the current state) outside any object, for tests. */
  evaluate(expression: string): TypedValue {
    return this.exprs.calc(this, `eval:${expression}`, expression, 'expression');
  }

  run(): PreparedReport {
    const passes = this.passes;
    const limits = this.limits;
    passes.finalPass = !passes.doublePass;
    if (!this.keepFirstPassPages && this.options.detailPage === undefined) this.dialogs.run(this.script);
    this.script.fire('Report', this.report.events, 'StartReportEvent');
    passes.dropFinishedPages = passes.doublePass && !this.keepFirstPassPages;
    try {
      this.runPass();
    } catch (e) {
      if (!(e instanceof RunAsDoublePass)) throw e;
      // A single pass that needs the page total and would hold too many pages: a double pass
      // whose final pass streams (the stream chose this only where two passes change nothing).
      // This run's pages are not needed any more: they must not stay alive through the next.
      this.cursor.clear();
      this.records.clear();
      for (const s of this.data.sources) s.reset();
      return new Engine(this.report, this.data, { ...this.options, now: this.date }, this.warnings, false, true).run();
    }
    resetLogicalPageNumber(this);
    if (passes.dropFinishedPages && limits.aborted) {
      // A first pass of what was a single pass is not one: its output is the single pass's.
      if (this.restarted) throw new StreamRestart('the report stopped at a limit');
      // The first pass stopped at a limit, so its pages are the output after all, and it dropped
      // them as it went: run it again keeping them. A fresh engine, so nothing of the stopped run
      // carries over (the data sources start over as for a second pass; same clock).
      for (const s of this.data.sources) s.reset();
      return new Engine(this.report, this.data, { ...this.options, now: this.date }, this.warnings, true).run();
    }
    passes.dropFinishedPages = false;
    if (passes.doublePass && !limits.aborted) {
      passes.firstPassPageCount = this.cursor.pages.length;
      this.bookmarks.endFirstPass(this.cursor.pages);
      passes.finalPass = true;
      this.resetForSecondPass();
      this.runPass();
    }
    // Pages are only added with roomForPage; this is a guard, and it cuts only as that would.
    const pages = this.cursor.pages;
    if (pages.length > limits.maxPages) {
      pages.length = limits.maxPages;
      limits.roomForPage(pages.length);
    }
    // Late totals are never on a page given already (a single pass streams at once only without
    // totals, a restarted one has none): fill those of the pages held.
    fillLateTotals(this, this.records.lateItems);
    if (!this.stream) {
      postprocess(pages, this.records, this.fonts);
      addWatermarks(this, pages, this.report.pages);
    }
    this.script.fire('Report', this.report.events, 'FinishReportEvent');
    const prepared: PreparedReport = limits.truncated ? { pages, truncated: true } : { pages };
    const outline = this.outline.finish(pages);
    if (outline.length > 0) prepared.outline = outline;
    // The pages not given yet go now, post-processed as above (scripts cannot reach prepared
    // pages, so FinishReportEvent before that changes nothing).
    this.stream?.end(outline.length);
    return prepared;
  }

  private resetForSecondPass(): void {
    this.cursor.clear();
    this.totals.clear();
    this.bands.clear();
    this.records.clear();
    this.numbering.restart();
    this.outline.clear();
    this.keep.keeping = false;
    this.limits.rowsVisited = 0;
    for (const s of this.data.sources) s.reset();
  }

  private runPass(): void {
    const only = this.options.detailPage;
    for (const page of this.report.pages) {
      if (only !== undefined ? page.name !== only : !page.visible || page.subreportOf !== '') continue;
      if (this.limits.aborted) break;
      this.runPage(page);
    }
  }

  private runPage(page: ReportPageModel): void {
    this.cursor.page = page;
    this.reprints.clear();
    // The deepest DataBand keeps the report summary with its last row.
    let deepest: BandModel | undefined;
    for (const b of allBands(page)) if (b.type === 'DataBand') deepest = b;
    if (deepest) this.bands.rt(deepest).keepSummary = true;
    const firstPage = this.cursor.pages.length;
    startFirstPage(this);
    runBands(this, page.bands);
    endLastPage(this);
    fitUnlimitedPages(this, firstPage - (page.printOnPreviousPage ? 1 : 0));
  }
}

/** Runs a report over bound data and returns the prepared pages. */
export function runReport(
  report: ReportModel,
  data: DataContext,
  options: EngineOptions = {},
  warnings?: ReportWarnings,
): PreparedReport {
  const engine = new Engine(report, data, options, warnings);
  try {
    return engine.run();
  } catch (e) {
    if (e instanceof TemplateError || e instanceof RangeError)
      throw e instanceof RangeError ? new TemplateError(`the report is too complex: ${e.message}`) : e;
    throw e;
  }
}
