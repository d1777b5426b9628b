// Compiled expressions of one run: every template text and expression attribute is compiled once
// (per owner object, property and source) and evaluated per row against the report scope.

import {
  compileExpression,
  compileTemplate,
  type CompiledExpression,
  type CompiledTemplate,
  type TypedValue,
} from '../expr/index.js';
import { originOf } from './model-origin.js';
import type { ReportScope } from './scope.js';

/** Compiled forms of one owner's property: the last source, and others it had (a script may
 *  change a text back and forth), a few at most. */
class Compiled<T> {
  source = '';
  value: T | undefined;
  private others: Map<string, T> | undefined;

  get(source: string): T | undefined {
    if (source === this.source) return this.value;
    return this.others?.get(source);
  }

  set(source: string, value: T): void {
    if (this.value !== undefined) {
      this.others ??= new Map();
      if (this.others.size >= 64) this.others.clear();
      this.others.set(this.source, this.value);
    }
    this.source = source;
    this.value = value;
  }
}

export class Expressions {
  // By the template object (a script's live copy looks up its template: model-origin.ts) and key;
  // the source is compared too, since a script may have changed it.
  private readonly templates = new WeakMap<object, Map<string, Compiled<CompiledTemplate>>>();
  private readonly exprs = new WeakMap<object, Map<string, Compiled<CompiledExpression>>>();

  constructor(readonly scope: ReportScope) {}

  /** A text with [bracket] expressions, compiled once per owner, key and text. */
  template(owner: object, key: string, text: string, brackets: string, where: string): CompiledTemplate {
    const base = originOf(owner);
    let byKey = this.templates.get(base);
    if (!byKey) this.templates.set(base, (byKey = new Map()));
    let c = byKey.get(key);
    if (!c) byKey.set(key, (c = new Compiled()));
    const source = brackets === '[,]' ? text : `${brackets}\u0000${text}`;
    let t = c.get(source);
    if (!t) {
      t = compileTemplate(text, { brackets, where, isName: this.scope.isName, isFunction: this.scope.isFunction });
      c.set(source, t);
    }
    return t;
  }

  expression(owner: object, key: string, source: string, where: string): CompiledExpression {
    const base = originOf(owner);
    let byKey = this.exprs.get(base);
    if (!byKey) this.exprs.set(base, (byKey = new Map()));
    let c = byKey.get(key);
    if (!c) byKey.set(key, (c = new Compiled()));
    let e = c.get(source);
    if (!e) {
      e = compileExpression(source, { where, isName: this.scope.isName, isFunction: this.scope.isFunction });
      c.set(source, e);
    }
    return e;
  }

  /** Evaluates an expression attribute (Report.Calc). */
  calc(owner: object, key: string, source: string, where: string): TypedValue {
    return this.expression(owner, key, source, where).evaluateTyped(this.scope, where);
  }

  /** Evaluates an expression attribute to the text the report shows of its value (Bookmark,
   *  Hyperlink, OutlineExpression); undefined when the value is null. */
  text(owner: object, key: string, source: string, where: string): string | undefined {
    const v = this.calc(owner, key, source, where).value;
    return v === null || v === undefined ? undefined : this.scope.formatter.format(v, '');
  }

  /** Evaluates a condition: true/false, or undefined when the result is not a boolean (FastReport
   *  then keeps its default). */
  condition(owner: object, key: string, source: string, where: string): boolean | undefined {
    const v = this.calc(owner, key, source, where).value;
    return typeof v === 'boolean' ? v : undefined;
  }
}
