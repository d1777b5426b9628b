// Operations on public values for the engine (totals, sorting, grouping), with the same .NET
// semantics expressions use.

import { TemplateError } from '../errors.js';
import { cv, makeCtx } from './context.js';
import { ExpressionError } from './evaluate.js';
import { arith, compare, equals } from './ops.js';
import { fromResolved } from './scope-values.js';
import { typeNameOf } from './type-names.js';
import { DEFAULT_LIMITS, type Formatter, type Resolved, type TypedValue } from './types.js';
import { ValueError } from './value-error.js';
import { Dbl, Flt, NullOf, toPublic, type Value } from './values.js';

export interface ValueOpOptions {
  /** Treat nulls as their type's default (Report.ConvertNulls); default false. */
  convertNulls?: boolean;
  formatter?: Formatter;
}

export type BinaryOperator = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '>' | '<=' | '>=';

/**
 * `a op b` with C# semantics on typed values, e.g. a Sum total: `applyOperator('+', sum, next)`
 * (Decimal stays exact, Int32 wraps, a double stays a double). Operands are Resolved (value +
 * .NET type) or TypedValues from `evaluateTyped`. Failures are TemplateErrors.
 */
export function applyOperator(op: BinaryOperator, a: Resolved, b: Resolved, options: ValueOpOptions = {}): TypedValue {
  const ctx = makeCtx(
    { resolve: () => undefined, convertNulls: options.convertNulls === true, formatter: options.formatter },
    DEFAULT_LIMITS,
  );
  try {
    const x = cv(ctx, fromResolved(a));
    const y = cv(ctx, fromResolved(b));
    let r: Value;
    if (op === '==' || op === '!=') {
      const eq = x === null || y === null ? x === y : equals(x, y);
      r = op === '==' ? eq : !eq;
    } else if (op === '<' || op === '>' || op === '<=' || op === '>=') r = compare(op, x, y);
    else r = arith(ctx, op, x, y);
    return { value: toPublic(r), type: typeNameOf(r) };
  } catch (e) {
    if (e instanceof TemplateError) throw e;
    throw new ExpressionError(e instanceof Error ? e.message : String(e), `${op}`);
  }
}

const RANK: Record<string, number> = { null: 0, boolean: 1, number: 2, date: 3, timespan: 4, string: 5, other: 6 };

function rankOf(v: Value): number {
  if (v === null || v instanceof NullOf) return RANK.null!;
  if (typeof v === 'boolean') return RANK.boolean!;
  if (typeof v === 'string') return RANK.string!;
  if (v instanceof Date) return RANK.date!;
  if (typeof v === 'number' || typeof v === 'bigint' || typeOfNumber(v)) return RANK.number!;
  if (typeNameOf(v) === 'System.TimeSpan') return RANK.timespan!;
  return RANK.other!;
}

function typeOfNumber(v: Value): boolean {
  const t = typeNameOf(v);
  return t === 'System.Double' || t === 'System.Single' || t === 'System.Decimal' || t === 'System.Char';
}

/**
 * A total order for sorting and grouping: null first, then booleans (false < true), numbers of
 * any kind by value (NaN first), DateTimes, TimeSpans, strings (ordinal), anything else equal.
 * Values are Resolved (value + .NET type) or TypedValues.
 */
export function compareValues(a: Resolved, b: Resolved): number {
  const x = fromResolved(a),
    y = fromResolved(b);
  const ra = rankOf(x),
    rb = rankOf(y);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (ra === RANK.null || ra === RANK.other) return 0;
  if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : x > y ? 1 : 0;
  if (typeof x === 'boolean') return x === y ? 0 : x ? 1 : -1;
  try {
    if (compare('<', x, y)) return -1;
    if (compare('>', x, y)) return 1;
    if (equals(x, y)) return 0;
  } catch (e) {
    if (!(e instanceof ValueError)) throw e;
  }
  // NaN sorts first among numbers.
  const nx = (x instanceof Dbl || x instanceof Flt) && Number.isNaN(x.v);
  const ny = (y instanceof Dbl || y instanceof Flt) && Number.isNaN(y.v);
  return nx === ny ? 0 : nx ? -1 : 1;
}
