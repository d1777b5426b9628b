// Public API of the report library (see README.md in this folder): the only module the service
// imports. Tests may reach deeper; the service may not.

export {
  renderReport,
  prepareReport,
  pdfExportOptions,
  REPORT_FORMATS,
  type RenderData,
  type ReportFormat,
  type RenderOptions,
  type RenderResult,
  type DocumentResult,
  type PrepareOptions,
  type PreparedRun,
} from './render.js';
export { renderDocument } from './render-document.js';
export { TemplateError, ReportWarnings, RenderTooLargeError, RenderOutputTooLargeError } from './errors.js';
export { setFontDirs, fontDirs, SYSTEM_FONT_DIRS } from './text/font-dirs.js';
export {
  loadFrx,
  parseXml,
  DEFAULT_XML_LIMITS,
  type BaseReportReader,
  type ResourceReader,
  type LoadFrxOptions,
  type LoadFrxResult,
  type ReportModel,
  type XmlElement,
  type XmlLimits,
} from './frx/index.js';
export { parseJsonText, type JsonTextLimits } from './data/index.js';
export { getCulture, SUPPORTED_CULTURES, type Culture } from './format/index.js';
export {
  runReport,
  bindReportData,
  dataSourcesAwaitingData,
  DEFAULT_MAX_PAGES,
  type EngineOptions,
} from './engine/index.js';
export type { PreparedReport, PreparedPage, PreparedItem, PreparedText } from './engine/prepared.js';
export {
  webFontByFileName,
  webFontFileName,
  webFontHash,
  webFonts,
  WebFontStore,
  allFaces,
  type FontFace,
  type WebFontStoreOptions,
  type WebFontStoreStats,
} from './text/index.js';
export { exportHtml, exportHtmlBuffer, exportHtmlChunks, type HtmlExportOptions } from './export/html.js';
export { exportPdf, exportPdfSync, exportPdfToStream, type PdfExportOptions } from './export/pdf/index.js';
export { mergeDataIntoTemplate, starterTemplate } from './template/index.js';
export { qrCodeSvg, type QrSvgOptions } from './barcode/qr-svg.js';
