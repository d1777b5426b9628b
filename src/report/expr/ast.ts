// Syntax tree of an expression. Every node has its source offset (`pos`) and its depth (`d`,
// 1 for a leaf), which the parser checks against the depth limit as it builds.

import type { Value } from './values.js';

interface Base {
  readonly pos: number;
  readonly d: number;
}

/** A literal: number, string, char, true/false/null. */
export interface Lit extends Base {
  readonly k: 'lit';
  readonly v: Value;
}
/** A data reference `[name]`: `name` is the raw text between the brackets. */
export interface Ref extends Base {
  readonly k: 'ref';
  readonly name: string;
}
/** A bare identifier chain `a.b.c` resolved through the scope (longest known prefix wins).
 *  `names[i]` is the joined name of the first i+1 segments. */
export interface Chain extends Base {
  readonly k: 'chain';
  readonly segs: readonly string[];
  readonly names: readonly string[];
  /** The prefix length that resolved last time (a lookup hint; any value is safe). */
  hint: number;
}
/** A whole expression that may be a name (Report.Calc): tried with resolve first, then `alt`. */
export interface NameFirst extends Base {
  readonly k: 'name';
  readonly name: string;
  readonly alt: Node | null;
  /** Why the source is not valid C# (when `alt` is null). */
  readonly err: string | null;
}
/** A static property: `Math.PI`, `DateTime.Now`, `DBNull.Value`. */
export interface Static extends Base {
  readonly k: 'static';
  readonly type: string;
  readonly member: string;
}
/** `obj.name` (property of a value); `?.` when nc. */
export interface Member extends Base {
  readonly k: 'member';
  readonly obj: Node;
  readonly name: string;
  readonly nc: boolean;
}
/** A standard function: `IIf(…)`, `Round(…)`. */
export interface Call extends Base {
  readonly k: 'call';
  readonly fn: string;
  readonly args: readonly Node[];
}
/** A static method: `Math.Round(…)`, `String.Format(…)`, `Report.GetColumnValue(…)`. */
export interface StaticCall extends Base {
  readonly k: 'scall';
  readonly type: string;
  readonly method: string;
  readonly args: readonly Node[];
}
/** A method of a value: `x.Substring(0, 1)`; `?.` when nc. */
export interface MethodCall extends Base {
  readonly k: 'mcall';
  readonly obj: Node;
  readonly method: string;
  readonly args: readonly Node[];
  readonly nc: boolean;
}
/** `obj[index]`. */
export interface Index extends Base {
  readonly k: 'index';
  readonly obj: Node;
  readonly index: Node;
}
export interface Unary extends Base {
  readonly k: 'unary';
  readonly op: '-' | '+' | '!' | '~';
  readonly x: Node;
}
/** Binary operators, including && || ?? (evaluated lazily). */
export interface Binary extends Base {
  readonly k: 'bin';
  readonly op: string;
  readonly a: Node;
  readonly b: Node;
}
export interface Cond extends Base {
  readonly k: 'cond';
  readonly c: Node;
  readonly a: Node;
  readonly b: Node;
}
/** `(type)x` / `(type?)x`: `type` is a canonical .NET name ("System.Int32"). */
export interface Cast extends Base {
  readonly k: 'cast';
  readonly type: string;
  readonly nullable: boolean;
  readonly x: Node;
}
/** `new DateTime(…)` / `new TimeSpan(…)`. */
export interface New extends Base {
  readonly k: 'new';
  readonly type: string;
  readonly args: readonly Node[];
}

// Script mode only (report scripts, src/report/script): the parser makes these when it parses a
// script, and only a script's evaluation hooks (Ctx.script) evaluate them.

/** `target op value` with op `=`, `+=`, `-=`, … `??=`; the target is a chain, member or index. */
export interface Assign extends Base {
  readonly k: 'assign';
  readonly target: Node;
  readonly op: string;
  readonly value: Node;
}
/** `++x`, `x--` … */
export interface IncDec extends Base {
  readonly k: 'incdec';
  readonly target: Node;
  readonly op: '++' | '--';
  readonly prefix: boolean;
}
/** A method of the script: `GroupRank()`, `this.Total(1)`. */
export interface UserCall extends Base {
  readonly k: 'ucall';
  readonly name: string;
  readonly args: readonly Node[];
}
/** `new T(args) { init }`, `new T<A, B>()`, `new T[n]`, `new T[] { … }`, `new[] { … }`. */
export interface ScriptNew extends Base {
  readonly k: 'snew';
  /** As written, without its type arguments ('' for `new[]`). */
  readonly type: string;
  readonly typeArgs: readonly string[];
  readonly args: readonly Node[];
  /** An array's length (`new int[n]`), null otherwise. */
  readonly length: Node | null;
  readonly array: boolean;
  /** A collection or array initializer's items, null without one. */
  readonly init: readonly Node[] | null;
}
/** `x is T` / `x as T`. */
export interface TypeTest extends Base {
  readonly k: 'typetest';
  readonly op: 'is' | 'as';
  readonly x: Node;
  readonly type: string;
}

export type ScriptNode = Assign | IncDec | UserCall | ScriptNew | TypeTest;

export type Node =
  | Lit
  | Ref
  | Chain
  | NameFirst
  | Static
  | Member
  | Call
  | StaticCall
  | MethodCall
  | Index
  | Unary
  | Binary
  | Cond
  | Cast
  | New
  | ScriptNode;
