// The typed report model: what a .frx template says, with FastReport's constructor defaults
// applied. Three parts, each using only those before it: model-appearance.ts (borders, fills,
// padding, formats), model-objects.ts (components, report objects; conventions there) and
// model-report.ts (bands, pages, the dictionary and the report). Everything imports the model
// from here.
export * from './model-appearance.js';
export * from './model-objects.js';
export * from './model-map.js';
export * from './model-gauge.js';
export * from './model-report.js';
