// Public API of the report engine: a ReportModel (frx/) + bound data (data/) → prepared pages.

export { DEFAULT_MAX_PAGES, Engine, runReport, type EngineOptions } from './engine.js';
export { bindReportData, dataSourcesAwaitingData, dictionaryInput } from './dictionary.js';
export { imageInfo, type ImageInfo } from './image.js';
export * from './prepared.js';
