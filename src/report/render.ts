// One call from a template and its data to an exported document:
// .frx → model (frx/) → bound data (data/) → prepared pages (engine/) → HTML (export/).

import { loadDataSetXml, type BindData, type DataSet } from './data/index.js';
import { bindReportData } from './engine/dictionary.js';
import { runReport, type EngineOptions } from './engine/engine.js';
import type { PreparedReport } from './engine/prepared.js';
import { ReportWarnings, TemplateError } from './errors.js';
import { exportHtml } from './export/html.js';
import { getCulture } from './format/index.js';
import { loadFrx } from './frx/index.js';
import type { DataSourceModel, ReportModel } from './frx/model.js';

export interface RenderData {
  /** An ADO.NET DataSet as XML (nwind.xml): TableDataSources with ReferenceName "X.Table" read
   *  its tables. */
  datasetXml?: Buffer | string;
  /** The root of the JSON data: the template's JSON connection reads it (SRS data). */
  json?: unknown;
  /** Rows per data source name (plain objects), for TableDataSources. */
  tables?: Record<string, unknown[]>;
}

export interface RenderOptions {
  template: Buffer | string;
  data?: RenderData;
  format: 'html';
  /** Culture name for number and date formats: "en-US" (default), "de-DE", "" (invariant). */
  culture?: string;
  /** The report's "now" (wall clock); default the current local time. */
  now?: Date;
  /** Most pages (default 1000). */
  maxPages?: number;
  /** Report parameter values by name. */
  parameters?: Record<string, unknown>;
  /** HTML: embed the fonts used (default false). */
  embedFonts?: boolean;
}

export interface RenderResult {
  output: string | Buffer;
  /** Number of pages produced. */
  pages: number;
  warnings: string[];
  /** The prepared pages (for further exports). */
  prepared: PreparedReport;
}

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

/** Loads a template, binds its data, runs it and exports the result. Throws TemplateError when
 *  the template or its data cannot be used (the message says where). */
export function renderReport(opts: RenderOptions): RenderResult {
  if (opts.format !== 'html') throw new TemplateError(`unsupported output format "${String(opts.format)}"`);
  const warnings = new ReportWarnings();
  const loaded = loadFrx(opts.template);
  for (const w of loaded.warnings) warnings.add(w);
  const report = loaded.report;

  const bind: { datasets?: Record<string, DataSet>; json?: unknown; tables?: Record<string, unknown[]> } = {};
  if (opts.data?.datasetXml !== undefined) bind.datasets = datasetNames(report, loadDataSetXml(opts.data.datasetXml, { warnings }));
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
  if (opts.parameters) engine.parameters = opts.parameters;
  const prepared = runReport(report, data, engine, warnings);
  const output = exportHtml(prepared, {
    title: report.reportInfo.name || 'Report',
    ...(opts.embedFonts !== undefined ? { embedFonts: opts.embedFonts } : {}),
    ...(engine.culture ? { lang: engine.culture.name || 'en' } : {}),
  });
  return { output, pages: prepared.pages.length, warnings: [...warnings.list], prepared };
}
