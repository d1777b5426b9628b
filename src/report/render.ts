// One call from a template and its data to an exported document:
// .frx → model (frx/) → bound data (data/) → prepared pages (engine/) → HTML or PDF (export/).
//
// renderReport is synchronous for both formats: the PDF exporter never waits for anything (see
// export/pdf/index.ts), so `output` is the HTML text or the PDF bytes. A caller that wants the
// PDF streamed page by page runs prepareReport and then exportPdfToStream with
// pdfExportOptions. renderDocument (render-document.ts) is renderReport for a caller that needs
// only the document, written as the engine finishes the pages.

import { loadDataSetXml, type BindData, type DataContext, type DataSet } from './data/index.js';
import { appendDetailPages, type DetailRunner } from './detail-pages.js';
import { bindReportData } from './engine/dictionary.js';
import { DEFAULT_MAX_PAGES, runReport, type EngineOptions } from './engine/engine.js';
import type { PreparedDetailTarget, PreparedReport } from './engine/prepared.js';
import { ReportWarnings, TemplateError } from './errors.js';
import { exportHtml, exportHtmlBuffer, type HtmlExportOptions } from './export/html.js';
import { exportPdfSync, type PdfExportOptions } from './export/pdf/index.js';
import { getCulture } from './format/index.js';
import { isFolderFileName, loadFrx, type BaseReportReader, type LoadFrxResult } from './frx/index.js';
import type { DataSourceModel, ParameterModel, ReportInfoModel, ReportModel } from './frx/model.js';
import type { FontFace } from './text/index.js';

export interface RenderData {
  /** An ADO.NET DataSet as XML (nwind.xml): TableDataSources with ReferenceName "X.Table" read
   *  its tables. */
  datasetXml?: Buffer | string;
  /** The root of the JSON data: the template's JSON connection reads it (SRS data). */
  json?: unknown;
  /** Rows per data source name (plain objects), for TableDataSources; a CsvDataConnection's
   *  table may be given its CSV text instead. */
  tables?: Record<string, unknown[] | string>;
}

/** The output formats the engine renders. The SRS service adds its own ('frx', the template with
 *  the data merged in: src/srs/render-formats.ts) on top of this list. */
export const REPORT_FORMATS = ['html', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** What prepareReport needs: the template, its data and the run's settings. */
export interface PrepareOptions {
  /** The .frx bytes or text, or what loadFrx returned for it (a run never changes a loaded
   *  template, so workers load each template once and reuse it). */
  template: Buffer | string | LoadFrxResult;
  data?: RenderData;
  /** Culture name for number and date formats: "en-US" (default), "de-DE", "" (invariant). */
  culture?: string;
  /** The report's "now" (wall clock); default the current local time. */
  now?: Date;
  /** The page limit (default 10,000): a report that needs more fails with RenderTooLargeError,
   *  unless truncatePages (see EngineOptions). */
  maxPages?: number;
  /** Answer the first maxPages pages of a longer report instead of failing (`truncated` says so). */
  truncatePages?: boolean;
  /** renderDocument: the most bytes a streamed document may grow to (RenderOutputTooLargeError
   *  past it). Streamed bytes live outside the heap, so a worker's heap limit does not bound
   *  them; the render pool sets this to its memory limit. */
  maxOutputBytes?: number;
  /** Report parameter values by name. */
  parameters?: Record<string, unknown>;
  /** The report script's step and item budgets (Settings:ScriptMaxSteps, ScriptMaxItems). */
  scriptLimits?: { maxSteps?: number; maxItems?: number };
  /** Reads another report by the file name a DetailReport hyperlink gives (relative to this
   *  template's folder). Without it such links print as plain text. */
  detailReport?: BaseReportReader;
}

export interface RenderOptions extends PrepareOptions {
  /** html: `output` is the document text; pdf: `output` is the PDF file (a Buffer). */
  format: ReportFormat;
  /** HTML: embed the fonts used (default false). PDF always embeds (subsets of) its fonts. */
  embedFonts?: boolean;
  /** HTML: where a face's WOFF2 file is served (see HtmlExportOptions.fontUrl). */
  fontUrl?: (face: FontFace) => string;
  /** HTML: `output` is the document as UTF-8 bytes, built page by page (a Buffer). No
   *  document-sized string exists at any time, and a Buffer's bytes lie outside the JS heap,
   *  whose limit a render worker runs under. */
  htmlAsBytes?: boolean;
}

/** A template run to prepared pages, ready for any exporter. */
export interface PreparedRun {
  prepared: PreparedReport;
  /** Warnings so far; exporters add theirs. */
  warnings: ReportWarnings;
  /** The template's ReportInfo (title, author, description). */
  info: ReportInfoModel;
  /** The culture's name when one was chosen ("" for the invariant culture). */
  culture?: string;
}

export interface RenderResult {
  /** HTML text, or the PDF file. */
  output: string | Buffer;
  /** Number of pages produced. */
  pages: number;
  /** True when the report was cut at maxPages because truncatePages asked for it. */
  truncated: boolean;
  warnings: string[];
  /** The prepared pages (for further exports). */
  prepared: PreparedReport;
}

/** What renderDocument answers: renderReport's result without the prepared pages. */
export type DocumentResult = Omit<RenderResult, 'prepared'>;

function dataSources(report: ReportModel): DataSourceModel[] {
  return [...report.dictionary.dataSources, ...report.dictionary.connections.flatMap((c) => c.dataSources)];
}

/** A DataSet is registered under its own name and under every ReferenceName prefix of the
 *  template whose table it has ("NorthWind.Employees" → "NorthWind"). */
function datasetNames(report: ReportModel, ds: DataSet): Record<string, DataSet> {
  const out: Record<string, DataSet> = { [ds.name]: ds };
  for (const s of dataSources(report)) {
    const ref = s.referenceName;
    const dot = ref.indexOf('.');
    if (dot <= 0) continue;
    if (ds.tables.has(ref.slice(dot + 1)) && !Object.hasOwn(out, ref.slice(0, dot))) out[ref.slice(0, dot)] = ds;
  }
  return out;
}

/** A template loaded and its data bound, with the engine's options: a run about to start. */
export interface BoundRun {
  report: ReportModel;
  data: DataContext;
  bind: BindData;
  engine: EngineOptions;
  warnings: ReportWarnings;
}

export function bindRun(opts: PrepareOptions): BoundRun {
  const warnings = new ReportWarnings();
  const loaded =
    typeof opts.template === 'string' || Buffer.isBuffer(opts.template) ? loadFrx(opts.template) : opts.template;
  for (const w of loaded.warnings) warnings.add(w);
  const report = loaded.report;

  const bind: { datasets?: Record<string, DataSet>; json?: unknown; tables?: Record<string, unknown[] | string> } = {};
  if (opts.data?.datasetXml !== undefined)
    bind.datasets = datasetNames(report, loadDataSetXml(opts.data.datasetXml, { warnings }));
  if (opts.data?.json !== undefined) bind.json = opts.data.json;
  if (opts.data?.tables !== undefined) bind.tables = opts.data.tables;
  const data = bindReportData(report.dictionary, bind as BindData, warnings);

  const engine: EngineOptions = {};
  if (opts.culture !== undefined) {
    const c = getCulture(opts.culture);
    if (c) engine.culture = c;
    else warnings.add(`culture "${opts.culture}" is not available; en-US is used`);
  }
  if (opts.now) engine.now = opts.now;
  if (opts.maxPages !== undefined) engine.maxPages = opts.maxPages;
  if (opts.truncatePages) engine.truncatePages = true;
  if (opts.parameters) engine.parameters = opts.parameters;
  if (opts.scriptLimits) engine.scriptLimits = opts.scriptLimits;
  return { report, data, bind: bind as BindData, engine, warnings };
}

/** Loads a template, binds its data and runs it. Throws TemplateError when the template or its
 *  data cannot be used (the message says where), RenderTooLargeError past the page limit. */
export function prepareReport(opts: PrepareOptions): PreparedRun {
  const { report, data, bind, engine, warnings } = bindRun(opts);
  const prepared = runReport(report, data, engine, warnings);
  const maxPages = engine.maxPages ?? DEFAULT_MAX_PAGES;
  if (!prepared.truncated)
    appendDetailPages(prepared, detailRunner(report, data, bind, engine, opts, warnings), maxPages, warnings);
  const run: PreparedRun = { prepared, warnings, info: report.reportInfo };
  if (engine.culture) run.culture = engine.culture.name;
  return run;
}

/** The parameter values a detail link gives: its value to its parameter or, when the value holds
 *  the link's separator and the parameter has nested parameters, the pieces to those in order
 *  (FastReport's Hyperlink.SetParameters). */
function detailParameters(report: ReportModel, detail: PreparedDetailTarget, value: string): Record<string, string> {
  let list = report.dictionary.parameters;
  let found: ParameterModel | undefined;
  for (const part of detail.parameter.split('.')) {
    found = list.find((p) => p.name === part);
    if (!found) break;
    list = found.parameters;
  }
  if (!found || detail.separator === '' || !value.includes(detail.separator) || found.parameters.length === 0)
    return { [detail.parameter]: value };
  const out: Record<string, string> = {};
  const pieces = value.split(detail.separator).filter((p) => p !== '');
  found.parameters.forEach((p, i) => {
    if (i < pieces.length) out[`${detail.parameter}.${p.name}`] = pieces[i] as string;
  });
  return out;
}

/** Runs the details of a report's DetailPage and DetailReport links: the page of this report,
 *  or the report the reader gives (loaded once, over the same data), with the link's value in
 *  its parameter. */
function detailRunner(
  report: ReportModel,
  data: DataContext,
  bind: BindData,
  engine: EngineOptions,
  opts: PrepareOptions,
  warnings: ReportWarnings,
): DetailRunner {
  const others = new Map<string, { report: ReportModel; data: DataContext } | undefined>();
  const other = (name: string): { report: ReportModel; data: DataContext } | undefined => {
    if (others.has(name)) return others.get(name);
    let found: { report: ReportModel; data: DataContext } | undefined;
    const read = opts.detailReport;
    if (!read) warnings.add(`detail report "${name}" cannot be read here; its links print as plain text`);
    else if (!isFolderFileName(name))
      warnings.add(
        `detail report "${name}" must be a file name in the template's folder; its links print as plain text`,
      );
    else {
      try {
        const bytes = read(name);
        if (bytes === undefined) throw new TemplateError('no such file');
        const loaded = loadFrx(bytes, { baseReport: read });
        for (const w of loaded.warnings) warnings.add(`${name}: ${w}`);
        found = { report: loaded.report, data: bindReportData(loaded.report.dictionary, bind, warnings) };
      } catch (err) {
        warnings.add(`detail report "${name}" cannot be used (${err instanceof Error ? err.message : String(err)})`);
      }
    }
    others.set(name, found);
    return found;
  };
  return (detail, value, from) => {
    // A DetailPage runs a page of the report the link's page came from, with that run's
    // parameters; a DetailReport starts its report afresh.
    const name = detail.report ?? from.report;
    const target = name !== undefined ? other(name) : { report, data };
    const inherited = detail.report !== undefined ? {} : from.parameters;
    const own = target ? { ...inherited, ...detailParameters(target.report, detail, value) } : inherited;
    const key = JSON.stringify([
      name ?? '',
      detail.page ?? '',
      Object.entries(own).sort(([a], [b]) => (a < b ? -1 : 1)),
    ]);
    return {
      key,
      run: (maxPages) => {
        if (!target) return undefined;
        for (const s of target.data.sources) s.reset();
        const options: EngineOptions = { ...engine, parameters: { ...engine.parameters, ...own }, maxPages };
        options.truncatePages = false;
        if (detail.page !== undefined) options.detailPage = detail.page;
        try {
          const pages = runReport(target.report, target.data, options, warnings).pages;
          return { pages, origin: name !== undefined ? { report: name, parameters: own } : { parameters: own } };
        } catch (err) {
          if (!(err instanceof TemplateError)) throw err;
          warnings.add(`the details of "${value}" cannot be shown: ${err.message}`);
          return undefined;
        }
      },
    };
  };
}

/** The PDF exporter's options for a run: document info from ReportInfo, the culture as the
 *  document language, exporter warnings added to the run's. */
export function pdfExportOptions(run: PreparedRun, now?: Date): PdfExportOptions {
  const o: PdfExportOptions = {
    title: run.info.name,
    author: run.info.author,
    subject: run.info.description,
    onWarning: (m) => run.warnings.add(m),
  };
  if (run.culture) o.lang = run.culture;
  // The report's "now" is also the document's creation date (a fixed `now` gives the same bytes).
  if (now) o.creationDate = now;
  return o;
}

/** The HTML exporter's options for a run. */
export function htmlExportOptions(run: PreparedRun, opts: RenderOptions): HtmlExportOptions {
  return {
    title: run.info.name || 'Report',
    ...(opts.embedFonts !== undefined ? { embedFonts: opts.embedFonts } : {}),
    ...(opts.fontUrl !== undefined ? { fontUrl: opts.fontUrl } : {}),
    ...(run.culture !== undefined ? { lang: run.culture || 'en' } : {}),
  };
}

/** Loads a template, binds its data, runs it and exports the result. Throws TemplateError when
 *  the template or its data cannot be used (the message says where). */
export function renderReport(opts: RenderOptions): RenderResult {
  if (!REPORT_FORMATS.includes(opts.format))
    throw new TemplateError(`unsupported output format "${String(opts.format)}"`);
  const run = prepareReport(opts);
  const { prepared, warnings } = run;
  let output: string | Buffer;
  if (opts.format === 'pdf') output = exportPdfSync(prepared, pdfExportOptions(run, opts.now));
  else {
    const options = htmlExportOptions(run, opts);
    output = opts.htmlAsBytes ? exportHtmlBuffer(prepared, options) : exportHtml(prepared, options);
  }
  return {
    output,
    pages: prepared.pages.length,
    truncated: prepared.truncated === true,
    warnings: [...warnings.list],
    prepared,
  };
}
