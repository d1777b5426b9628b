// State of one evaluation and the helpers every part of the evaluator shares: ConvertNulls,
// default text of values, limits.

import { TemplateError } from '../errors.js';
import { Formatter as EN_US_FORMATTER } from '../format/index.js';
import { localNow } from './date-time.js';
import { fromResolved } from './scope-values.js';
import { defaultOf, kindName, typeNameOf } from './type-names.js';
import type { ExpressionLimits, Formatter, Scope } from './types.js';
import { ValueError } from './value-error.js';
import { Chr, EnumVal, HostObject, NullOf, toPublic, type Value } from './values.js';
import type { Node, ScriptNode } from './ast.js';

/** What a report script adds to an evaluation: the script-only nodes (assignments, its methods,
 *  object creation, type tests) are its to evaluate. */
export interface ScriptHooks {
  evaluate(ctx: Ctx, n: ScriptNode): Value;
  /** The declared type of the local, field or method a node names (undefined: not the script's). */
  typeOf?(n: Node): string | undefined;
}

export interface Ctx {
  readonly scope: Scope;
  /** Set when a report script evaluates (src/report/script). */
  readonly script?: ScriptHooks;
  readonly convertNulls: boolean;
  readonly fmt: Formatter;
  readonly limits: ExpressionLimits;
  steps: number;
  nowValue: Date | undefined;
}

export function makeCtx(scope: Scope, limits: ExpressionLimits, script?: ScriptHooks): Ctx {
  return {
    scope,
    // Always present (undefined without a script): a conditional spread made every context
    // a dictionary-mode object, and expressions make one per evaluation.
    script,
    convertNulls: scope.convertNulls === true,
    fmt: scope.formatter ?? EN_US_FORMATTER,
    limits,
    steps: 0,
    nowValue: undefined,
  };
}

/** A failed operation (InvalidOperation unless said otherwise). */
export function fail(message: string, netError = 'InvalidOperationException'): ValueError {
  return new ValueError(netError, message);
}

export const outOfRange = (what: string) => new ValueError('ArgumentOutOfRangeException', what);

/** ConvertNulls: a null read from data becomes its type's default when the flag is on. */
export function cv(ctx: Ctx, v: Value): Value {
  if (v instanceof NullOf) return ctx.convertNulls ? defaultOf(v.type) : null;
  return v;
}

export function isNullish(v: Value): boolean {
  return v === null || v instanceof NullOf;
}

/** Counts `n` evaluation steps against the budget. */
export function charge(ctx: Ctx, n: number): void {
  ctx.steps += n;
  if (ctx.steps > ctx.limits.maxSteps)
    throw new ValueError('LimitExceeded', `evaluation takes more than ${ctx.limits.maxSteps} steps`);
}

/** Charges an operation that reads strings through (a search, a comparison): a step per 64
 *  characters, so that one on a huge string in a loop runs out of steps in bounded time. */
export function chargeScan(ctx: Ctx, ...values: readonly (Value | undefined)[]): void {
  let n = 0;
  for (const v of values) if (typeof v === 'string') n += v.length;
  if (n >= 64) charge(ctx, n >>> 6);
}

/** Checks the length of a string an operation is about to produce, and charges for it. */
export function checkLength(ctx: Ctx, length: number): void {
  if (length > ctx.limits.maxStringLength)
    throw new ValueError(
      'LimitExceeded',
      `a string of ${length} characters is longer than the limit of ${ctx.limits.maxStringLength}`,
    );
  if (length > 1024) charge(ctx, length >>> 10);
}

export function now(ctx: Ctx): Date {
  if (!ctx.nowValue) {
    const n = ctx.scope.now ? ctx.scope.now() : localNow();
    if (!(n instanceof Date) || Number.isNaN(n.getTime())) throw fail('the scope gave an invalid "now"');
    ctx.nowValue = n;
  }
  return ctx.nowValue;
}

/** Calls the formatter; its failures become TemplateErrors (FormatException). */
export function format(ctx: Ctx, v: Value, fmt: string): string {
  let out: unknown;
  try {
    out = ctx.fmt.format(toPublic(v), fmt, typeNameOf(v));
  } catch (e) {
    if (e instanceof TemplateError) throw e;
    throw new ValueError(
      'FormatException',
      `cannot format a ${kindName(v)} with "${fmt}": ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (typeof out !== 'string') throw new ValueError('FormatException', 'the formatter returned no text');
  checkLength(ctx, out.length);
  return out;
}

/** .NET ToString() of a value (null → ""), as string concatenation and Convert.ToString use it. */
export function str(ctx: Ctx, v: Value): string {
  if (typeof v === 'string') return v;
  if (v === null || v instanceof NullOf) return '';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (v instanceof Chr) return v.toString();
  if (v instanceof EnumVal) return v.name;
  // object.ToString() of a script's object is its type's name, as in .NET.
  if (v instanceof HostObject) return v.typeName;
  return format(ctx, v, '');
}

export function concat(ctx: Ctx, a: string, b: string): string {
  checkLength(ctx, a.length + b.length);
  return a + b;
}

/** Looks a name up in the scope (raw value, NullOf for null); undefined when unknown. A name
 *  with surrounding blanks is tried trimmed too. */
export function lookupName(ctx: Ctx, name: string): Value | undefined {
  let r = ctx.scope.resolve(name);
  if (r === undefined) {
    const t = name.trim();
    if (t !== name && t !== '') r = ctx.scope.resolve(t);
  }
  if (r === undefined) return undefined;
  if (r === null || typeof r !== 'object') throw fail(`the scope gave an invalid value for "${name}"`);
  return fromResolved(r);
}
