// The report engine's state and its run: one or two passes over the report pages (two when the
// report is DoublePass or shows the total page count), then the prepared-page post-processing.
// The work is split like FastReport's ReportEngine partial class: pages.ts (pages, columns,
// keep, reprint), bands.ts (showing a band), band-layout.ts (a band's objects and height),
// databands.ts, groups.ts, break.ts, postprocess.ts.

import type { DataContext } from '../data/index.js';
import { RenderTooLargeError, ReportWarnings, TemplateError } from '../errors.js';
import type { TypedValue } from '../expr/index.js';
import { allBands } from '../frx/load.js';
import {
  MM_TO_PX,
  type BandModel,
  type DataBandModel,
  type GroupHeaderBandModel,
  type ReportModel,
  type ReportPageModel,
  type TextObjectModel,
} from '../frx/model.js';
import { createFormatter, EN_US, type Culture, type Formatter } from '../format/index.js';
import { defaultFontService, type FontService, type FontSpec, type ResolvedFont } from '../text/index.js';
import { runBands } from './databands.js';
import { Expressions } from './expressions.js';
import { endLastPage, resetLogicalPageNumber, startFirstPage } from './pages.js';
import { postprocess } from './postprocess.js';
import type { OutputBand } from './bands.js';
import type { DuplicateInfo } from './postprocess.js';
import type { PreparedItem, PreparedPage, PreparedReport, PreparedText } from './prepared.js';
import { newBandRt, type BandRt } from './runtime.js';
import { ReportScope } from './scope.js';
import { StyleSheet } from './styles.js';
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
  fonts?: FontService;
}

export interface KeepState {
  page: number;
  position: number;
  curY: number;
  curX: number;
  deltaY: number;
  /** Items cut from the page while the next page starts. */
  cut?: PreparedItem[] | undefined;
}

/** The local wall clock as a Date whose UTC fields are the local time (the engine's DateTime). */
function localWallClock(): Date {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
}

/** True when any text or expression of the report needs the total page count. */
function needsTotalPages(report: ReportModel): boolean {
  const re = /\bTotalPages\b|\bPageNofM\b/;
  for (const page of report.pages) {
    for (const band of allBands(page)) {
      if (re.test(band.visibleExpression)) return true;
      for (const o of band.objects) {
        if (re.test(o.visibleExpression)) return true;
        if (o.type === 'TextObject' && (re.test(o.text) || o.highlight.some((h) => re.test(h.expression)))) return true;
      }
    }
  }
  return false;
}

export class Engine {
  readonly warnings: ReportWarnings;
  readonly fonts: FontService;
  readonly culture: Culture;
  readonly formatter: Formatter;
  readonly scope: ReportScope;
  readonly exprs: Expressions;
  readonly styles: StyleSheet;
  readonly totals: Totals;
  readonly date: Date;
  readonly maxPages: number;
  /** True when maxPages is the template's MaxPages (not larger than the run's limit). */
  private readonly templateStopsPages: boolean;
  /** The report stopped at the run's page limit because truncation was asked for. */
  truncated = false;
  readonly maxRows: number;
  readonly doublePass: boolean;
  private readonly bandsByName = new Map<string, BandModel>();
  /** Structure: a band's parent band (null at page level), a ChildBand's owner, a DataBand's
   *  nearest DataBand above it (for master-detail relations). */
  readonly bandParent = new Map<BandModel, BandModel | null>();
  readonly childParents = new Map<BandModel, BandModel>();
  readonly parentDataBand = new Map<DataBandModel, DataBandModel | null>();

  // Output and position.
  pages: PreparedPage[] = [];
  curPage = -1;
  page!: ReportPageModel;
  curX = 0;
  curY = 0;
  curColumn = 0;
  columnStartY = 0;
  originX = 0;
  finalPass = false;
  aborted = false;
  rowsVisited = 0;
  /** Physical page count of the first pass (TotalPages#). */
  firstPassPageCount = 0;
  /** True during a first pass whose pages are not the output (the second pass lays them out
   *  again; the first is run for the page count): finished pages drop their items then, so a
   *  large report is not held twice (pages.ts, dropFinishedPages). */
  dropFinishedPages = false;
  /** Pages below this index have dropped their items. */
  droppedBefore = 0;

  // Page numbers (FastReport's logical numbering with ResetPageNumber).
  pageNumbers: { pageNo: number; totalPages: number }[] = [];
  logicalPageNo = 0;
  firstReportPage = 0;
  isFirstReportPage = true;

  /** Set while rows of a multi-column data band are collected into one output band. */
  output: OutputBand | null = null;
  /** Text items with Duplicates other than Show, and where their band was printed. */
  readonly duplicates = new Map<PreparedText, DuplicateInfo>();

  // Bands.
  readonly bandRt = new Map<BandModel, BandRt>();
  curBand: BandModel | null = null;
  hierarchyLevel = 1;
  hierarchyIndent = 0;
  hierarchyRowNo = '';

  // Keep together and repeated bands.
  keeping = false;
  keep: KeepState = { page: 0, position: 0, curY: 0, curX: 0, deltaY: 0 };
  reprintHeaders: BandModel[] = [];
  keepReprintHeaders: BandModel[] = [];
  reprintFooters: BandModel[] = [];
  keepReprintFooters: BandModel[] = [];
  /** Heights of page/column footers per page (they are measured often). */
  readonly footerHeights = new Map<BandModel, { page: number; height: number }>();
  /** TextObjects whose text holds [Page#]/[TotalPages#] macros, with their model. */
  readonly macroItems = new Map<object, TextObjectModel>();
  private readonly resolvedFonts = new WeakMap<FontSpec, ResolvedFont>();

  constructor(
    readonly report: ReportModel,
    readonly data: DataContext,
    private readonly options: EngineOptions = {},
    warnings?: ReportWarnings,
    /** Keep the first pass's pages whole (set for the rerun of a first pass that became the
     *  output, see run()). */
    private readonly keepFirstPassPages = false,
  ) {
    this.warnings = warnings ?? new ReportWarnings();
    this.fonts = options.fonts ?? defaultFontService();
    this.culture = options.culture ?? EN_US;
    this.formatter = createFormatter(this.culture);
    this.date = options.now ?? localWallClock();
    const limit = options.maxPages ?? DEFAULT_MAX_PAGES;
    this.templateStopsPages = report.maxPages > 0 && report.maxPages <= limit;
    this.maxPages = this.templateStopsPages ? report.maxPages : limit;
    this.maxRows = options.maxRows ?? 1_000_000;
    this.doublePass = report.doublePass || needsTotalPages(report);
    for (const p of report.pages) {
      for (const b of allBands(p)) if (!this.bandsByName.has(b.name)) this.bandsByName.set(b.name, b);
      for (const b of [
        p.reportTitle,
        p.pageHeader,
        p.columnHeader,
        p.reportSummary,
        p.columnFooter,
        p.pageFooter,
        p.overlay,
      ])
        if (b) this.link(b, null, null);
      for (const b of p.bands) this.link(b, null, null);
    }

    const e = this; // the scope's callbacks read the live engine state
    this.scope = new ReportScope({
      report,
      data,
      formatter: this.formatter,
      date: this.date,
      convertNulls: report.convertNulls,
      parameterValues: options.parameters ?? {},
      pageNo: () => e.pageNo(),
      totalPages: () => e.totalPagesValue(),
      physicalPageNo: () => e.curPage + 1,
      physicalTotalPages: () => (e.finalPass && e.doublePass ? e.firstPassPageCount : e.pages.length),
      rowNo: () => (e.curBand ? e.rt(e.curBand).rowNo : 0),
      absRowNo: () => (e.curBand ? e.rt(e.curBand).absRowNo : 0),
      hierarchyLevel: () => e.hierarchyLevel,
      hierarchyRowNo: () => e.hierarchyRowNo,
      totalValue: (name) => e.totals.value(name),
      hasTotal: (name) => e.totals.has(name),
      calc: (expression, where) => e.exprs.calc(e.scope, `dict:${where}`, expression, where),
    });
    this.exprs = new Expressions(this.scope);
    this.styles = new StyleSheet(report.styles, this.warnings);
    this.totals = new Totals(
      report.dictionary.totals,
      (name) => this.bandsByName.get(name),
      {
        calc: (owner, key, source, where) => this.exprs.calc(owner, key, source, where),
        convertNulls: report.convertNulls,
      },
      (m) => this.warnings.add(m),
    );
  }

  private link(band: BandModel, parent: BandModel | null, dataParent: DataBandModel | null): void {
    this.bandParent.set(band, parent);
    const owner = band.type === 'ChildBand' && parent ? (this.childParents.get(parent) ?? parent) : band;
    if (band.child) {
      this.childParents.set(band.child, owner);
      this.link(band.child, band, dataParent);
    }
    if (band.type === 'DataBand') {
      this.parentDataBand.set(band, dataParent);
      for (const h of [band.header, band.footer]) if (h) this.link(h, band, dataParent);
      for (const b of band.bands) this.link(b, band, band);
    } else if (band.type === 'GroupHeaderBand') {
      const g: GroupHeaderBandModel = band;
      for (const b of [g.nestedGroup, g.data, g.groupFooter, g.header, g.footer]) if (b) this.link(b, g, dataParent);
    }
  }

  /** fonts.resolve for a font of the template, once per font object and run (resolving builds
   *  a key from the family name on every call; texts are measured tens of thousands of times). */
  resolveFont(font: FontSpec): ResolvedFont {
    let r = this.resolvedFonts.get(font);
    if (!r) this.resolvedFonts.set(font, (r = this.fonts.resolve(font, this.warnings)));
    return r;
  }

  rt(band: BandModel): BandRt {
    let r = this.bandRt.get(band);
    if (!r) this.bandRt.set(band, (r = newBandRt()));
    return r;
  }

  /** Sets RowNo/AbsRowNo of a band and its child bands (FastReport's setters do the same). */
  setRowNo(band: BandModel, rowNo: number, absRowNo: number): void {
    for (let b: BandModel | null = band; b; b = b.child) {
      const r = this.rt(b);
      r.rowNo = rowNo;
      r.absRowNo = absRowNo;
    }
  }

  bandByName(name: string): BandModel | undefined {
    return this.bandsByName.get(name);
  }

  pageNo(): number {
    const info = this.pageNumbers[this.curPage - this.firstReportPage];
    return (info?.pageNo ?? this.logicalPageNo) + this.report.initialPageNumber - 1;
  }

  totalPagesValue(): number {
    const info = this.pageNumbers[this.curPage - this.firstReportPage];
    return (info?.totalPages ?? 0) + this.report.initialPageNumber - 1;
  }

  get firstPass(): boolean {
    return !(this.doublePass && this.finalPass);
  }

  // --- geometry of the current page (FastReport's PageWidth/PageHeight: paper minus margins) ---
  get pageWidth(): number {
    return (this.page.paperWidth - this.page.leftMargin - this.page.rightMargin) * MM_TO_PX;
  }

  get pageHeight(): number {
    return (this.page.paperHeight - this.page.topMargin - this.page.bottomMargin) * MM_TO_PX;
  }

  /** Counts a data row against the row budget; stops the report when it is spent. */
  visitRow(): void {
    if (++this.rowsVisited > this.maxRows && !this.aborted) {
      this.abort(`the report walks more than ${this.maxRows} data rows; it was stopped there`);
    }
  }

  /** True while another page may be added. At the limit: the template's MaxPages stops the
   *  report (a warning), asked-for truncation stops it too (marked truncated), and otherwise the
   *  run fails with RenderTooLargeError — never a silent cut. */
  roomForPage(): boolean {
    if (this.pages.length < this.maxPages) return true;
    if (this.templateStopsPages)
      this.abort(`the report has more than ${this.maxPages} pages (the template's MaxPages)`);
    else if (this.options.truncatePages) {
      this.truncated = true;
      this.abort(`the report has more than ${this.maxPages} pages; the first ${this.maxPages} were asked for`);
    } else throw new RenderTooLargeError(this.maxPages);
    return false;
  }

  abort(reason: string): void {
    if (this.aborted) return;
    this.aborted = true;
    this.warnings.add(`Output truncated: ${reason}`);
  }

  /** Evaluates a text (Row#, totals… of the current state) outside any object, for tests. */
  evaluate(expression: string): TypedValue {
    return this.exprs.calc(this, `eval:${expression}`, expression, 'expression');
  }

  run(): PreparedReport {
    this.finalPass = !this.doublePass;
    this.dropFinishedPages = this.doublePass && !this.keepFirstPassPages;
    this.runPass();
    resetLogicalPageNumber(this);
    if (this.dropFinishedPages && this.aborted) {
      // The first pass stopped at a limit, so its pages are the output after all, and it dropped
      // them as it went: run it again keeping them. A fresh engine, so nothing of the stopped run
      // carries over (the data sources start over as for a second pass; same clock).
      for (const s of this.data.sources) s.reset();
      return new Engine(this.report, this.data, { ...this.options, now: this.date }, this.warnings, true).run();
    }
    this.dropFinishedPages = false;
    if (this.doublePass && !this.aborted) {
      this.firstPassPageCount = this.pages.length;
      this.finalPass = true;
      this.resetForSecondPass();
      this.runPass();
    }
    // Pages are only added with roomForPage; this is a guard, and it cuts only as that would.
    if (this.pages.length > this.maxPages) {
      this.pages.length = this.maxPages;
      this.roomForPage();
    }
    postprocess(this);
    return this.truncated ? { pages: this.pages, truncated: true } : { pages: this.pages };
  }

  private resetForSecondPass(): void {
    this.pages = [];
    this.curPage = -1;
    this.droppedBefore = 0;
    this.totals.clear();
    this.bandRt.clear();
    this.footerHeights.clear();
    this.macroItems.clear();
    this.duplicates.clear();
    this.logicalPageNo = 0;
    this.isFirstReportPage = true;
    this.keeping = false;
    this.rowsVisited = 0;
    for (const s of this.data.sources) s.reset();
  }

  private runPass(): void {
    for (const page of this.report.pages) {
      if (!page.visible || page.subreportOf !== '') continue;
      if (this.aborted) break;
      this.runPage(page);
    }
  }

  private runPage(page: ReportPageModel): void {
    this.page = page;
    this.reprintHeaders = [];
    this.keepReprintHeaders = [];
    this.reprintFooters = [];
    this.keepReprintFooters = [];
    if (page.unlimitedHeight || page.unlimitedWidth)
      this.warnings.add(`${page.name}: unlimited page size is not supported; the paper size is used`);
    if (page.watermarkEnabled) this.warnings.add(`${page.name}: watermarks are not rendered`);
    // The deepest DataBand keeps the report summary with its last row.
    let deepest: BandModel | undefined;
    for (const b of allBands(page)) if (b.type === 'DataBand') deepest = b;
    if (deepest) this.rt(deepest).keepSummary = true;
    startFirstPage(this);
    runBands(this, page.bands);
    endLastPage(this);
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
