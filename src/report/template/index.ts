// Public surface of the template writers: merged .frx (a template with the run's data embedded)
// and starter templates (an .frx made from a data sample).

export { mergeDataIntoTemplate, DEFAULT_CONNECTION_NAME, type MergeOptions } from './merge.js';
export { starterTemplate, type StarterOptions } from './starter.js';
export { identifierFor } from './json-dictionary.js';
