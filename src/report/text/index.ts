// Fonts, text measurement, line breaking and HtmlTags of the report engine (see README.md here).
export * from './fonts.js';
export * from './measure.js';
export * from './html-tags.js';
export { decodeEntities, decodeEntityAt } from './entities.js';
