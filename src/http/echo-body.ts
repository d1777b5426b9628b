// Bodies echoed by ping: JSON with its types kept, and HTML forms as an object of strings.
import { invalid } from '../lib/errors.js';
import { findInJson } from '../lib/json-walk.js';
import { JsonTooDeepError, parseClientJson } from '../lib/json-text.js';

/** JSON cannot carry 1e400: refuse what would not survive the echo instead of answering null. */
export function assertFiniteNumbers(value: unknown, path = 'body'): void {
  const at = findInJson(value, (v) => typeof v === 'number' && !Number.isFinite(v), path);
  if (at !== null)
    throw invalid('number_out_of_range', `${at}: a number is out of range`, [
      { field: at, rule: 'finite', message: 'number out of range' },
    ]);
}

/**
 * `application/x-www-form-urlencoded` → an object of strings. A repeated key keeps its last
 * value, so every value stays a string (docs/api.md, System utilities).
 */
export function parseForm(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    // defineProperty: a key named __proto__ becomes plain data, never the prototype.
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function parseJsonText(text: string, field: string): unknown {
  let value: unknown;
  try {
    // The same parser as JSON bodies: GET ?body= and POST refuse the same texts.
    value = parseClientJson(text);
  } catch (err) {
    const message = err instanceof JsonTooDeepError ? `${field} is ${err.message}` : `${field} is not valid JSON`;
    throw invalid('invalid_json', message, [{ field, rule: 'json', message }]);
  }
  assertFiniteNumbers(value, field);
  return value;
}
