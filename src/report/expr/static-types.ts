// The static type C# gives an expression, where it can be told without evaluating it: literals,
// casts, arithmetic and conditionals over them, and (in report scripts) the declared types of
// locals, fields and methods. C# types the conditional `c ? 1 : 2.5` as double whichever branch
// is taken, and `s + t` of two null strings as a string (""): both need the type of an operand
// that is not evaluated, or whose value (null) says nothing.

import type { Node } from './ast.js';
import type { Ctx } from './context.js';
import { DEC, DOUBLE, FLOAT, INT, LONG, type NumKind, numKind, promote, toKind } from './numeric-kinds.js';
import { canonicalType, INT_TYPES, LONG_TYPES, typeNameOf } from './type-names.js';
import { Chr, type Value } from './values.js';

const KIND_TYPES = ['System.Int32', 'System.Int64', 'System.Single', 'System.Double', 'System.Decimal'] as const;

/** The numeric kind of a canonical type name (char counts as int, as in arithmetic). */
function kindOfType(t: string | undefined): NumKind | undefined {
  if (t === undefined) return undefined;
  if (INT_TYPES.has(t) || t === 'System.Char') return INT;
  if (LONG_TYPES.has(t)) return LONG;
  if (t === 'System.Single') return FLOAT;
  if (t === 'System.Double') return DOUBLE;
  if (t === 'System.Decimal') return DEC;
  return undefined;
}

/** Static types already worked out (a node's type never changes: it names the same things). */
const known = new WeakMap<Node, string | null>();

/** The canonical static type of a node ('System.Double'…), or undefined when it cannot be told. */
export function staticType(ctx: Ctx, n: Node): string | undefined {
  const seen = known.get(n);
  if (seen !== undefined) return seen ?? undefined;
  const t = typeOfNode(ctx, n);
  known.set(n, t ?? null);
  return t;
}

function typeOfNode(ctx: Ctx, n: Node): string | undefined {
  switch (n.k) {
    case 'lit':
      return n.v === null ? undefined : typeNameOf(n.v);
    case 'cast':
      return n.type;
    case 'unary': {
      if (n.op === '!') return 'System.Boolean';
      const k = kindOfType(staticType(ctx, n.x));
      return k === undefined ? undefined : KIND_TYPES[k];
    }
    case 'bin': {
      if (['==', '!=', '<', '>', '<=', '>=', '&&', '||'].includes(n.op)) return 'System.Boolean';
      if (!['+', '-', '*', '/', '%'].includes(n.op)) return undefined;
      const a = staticType(ctx, n.a);
      const b = staticType(ctx, n.b);
      if (n.op === '+' && (a === 'System.String' || b === 'System.String')) return 'System.String';
      return commonType(a, b);
    }
    case 'cond': {
      const a = staticType(ctx, n.a);
      const b = staticType(ctx, n.b);
      return a === b ? a : commonType(a, b);
    }
    case 'chain':
    case 'ucall':
      return canonicalType(ctx.script?.typeOf?.(n));
  }
  return undefined;
}

/** The type of arithmetic on two numeric types (undefined unless both are numeric). */
function commonType(a: string | undefined, b: string | undefined): string | undefined {
  const ka = kindOfType(a);
  const kb = kindOfType(b);
  return ka === undefined || kb === undefined ? undefined : KIND_TYPES[promote(ka, kb)];
}

/** The value of the branch a conditional took, converted to the type the two branches share
 *  (`c ? 1 : 2.5` is 1.0 when c holds): numbers only; anything else stays as it is. */
export function toBranchType(ctx: Ctx, v: Value, other: Node): Value {
  const kv = numKind(v);
  if (kv < 0) return v;
  const t = staticType(ctx, other);
  const ko = kindOfType(t);
  if (ko === undefined || (v instanceof Chr && t === 'System.Char')) return v;
  const k = promote(kv as NumKind, ko);
  return k !== kv || v instanceof Chr ? toKind(v, k) : v;
}
