// The typed report model: what a .frx template says, with FastReport's constructor defaults
// applied. Two parts, so that the report part can use the object part without a cycle:
// model-objects.ts (components, report objects; conventions there) and model-report.ts (bands,
// pages, the dictionary and the report). Everything imports the model from here.
export * from './model-objects.js';
export * from './model-report.js';
