// The one error this folder throws. .NET throws FormatException for a format string it cannot
// use (an unknown standard specifier, "D" on a double, an unclosed quote in a date format, a
// composite item index past the arguments…); FastReport lets that exception stop the report.
// FormatError is a TemplateError so the engine can let it propagate as "this template cannot be
// rendered", or catch it and rethrow with a `where` (the object and expression).

import { TemplateError } from '../errors.js';

export class FormatError extends TemplateError {
  constructor(message: string) {
    super(message);
    this.name = 'FormatError';
  }
}
