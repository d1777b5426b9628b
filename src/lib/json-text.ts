// JSON text from clients, parsed one way everywhere: keys that could reach an object's
// prototype (`__proto__`, `constructor.prototype`) are refused rather than kept, so a value
// parsed here is safe to merge or spread later; and nesting is bounded, because V8 parses any
// depth but JSON.stringify (echoing, storing) recurses and overflows the stack on deep values.
import sjson from 'secure-json-parse';
import { jsonNestingExceeds } from './json-nesting.js';

/** Deepest nesting of arrays and objects accepted in client JSON. */
export const MAX_CLIENT_JSON_DEPTH = 256;

/** Thrown for JSON text nested deeper than MAX_CLIENT_JSON_DEPTH. */
export class JsonTooDeepError extends SyntaxError {
  constructor() {
    super(`JSON nested more than ${MAX_CLIENT_JSON_DEPTH} levels deep`);
    this.name = 'JsonTooDeepError';
  }
}

/** Parses JSON text; throws a SyntaxError for invalid JSON, a prototype-poisoning key or
 *  nesting deeper than MAX_CLIENT_JSON_DEPTH (JsonTooDeepError). */
export function parseClientJson(text: string): unknown {
  if (jsonNestingExceeds(text, MAX_CLIENT_JSON_DEPTH)) throw new JsonTooDeepError();
  return sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
}
