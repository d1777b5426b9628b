// JSON text from clients, parsed one way everywhere: keys that could reach an object's
// prototype (`__proto__`, `constructor.prototype`) are refused rather than kept, so a value
// parsed here is safe to merge or spread later.
import sjson from 'secure-json-parse';

/** Parses JSON text; throws a SyntaxError for invalid JSON or a prototype-poisoning key. */
export function parseClientJson(text: string): unknown {
  return sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
}
