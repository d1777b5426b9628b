// Public API of the expression engine (see README.md in this folder).

export { TemplateError } from '../errors.js';
export { compileExpression, ExpressionError } from './evaluate.js';
export {
  compileTemplate,
  parseBrackets,
  parseTemplate,
  type CompiledPart,
  type CompiledTemplate,
  type TemplateOptions,
} from './template.js';
export {
  DEFAULT_LIMITS,
  type CompiledExpression,
  type CompileOptions,
  type ExpressionLimits,
  type Formatter,
  type Resolved,
  type Scope,
  type TemplatePart,
  type TypedValue,
} from './types.js';
export { applyOperator, compareValues, type BinaryOperator, type ValueOpOptions } from './value-ops.js';
export { DATETIME_MAX_MS, DATETIME_MIN_MS, makeDate } from './date-time.js';
export { Decimal, DECIMAL_MAX_COEF, type RoundingMode } from './decimal.js';
export { parseIsoDate } from './scope-values.js';
export { TimeSpan } from './time-span.js';
export { canonicalType, INTEGER_TYPES } from './type-names.js';
export { ValueError } from './value-error.js';
