// The names of a running report script: its fields, the locals of the running method (a scope
// per block, checked as C# checks them when it compiles) and what the host (the report) knows.
// The interpreter (interpreter.ts) builds on it.

import { ScriptDelegate } from './delegates.js';
import type { Node } from '../expr/ast.js';
import type { Resolved, Scope, Formatter } from '../expr/types.js';
import { ValueError } from '../expr/value-error.js';
import type { Value } from '../expr/values.js';
import type { MethodDecl, Stmt } from './ast.js';

/** What the script reaches beyond itself: the report (its objects, data, Report and Engine). */
export interface ScriptHost {
  readonly convertNulls: boolean;
  readonly formatter?: Formatter;
  /** A name the script does not define (`Text1.Text`, `Report`, a data column). */
  resolve(name: string): Resolved | undefined;
  /** Sets `Text1.Text = v` (the name's segments); false when there is no such thing to set. */
  assign(segs: readonly string[], v: Value): boolean;
  /** `new SolidFill(…)` and the other report types (undefined for a type it does not make). */
  construct?(type: string, args: readonly Value[]): Value | undefined;
}

/** A script error that ends the render: the method and line it happened in. */
export class ScriptError extends Error {
  constructor(
    message: string,
    readonly method: string,
    readonly line: number,
    /** A budget or limit ran out (the render must stop, not only the handler). */
    readonly limit = false,
  ) {
    super(`${message} (script method ${method}, line ${line})`);
  }
}

export interface Slot {
  v: Value;
  type: string;
}

/** The locals of one scope of the running method. */
interface Frame {
  readonly slots: Map<string, Slot>;
  /** The names the scope's own statements declare, before or after the one running. */
  readonly reserved: readonly string[];
}

/** The names each block's statements declare, worked out once per block. */
const declaredIn = new WeakMap<Stmt, readonly string[]>();

/** The names a block's (or a switch's) own statements declare. */
function localsOf(scope: Stmt): readonly string[] {
  let names = declaredIn.get(scope);
  if (!names) {
    const body = scope.k === 'block' ? scope.body : scope.k === 'switch' ? scope.sections.flatMap((x) => x.body) : [];
    names = body.flatMap((s) => (s.k === 'local' ? s.decls.map((d) => d.name) : []));
    declaredIn.set(scope, names);
  }
  return names;
}

export abstract class ScriptScopes {
  protected readonly fields = new Map<string, Slot>();
  protected readonly methods = new Map<string, MethodDecl[]>();
  /** The locals of the running method: one scope per block. */
  protected frames: Frame[] = [];
  protected current: { method: string; line: number } = { method: '(fields)', line: 0 };

  constructor(protected readonly host: ScriptHost) {}

  protected scope(): Scope {
    return {
      convertNulls: this.host.convertNulls,
      ...(this.host.formatter ? { formatter: this.host.formatter } : {}),
      resolve: (name) => {
        // `this.x` is the field x, even where a local x hides it.
        if (name.startsWith('this.')) {
          const field = this.fields.get(name.slice(5));
          return field ? { value: field.v } : this.host.resolve(name.slice(5));
        }
        const own = this.slot(name);
        if (own) return { value: own.v };
        const r = this.host.resolve(name);
        if (r) return r;
        // A method's bare name is the method as a value (an event handler).
        return this.methods.has(name) ? { value: new ScriptDelegate(name) } : undefined;
      },
    };
  }

  protected slot(name: string): Slot | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const s = this.frames[i]?.slots.get(name);
      if (s) return s;
    }
    return this.fields.get(name);
  }

  protected declare(name: string, type: string, v: Value): void {
    const top = this.frames.length - 1;
    const frame = this.frames[top];
    if (!frame) throw new ValueError('InvalidOperationException', 'no method is running');
    if (frame.slots.has(name)) throw new ValueError('InvalidOperationException', `'${name}' is already declared here`);
    // C# refuses to compile a local that reuses the name of a local or parameter of an enclosing
    // scope of the method, declared before or after it; not an exception a catch could take.
    for (let i = 0; i < top; i++) {
      const outer = this.frames[i] as Frame;
      if (outer.slots.has(name) || outer.reserved.includes(name))
        throw new ScriptError(
          `a local or parameter named '${name}' cannot be declared in this scope because that name is used ` +
            'in an enclosing local scope to define a local or parameter',
          this.current.method,
          this.current.line,
        );
    }
    frame.slots.set(name, { v, type });
  }

  /** The declared type of what a node names, where it names a local, a field or a method of the
   *  script (for the static typing C# does: `b ? 1 : d`, `s + t` with null strings). */
  typeOf(n: Node): string | undefined {
    if (n.k === 'ucall') return this.methods.get(n.name)?.[0]?.returnType;
    if (n.k !== 'chain') return undefined;
    const [first, second] = n.segs;
    const slot =
      n.segs.length === 1
        ? this.slot(first as string)
        : first === 'this' && n.segs.length === 2
          ? this.fields.get(second as string)
          : undefined;
    return slot && slot.type !== 'var' ? slot.type : undefined;
  }

  /** Runs `fn` in a new scope, whose statements `body` declare locals (C#'s scope of a local is
   *  its whole block: a nested block may not reuse the name even before the declaration). */
  protected block<T>(fn: () => T, scope?: Stmt): T {
    this.frames.push({ slots: new Map(), reserved: scope ? localsOf(scope) : [] });
    try {
      return fn();
    } finally {
      this.frames.pop();
    }
  }
}
