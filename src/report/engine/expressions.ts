// Compiled expressions of one run: every template text and expression attribute is compiled once
// (per owner object and property) and evaluated per row against the report scope.

import {
  compileExpression,
  compileTemplate,
  type CompiledExpression,
  type CompiledTemplate,
  type TypedValue,
} from '../expr/index.js';
import type { ReportScope } from './scope.js';

export class Expressions {
  private readonly templates = new WeakMap<object, Map<string, CompiledTemplate>>();
  private readonly exprs = new WeakMap<object, Map<string, CompiledExpression>>();

  constructor(readonly scope: ReportScope) {}

  /** A text with [bracket] expressions, compiled once per owner and key. */
  template(owner: object, key: string, text: string, brackets: string, where: string): CompiledTemplate {
    let byKey = this.templates.get(owner);
    if (!byKey) this.templates.set(owner, (byKey = new Map()));
    let t = byKey.get(key);
    if (!t) {
      t = compileTemplate(text, { brackets, where, isName: this.scope.isName, isFunction: this.scope.isFunction });
      byKey.set(key, t);
    }
    return t;
  }

  expression(owner: object, key: string, source: string, where: string): CompiledExpression {
    let byKey = this.exprs.get(owner);
    if (!byKey) this.exprs.set(owner, (byKey = new Map()));
    let e = byKey.get(key);
    if (!e) {
      e = compileExpression(source, { where, isName: this.scope.isName, isFunction: this.scope.isFunction });
      byKey.set(key, e);
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
