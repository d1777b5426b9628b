// compileExpression: source → syntax tree (once) → evaluate(scope) (per row). The interpreter
// walks the tree; its recursion is bounded by the tree depth limit.

import { TemplateError } from '../errors.js';
import type { Node } from './ast.js';
import { fromResolved } from './scope-values.js';
import { charge, chargeScan, type Ctx, cv, fail, isNullish, lookupName, makeCtx } from './context.js';
import { castTo } from './casts.js';
import { zeroLike } from './numeric-kinds.js';
import { FUNCTIONS, toCondition } from './functions.js';
import { callMethod, checkArgs, construct, getMember, indexValue } from './instance-members.js';
import { BindErr, SyntaxErr } from './lexer.js';
import { arith, compare, equals, unary } from './ops.js';
import { Parser } from './parser.js';
import { collectReferences } from './references.js';
import { STATIC_TYPES } from './static-members.js';
import { staticType, toBranchType } from './static-types.js';
import { typeNameOf } from './type-names.js';
import {
  type CompiledExpression,
  type CompileOptions,
  DEFAULT_LIMITS,
  type ExpressionLimits,
  type Scope,
  type TypedValue,
} from './types.js';
import { ValueError } from './value-error.js';
import { NullOf, toPublic, type Value } from './values.js';

/** A TemplateError raised by an expression: says which expression (and, via `where`, which
 *  object) and, for syntax errors, the offset in the source. */
export class ExpressionError extends TemplateError {
  readonly expression: string;
  /** Offset in `expression` (syntax errors), or undefined. */
  readonly position: number | undefined;
  /** The .NET exception the failure corresponds to, when there is one ("DivideByZeroException"). */
  readonly netError: string | undefined;
  /** The message without the expression and the object. */
  readonly detail: string;

  constructor(message: string, expression: string, where?: string, position?: number, netError?: string) {
    super(`expression ${quote(expression)}: ${message}`, where);
    this.name = 'ExpressionError';
    this.detail = message;
    this.expression = expression;
    this.position = position;
    this.netError = netError;
  }
}

function quote(src: string): string {
  const s = src.length > 120 ? `${src.slice(0, 120)}…` : src;
  return JSON.stringify(s);
}

/** Any failure during compile or evaluation → ExpressionError (never a raw JS error). */
function wrap(e: unknown, source: string, where: string | undefined): ExpressionError {
  if (e instanceof ExpressionError)
    return e.where === undefined && where !== undefined
      ? new ExpressionError(e.detail, e.expression, where, e.position, e.netError)
      : e;
  if (e instanceof SyntaxErr)
    return new ExpressionError(`syntax error at ${e.pos + 1}: ${e.message}`, source, where, e.pos, 'SyntaxError');
  if (e instanceof ValueError) return new ExpressionError(e.message, source, where, undefined, e.netError);
  if (e instanceof TemplateError) return new ExpressionError(e.message, source, where);
  if (e instanceof RangeError && /call stack/i.test(e.message))
    return new ExpressionError('expression is nested too deeply', source, where, undefined, 'LimitExceeded');
  if (e instanceof Error) return new ExpressionError(`evaluation failed: ${e.message}`, source, where);
  return new ExpressionError('evaluation failed', source, where);
}

// ---------------------------------------------------------------------------------------------
// Interpreter

function unknownName(name: string, extra = ''): ValueError {
  return new ValueError('KeyNotFoundException', `unknown name "${name}"${extra}`);
}

function evalChain(ctx: Ctx, n: Extract<Node, { k: 'chain' }>): Value {
  const count = n.segs.length;
  let found = -1;
  let v: Value | undefined;
  // Try the prefix that worked last time first, then longest to shortest.
  if (n.hint >= 1 && n.hint <= count) {
    v = lookupName(ctx, n.names[n.hint - 1]!);
    if (v !== undefined) found = n.hint;
  }
  if (found < 0) {
    for (let k = count; k >= 1; k--) {
      if (k === n.hint) continue;
      v = lookupName(ctx, n.names[k - 1]!);
      if (v !== undefined) {
        found = k;
        n.hint = k;
        break;
      }
    }
  }
  if (found < 0 || v === undefined) throw unknownName(n.names[count - 1]!);
  for (let i = found; i < count; i++) v = getMember(ctx, cv(ctx, v), n.segs[i]!);
  return v;
}

function evalArgs(ctx: Ctx, args: readonly Node[], raw: boolean): Value[] {
  const out: Value[] = [];
  for (const a of args) out.push(raw ? evalNode(ctx, a) : cv(ctx, evalNode(ctx, a)));
  return out;
}

function callFn(
  ctx: Ctx,
  fn: NonNullable<ReturnType<typeof FUNCTIONS.get>>,
  name: string,
  args: readonly Node[],
): Value {
  checkArgs(name, fn, args.length);
  switch (fn.mode) {
    case 'lazy':
      return fn.fn(ctx, [], (i) => evalNode(ctx, args[i]!), args.length);
    case 'isnull': {
      // IsNull("Orders.ShippedDate") looks the name up; IsNull([X]) checks the value itself.
      const a = args[0]!;
      if (a.k === 'ref' || a.k === 'chain') return isNullish(evalNode(ctx, a));
      const v = cv(ctx, evalNode(ctx, a));
      if (typeof v !== 'string') return isNullish(v);
      const r = lookupName(ctx, v);
      return r === undefined || isNullish(r);
    }
    default: {
      const values = evalArgs(ctx, args, fn.mode === 'raw');
      return fn.fn(ctx, values, (i) => values[i]!, values.length);
    }
  }
}

/** `a + b` where an operand's static type is string. */
function isStringConcat(ctx: Ctx, n: Extract<Node, { k: 'bin' }>): boolean {
  return staticType(ctx, n.a) === 'System.String' || staticType(ctx, n.b) === 'System.String';
}

/** Binary operators other than && || ??. */
export function evalBinary(ctx: Ctx, op: string, ra: Value, rb: Value): Value {
  if (op === '==' || op === '!=') {
    // Comparisons with null / DBNull.Value see the raw value (docs/reports.md, Templates), whatever
    // ConvertNulls says.
    let eq: boolean;
    if (typeof ra === 'string' && typeof rb === 'string' && ra.length >= 64 && ra.length === rb.length)
      chargeScan(ctx, ra);
    if (ra === null || rb === null) eq = isNullish(ra) && isNullish(rb);
    else eq = equals(...operands(ctx, ra, rb));
    return op === '==' ? eq : !eq;
  }
  const [a, b] = operands(ctx, ra, rb);
  switch (op) {
    case '<':
    case '>':
    case '<=':
    case '>=':
      return compare(op, a, b);
  }
  return arith(ctx, op, a, b);
}

/** ConvertNulls on both operands; an untyped null from data takes the other side's zero. */
function operands(ctx: Ctx, a: Value, b: Value): [Value, Value] {
  if (ctx.convertNulls) {
    if (a === NullOf.Untyped) a = zeroLike(cv(ctx, b));
    if (b === NullOf.Untyped) b = zeroLike(cv(ctx, a));
  }
  return [cv(ctx, a), cv(ctx, b)];
}

export function evalNode(ctx: Ctx, n: Node): Value {
  if (++ctx.steps > ctx.limits.maxSteps) charge(ctx, 0);
  switch (n.k) {
    case 'lit':
      return n.v;
    case 'ref': {
      const v = lookupName(ctx, n.name);
      if (v === undefined) throw unknownName(`[${n.name}]`);
      return v;
    }
    case 'chain':
      return evalChain(ctx, n);
    case 'name': {
      const v = lookupName(ctx, n.name);
      if (v !== undefined) return v;
      if (n.alt) return evalNode(ctx, n.alt);
      throw unknownName(n.name, n.err ? ` (and not a valid expression: ${n.err})` : '');
    }
    case 'static':
      return STATIC_TYPES.get(n.type)!.props.get(n.member)!(ctx);
    case 'member': {
      const o = cv(ctx, evalNode(ctx, n.obj));
      if (n.nc && o === null) return null;
      return getMember(ctx, o, n.name);
    }
    case 'mcall': {
      const o = cv(ctx, evalNode(ctx, n.obj));
      if (n.nc && o === null) return null;
      return callMethod(ctx, o, n.method, evalArgs(ctx, n.args, false));
    }
    case 'index':
      return indexValue(cv(ctx, evalNode(ctx, n.obj)), cv(ctx, evalNode(ctx, n.index)));
    case 'call':
      return callFn(ctx, FUNCTIONS.get(n.fn)!, n.fn, n.args);
    case 'scall':
      return callFn(ctx, STATIC_TYPES.get(n.type)!.methods.get(n.method)!, n.method, n.args);
    case 'unary':
      return unary(n.op, cv(ctx, evalNode(ctx, n.x)));
    case 'bin': {
      switch (n.op) {
        case '&&':
          return toCondition(cv(ctx, evalNode(ctx, n.a))) ? toCondition(cv(ctx, evalNode(ctx, n.b))) : false;
        case '||':
          return toCondition(cv(ctx, evalNode(ctx, n.a))) ? true : toCondition(cv(ctx, evalNode(ctx, n.b)));
        case '??': {
          const a = evalNode(ctx, n.a);
          return isNullish(a) ? evalNode(ctx, n.b) : a;
        }
      }
      const a = evalNode(ctx, n.a);
      const b = evalNode(ctx, n.b);
      // string + null is string concatenation (null is ""), known from the operand's type.
      if (n.op === '+' && (isNullish(a) || isNullish(b)) && isStringConcat(ctx, n))
        return evalBinary(ctx, n.op, isNullish(a) ? '' : a, isNullish(b) ? '' : b);
      return evalBinary(ctx, n.op, a, b);
    }
    case 'cond': {
      const taken = toCondition(cv(ctx, evalNode(ctx, n.c)));
      return toBranchType(ctx, evalNode(ctx, taken ? n.a : n.b), taken ? n.b : n.a);
    }
    case 'cast':
      return castTo(ctx, cv(ctx, evalNode(ctx, n.x)), n.type, n.nullable);
    case 'new':
      return construct(n.type, evalArgs(ctx, n.args, false));
    case 'ucall':
      if (!ctx.script && ctx.scope.callScript)
        return fromResolved(ctx.scope.callScript(n.name, evalArgs(ctx, n.args, false)));
      if (!ctx.script) throw fail('this is only allowed in a report script');
      return ctx.script.evaluate(ctx, n);
    case 'assign':
    case 'incdec':
    case 'snew':
    case 'typetest':
      if (!ctx.script) throw fail('this is only allowed in a report script');
      return ctx.script.evaluate(ctx, n);
  }
}

// ---------------------------------------------------------------------------------------------
// Compile

function limitsOf(opts: CompileOptions | undefined): ExpressionLimits {
  return opts?.limits ? { ...DEFAULT_LIMITS, ...opts.limits } : DEFAULT_LIMITS;
}

/** A source holding one of these is never tried as a whole name (brackets delimit names,
 *  quotes delimit strings). */
const NOT_NAME_RE = /[[\]"']/;
/** A source that is not valid C# but is made of these characters is taken to be a data name
 *  ("Order Details.UnitPrice", "Row#", "Qty/Box (kg)") and looked up at evaluation; anything
 *  else that does not parse is a compile error. */
const NAME_LIKE_RE = /^[\p{L}\p{N}\p{M}\p{Pc}\s#\-./()$%&@]+$/u;

/**
 * Compiles a C# expression once; evaluate it per row with `evaluate(scope)`.
 *
 * The source may be a whole FastReport expression as found in .frx attributes and text parts:
 * "[Orders.OrderID]", "Orders.OrderID", "[A] * [B]", "IIf([X] == null, \"-\", [X])". A source
 * that may be a name (no brackets inside, no quotes) is looked up in the scope first, the way
 * Report.Calc does, and only then evaluated as C# (see Scope in types.ts).
 *
 * Throws an ExpressionError (a TemplateError) for a syntax error, an unknown function, or a
 * source over the limits.
 */
export function compileExpression(source: string, options?: CompileOptions): CompiledExpression {
  const limits = limitsOf(options);
  const where = options?.where;
  if (typeof source !== 'string') throw new ExpressionError('the expression is not text', String(source), where);
  if (source.length > limits.maxLength)
    throw new ExpressionError(
      `the expression is longer than ${limits.maxLength} characters`,
      source,
      where,
      undefined,
      'LimitExceeded',
    );
  const trimmed = source.trim();
  if (trimmed === '') throw new ExpressionError('empty expression', source, where, 0, 'SyntaxError');

  // Report.Calc: one pair of outer brackets stripped, then the text as a name.
  let candidate: string | undefined;
  const inner = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1).trim() : trimmed;
  if (inner !== '' && !NOT_NAME_RE.test(inner)) candidate = inner;

  let ast: Node | null = null;
  let err: unknown;
  try {
    const parser = new Parser(source, limits.maxDepth);
    parser.userFunctions = options?.isFunction;
    ast = parser.parseAll();
  } catch (e) {
    err = e;
  }
  // With the dictionary at hand (options.isName) the decision is FastReport's: a known name is a
  // name, anything else is C#. Without it, every candidate is looked up first at evaluation.
  let known = false;
  if (candidate !== undefined && options?.isName) {
    try {
      known = options.isName(candidate) === true;
    } catch (e) {
      throw wrap(e, source, where);
    }
    if (!known) candidate = undefined;
  }
  let root: Node;
  if (
    candidate === undefined ||
    (ast?.k === 'chain' && ast.names[ast.names.length - 1] === candidate) ||
    (ast?.k === 'ref' && ast.name.trim() === candidate)
  ) {
    if (!ast) throw wrap(err, source, where);
    root = ast;
  } else {
    const nameOnly =
      !ast && err instanceof SyntaxErr && (known || (!(err instanceof BindErr) && NAME_LIKE_RE.test(candidate)));
    if (!ast && !nameOnly) throw wrap(err, source, where);
    root = {
      k: 'name',
      pos: 0,
      d: (ast?.d ?? 0) + 1,
      name: candidate,
      alt: ast,
      err: ast ? null : (err as SyntaxErr).message,
    };
  }
  const references = Object.freeze(collectReferences(root));

  const run = (scope: Scope, whereNow: string | undefined): TypedValue => {
    try {
      if (scope === null || typeof scope !== 'object' || typeof scope.resolve !== 'function')
        throw fail('no scope to evaluate in');
      const ctx = makeCtx(scope, limits);
      const raw = evalNode(ctx, root);
      const v = cv(ctx, raw);
      const type = v === null && raw instanceof NullOf ? (raw.type ?? 'System.Object') : typeNameOf(v);
      return { value: toPublic(v), type };
    } catch (e) {
      throw wrap(e, source, whereNow);
    }
  };

  return Object.freeze({
    source,
    ast: root,
    references,
    evaluate: (scope: Scope, w?: string) => run(scope, w ?? where).value,
    evaluateTyped: (scope: Scope, w?: string) => run(scope, w ?? where),
  });
}
