// ValueError: the failure of an arithmetic operation or a conversion on a value, kept apart so
// that every value module can throw it.

import { TemplateError } from '../errors.js';

/** An arithmetic or conversion failure (.NET's OverflowException, DivideByZeroException,
 *  FormatException, InvalidCastException…). It is a TemplateError, so whoever evaluates an
 *  expression only ever sees TemplateErrors; the evaluator adds the expression and the object. */
export class ValueError extends TemplateError {
  /** The .NET exception this stands for, e.g. "OverflowException". */
  readonly netError: string;
  constructor(netError: string, message: string) {
    super(message);
    this.name = 'ValueError';
    this.netError = netError;
  }
}
