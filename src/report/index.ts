// Public API of the report library (see README.md in this folder).

export {
  renderReport,
  prepareReport,
  pdfExportOptions,
  RENDER_FORMATS,
  type RenderData,
  type RenderFormat,
  type RenderOptions,
  type RenderResult,
  type PrepareOptions,
  type PreparedRun,
} from './render.js';
export { TemplateError, ReportWarnings, RenderTooLargeError } from './errors.js';
export { loadFrx, type LoadFrxOptions, type LoadFrxResult } from './frx/index.js';
export { runReport, bindReportData, DEFAULT_MAX_PAGES, type EngineOptions } from './engine/index.js';
export type { PreparedReport, PreparedPage, PreparedItem, PreparedText } from './engine/prepared.js';
export { exportHtml, exportHtmlBuffer, exportHtmlChunks, type HtmlExportOptions } from './export/html.js';
export { exportPdf, exportPdfSync, exportPdfToStream, type PdfExportOptions } from './export/pdf/index.js';
export { mergeDataIntoTemplate, starterTemplate } from './template/index.js';
export { DEFAULT_XML_LIMITS, type ReportModel } from './frx/index.js';
export { parseJsonText } from './data/index.js';
