// Public surface of the .frx reader.

export { loadFrx, allBands, allObjects, type LoadFrxOptions, type LoadFrxResult } from './load.js';
export { isFolderFileName, type BaseReportReader } from './inherit.js';
export type { ResourceReader } from './map.js';
export { parseXml, readXmlText, parseXmlText, DEFAULT_XML_LIMITS, type XmlElement, type XmlLimits } from './xml.js';
export { parseColor, knownColor, colorToCss, KNOWN_COLOR_NAMES, type Color } from './colors.js';
export { parseFont } from './value-parsers.js';
export * from './model.js';
