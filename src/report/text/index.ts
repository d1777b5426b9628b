// Fonts, text measurement, line breaking and HtmlTags of the report engine (see README.md here).
export * from './font-spec.js';
export * from './font-faces.js';
export { normaliseFamily, type EmMetrics, type FamilyMapping } from './font-families.js';
export * from './fonts.js';
export * from './measure.js';
export { layoutLine, needsShaping, shapedWidthPx, unmirror, type ShapedGlyph, type ShapedRun } from './shaping.js';
export * from './html-lines.js';
export * from './html-tags.js';
export { decodeEntities, decodeEntityAt } from './entities.js';
export * from './web-fonts.js';
export * from './web-font-store.js';
export { subsetFace } from './font-subset.js';
export { extraFaces, fontDirs, setFontDirs, SYSTEM_FONT_DIRS } from './font-dirs.js';
