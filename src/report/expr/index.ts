// Public API of the expression engine (see README.md in this folder).

export { TemplateError } from '../errors.js';
export { compileExpression, ExpressionError } from './evaluate.js';
export { compileTemplate, parseBrackets, parseTemplate, type CompiledPart, type CompiledTemplate, type TemplateOptions } from './template.js';
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
export { defaultText, fallbackFormatter, formatDate } from './format-fallback.js';
export { applyOperator, compareValues, type BinaryOperator, type ValueOpOptions } from './value-ops.js';
export {
  canonicalType,
  DATETIME_MAX_MS,
  DATETIME_MIN_MS,
  Decimal,
  DECIMAL_MAX_COEF,
  doubleToString,
  makeDate,
  parseIsoDate,
  singleToString,
  TimeSpan,
  ValueError,
  type RoundingMode,
} from './values.js';
