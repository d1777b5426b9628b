// Runs a parsed report script: its fields, its methods, their statements. Expressions are
// evaluated by the expression engine (its values and .NET semantics), with this file answering
// for what only scripts do (assignments, the script's methods, `new`, `is`/`as`) through the
// evaluation hooks. Names are the method's locals, then the script's fields, then what the host
// (the report) knows. Every statement and expression step counts against the step budget, every
// collection item against the memory budget: a loop that never ends or a runaway allocation ends
// the render with a template error naming the method and line.

import { EventSlot } from './delegates.js';
import type { Node, ScriptNode } from '../expr/ast.js';
import { type Ctx, cv, isNullish, makeCtx, type ScriptHooks } from '../expr/context.js';
import { evalBinary, evalNode } from '../expr/evaluate.js';
import { arith } from '../expr/ops.js';
import { DEFAULT_LIMITS } from '../expr/types.js';
import { ValueError } from '../expr/value-error.js';
import { HostObject, type Value } from '../expr/values.js';
import { canonicalType, typeNameOf } from '../expr/type-names.js';
import { toCondition } from '../expr/functions.js';
import { getMember } from '../expr/instance-members.js';
import type { MethodDecl, ScriptProgram, Stmt } from './ast.js';
import { coerce, defaultFor } from './coerce.js';
import { iterate, MemoryBudget } from './collections.js';
import { ScriptException } from './exceptions.js';
import { construct, isType, setOn } from './objects.js';
import { type ScriptHost, ScriptError, ScriptScopes, type Slot } from './scopes.js';

export { type ScriptHost, ScriptError } from './scopes.js';

export interface ScriptLimits {
  /** Statements and expression steps of the whole render. */
  maxSteps: number;
  /** Collection items alive at once (counted as they are added). */
  maxItems: number;
  /** Calls nested (recursion). */
  maxDepth: number;
}

export const DEFAULT_SCRIPT_LIMITS: Readonly<ScriptLimits> = Object.freeze({
  maxSteps: 20_000_000,
  maxItems: 2_000_000,
  maxDepth: 200,
});

/** A C# exception in flight (`throw`, or a failed operation a `catch` may take). */
class Thrown {
  constructor(readonly exception: ScriptException) {}
}

type Completion = undefined | { k: 'break' } | { k: 'continue' } | { k: 'return'; v: Value };

export class ScriptRuntime extends ScriptScopes implements ScriptHooks {
  private depth = 0;
  /** The exceptions the running `catch` clauses took, innermost last (for `throw;`). */
  private handling: ScriptException[] = [];
  readonly ctx: Ctx;
  readonly budget: MemoryBudget;

  constructor(
    readonly program: ScriptProgram,
    host: ScriptHost,
    private readonly limits: ScriptLimits = DEFAULT_SCRIPT_LIMITS,
  ) {
    super(host);
    for (const m of program.methods) this.methods.set(m.name, [...(this.methods.get(m.name) ?? []), m]);
    this.budget = new MemoryBudget(limits.maxItems, (n) => this.charge(n));
    this.ctx = makeCtx(this.scope(), { ...DEFAULT_LIMITS, maxSteps: limits.maxSteps }, this);
  }

  /** Runs the field initialisers and the constructor. */
  init(): void {
    for (const f of this.program.fields) {
      this.current = { method: `field ${f.name}`, line: f.line };
      const v = f.init ? this.guard(() => this.initial(f.init as Node, f.type)) : defaultFor(f.type);
      this.fields.set(f.name, { v, type: f.type });
    }
    if (this.methods.has('.ctor')) this.call('.ctor', []);
  }

  hasMethod(name: string): boolean {
    return (this.methods.get(name) ?? []).some((m) => m.body !== null);
  }

  /** A field's value (undefined when the script has no such field). */
  field(name: string): Value | undefined {
    return this.fields.get(name)?.v;
  }

  /** Calls a method of the script by name with evaluated arguments. */
  call(name: string, args: readonly Value[]): Value {
    const m = (this.methods.get(name) ?? []).find(
      (x) => args.length <= x.params.length && args.length >= x.params.filter((p) => p.init === null).length,
    );
    if (!m)
      throw new ValueError(
        'MissingMethodException',
        `the script has no method ${name} taking ${args.length} arguments`,
      );
    if (!m.body)
      throw new ValueError('InvalidOperationException', `the script's method ${name} was left out (${m.refused})`);
    if (++this.depth > this.limits.maxDepth)
      throw new ValueError('LimitExceeded', `script calls nest more than ${this.limits.maxDepth} deep`);
    const saved = { frames: this.frames, current: this.current, handling: this.handling };
    this.frames = [{ slots: new Map(), reserved: [] }];
    this.handling = [];
    this.current = { method: name, line: m.line };
    try {
      return this.run(m, args);
    } catch (e) {
      // Where it happened, for the message if nothing catches it.
      if (typeof e === 'object' && e !== null && !this.whereOf.has(e)) this.whereOf.set(e, { ...this.current });
      throw e;
    } finally {
      this.depth--;
      this.frames = saved.frames;
      this.current = saved.current;
      this.handling = saved.handling;
    }
  }

  /** Where each error in flight happened (the innermost method and line). */
  private readonly whereOf = new WeakMap<object, { method: string; line: number }>();

  private run(m: MethodDecl, args: readonly Value[]): Value {
    m.params.forEach((p, i) => {
      const v = i < args.length ? (args[i] as Value) : this.value(p.init as Node, p.type);
      this.declare(p.name, p.type, coerce(v, p.type));
    });
    const done = this.exec(m.body as Stmt);
    // The value converts to the declared return type (`double One() { return 1; }` gives 1.0).
    return done?.k === 'return' ? coerce(done.v, m.returnType) : null;
  }

  /** Runs `fn`, turning what escapes into a ScriptError naming where it happened. */
  guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      if (e instanceof ScriptError) throw e;
      const at = (typeof e === 'object' && e !== null && this.whereOf.get(e)) || this.current;
      if (e instanceof Thrown)
        throw new ScriptError(`uncaught ${e.exception.typeName}: ${e.exception.message}`, at.method, at.line);
      if (e instanceof ValueError) throw new ScriptError(e.message, at.method, at.line, e.netError === 'LimitExceeded');
      // The JS stack ran out (deep recursion in an expression).
      if (e instanceof RangeError) throw new ScriptError(e.message, at.method, at.line, true);
      throw e;
    }
  }

  private value(n: Node, type?: string): Value {
    const v = cv(this.ctx, evalNode(this.ctx, n));
    return type ? coerce(v, type) : v;
  }

  /** A local's or a field's initial value: `int[] a = { 1, 2 }` is an int[]. */
  private initial(n: Node, type: string): Value {
    if (n.k === 'snew' && n.type === '' && n.array && type.endsWith('[]'))
      return this.construct(this.ctx, { ...n, type: type.slice(0, -2) });
    return this.value(n, type === 'var' ? undefined : type);
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  private step(s: Stmt): void {
    this.current = { method: this.current.method, line: this.program.lineOf(s.pos) };
    this.charge(1);
  }

  /** Counts `n` steps against the step budget. */
  private charge(n: number): void {
    this.ctx.steps += n;
    if (this.ctx.steps > this.limits.maxSteps)
      throw new ValueError('LimitExceeded', `the script takes more than ${this.limits.maxSteps} steps`);
  }

  private exec(s: Stmt): Completion {
    this.step(s);
    switch (s.k) {
      case 'block':
        return this.block(() => {
          for (const x of s.body) {
            const done = this.exec(x);
            if (done) return done;
          }
          return undefined;
        }, s);
      case 'local':
        for (const d of s.decls) {
          const v = d.init ? this.initial(d.init, s.type) : defaultFor(s.type);
          // `var` is the type of its initial value (`var n = 5; n += 2.5;` keeps an int).
          this.declare(d.name, s.type === 'var' && v !== null ? typeNameOf(v) : s.type, v);
        }
        return undefined;
      case 'expr':
        evalNode(this.ctx, s.x);
        return undefined;
      case 'if':
        return this.truth(s.cond) ? this.exec(s.then) : s.else ? this.exec(s.else) : undefined;
      case 'while':
        while (this.truth(s.cond)) {
          const done = this.exec(s.body);
          if (done?.k === 'break') break;
          if (done?.k === 'return') return done;
        }
        return undefined;
      case 'do':
        do {
          const done = this.exec(s.body);
          if (done?.k === 'break') break;
          if (done?.k === 'return') return done;
        } while (this.truth(s.cond));
        return undefined;
      case 'for':
        return this.block(() => {
          for (const i of s.init) this.exec(i);
          while (s.cond === null || this.truth(s.cond)) {
            const done = this.exec(s.body);
            if (done?.k === 'break') break;
            if (done?.k === 'return') return done;
            for (const x of s.step) evalNode(this.ctx, x);
          }
          return undefined;
        });
      case 'foreach': {
        const items = iterate(this.value(s.of));
        for (const item of items) {
          const done = this.block(() => {
            if (s.type === 'var') this.declare(s.name, item === null ? 'var' : typeNameOf(item), item);
            else this.declare(s.name, s.type, coerce(item, s.type));
            return this.exec(s.body);
          });
          if (done?.k === 'break') break;
          if (done?.k === 'return') return done;
        }
        return undefined;
      }
      case 'switch':
        return this.execSwitch(s);
      case 'break':
      case 'continue':
        return { k: s.k };
      case 'return':
        return { k: 'return', v: s.x ? this.value(s.x) : null };
      case 'throw': {
        if (!s.x) {
          // `throw;` in a catch rethrows what it took; C# refuses it anywhere else.
          const rethrown = this.handling[this.handling.length - 1];
          if (rethrown) throw new Thrown(rethrown);
          throw new ScriptError("'throw;' is only allowed in a catch", this.current.method, this.current.line);
        }
        const v = this.value(s.x);
        if (v === null)
          throw new Thrown(
            new ScriptException('NullReferenceException', 'Object reference not set to an instance of an object.'),
          );
        throw new Thrown(v instanceof ScriptException ? v : new ScriptException('Exception', String(v)));
      }
      case 'try':
        return this.execTry(s);
      case 'empty':
        return undefined;
    }
  }

  private truth(n: Node): boolean {
    return toCondition(this.value(n));
  }

  private execSwitch(s: Extract<Stmt, { k: 'switch' }>): Completion {
    const x = this.value(s.x);
    let match = s.sections.find((sec) => sec.labels.some((l) => l !== null && this.equal(x, this.value(l))));
    match ??= s.sections.find((sec) => sec.labels.includes(null));
    if (!match) return undefined;
    const body = match.body;
    // The sections of a switch are one scope.
    return this.block(() => {
      for (const st of body) {
        const done = this.exec(st);
        if (done?.k === 'break') return undefined;
        if (done) return done;
      }
      return undefined;
    }, s);
  }

  private equal(a: Value, b: Value): boolean {
    try {
      return evalBinary(this.ctx, '==', a, b) === true;
    } catch {
      return false;
    }
  }

  private execTry(s: Extract<Stmt, { k: 'try' }>): Completion {
    try {
      return this.exec(s.body);
    } catch (e) {
      const exception = this.caught(e);
      if (!exception) throw e;
      const clause = s.catches.find((c) => c.type === null || isType(exception, c.type));
      if (!clause) throw e;
      this.handling.push(exception);
      try {
        return this.block(() => {
          if (clause.name) this.declare(clause.name, clause.type ?? 'Exception', exception);
          return this.exec(clause.body);
        });
      } finally {
        this.handling.pop();
      }
    } finally {
      if (s.fin) this.exec(s.fin);
    }
  }

  /** The exception a `catch` may take (never a budget or limit: those end the render). */
  private caught(e: unknown): ScriptException | undefined {
    if (e instanceof Thrown) return e.exception;
    if (e instanceof ValueError && e.netError !== 'LimitExceeded') return ScriptException.of(e);
    return undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Script-only expression nodes (ScriptHooks)

  evaluate(ctx: Ctx, n: ScriptNode): Value {
    switch (n.k) {
      case 'assign':
        return this.assign(ctx, n);
      case 'incdec': {
        const old = cv(ctx, evalNode(ctx, n.target));
        const next = arith(ctx, n.op === '++' ? '+' : '-', old, 1);
        const stored = this.store(ctx, n.target, next);
        return n.prefix ? stored : old;
      }
      case 'ucall':
        return this.call(
          n.name,
          n.args.map((a) => cv(ctx, evalNode(ctx, a))),
        );
      case 'snew':
        return this.construct(ctx, n);
      case 'typetest': {
        const v = cv(ctx, evalNode(ctx, n.x));
        const ok = isType(v, n.type);
        return n.op === 'is' ? ok : ok ? v : null;
      }
    }
  }

  private assign(ctx: Ctx, n: Extract<ScriptNode, { k: 'assign' }>): Value {
    if (n.op === '=') return this.store(ctx, n.target, cv(ctx, evalNode(ctx, n.value)));
    const current = evalNode(ctx, n.target);
    if (n.op === '??=')
      return isNullish(current) ? this.store(ctx, n.target, cv(ctx, evalNode(ctx, n.value))) : current;
    const op = n.op.slice(0, -1);
    // `Event += Handler` adds to the event (it stays the same event).
    if (current instanceof EventSlot) {
      current.change(op, cv(ctx, evalNode(ctx, n.value)));
      return current;
    }
    let [a, b] = [current, evalNode(ctx, n.value)];
    // `s += t` on a string concatenates, a null being "".
    if (op === '+' && (isNullish(a) || isNullish(b)) && canonicalType(this.typeOf(n.target)) === 'System.String') {
      if (isNullish(a)) a = '';
      if (isNullish(b)) b = '';
    }
    return this.store(ctx, n.target, evalBinary(ctx, op, a, b));
  }

  /** Stores a value where an assignment's target says; returns what was stored. */
  private store(ctx: Ctx, target: Node, v: Value): Value {
    switch (target.k) {
      case 'chain': {
        let [first, ...rest] = target.segs;
        let own: Slot | undefined;
        if (first === 'this' && rest.length > 0) {
          // `this.x = v` sets the field x, even where a local x hides it.
          [first, ...rest] = rest;
          own = this.fields.get(first as string);
          if (!own) {
            if (this.host.assign([first as string, ...rest], v)) return v;
            throw new ValueError('MissingMemberException', `'${target.segs.join('.')}' cannot be assigned`);
          }
        } else own = this.slot(first as string);
        if (own && rest.length === 0) {
          own.v = coerce(v, own.type);
          return own.v;
        }
        if (own) {
          let obj: Value = own.v;
          for (const seg of rest.slice(0, -1)) obj = getMember(ctx, cv(ctx, obj), seg);
          return setOn(obj, rest[rest.length - 1] as string, v);
        }
        if (this.host.assign(target.segs, v)) return v;
        throw new ValueError('MissingMemberException', `'${target.segs.join('.')}' cannot be assigned`);
      }
      case 'member':
        return setOn(cv(ctx, evalNode(ctx, target.obj)), target.name, v);
      case 'index': {
        const obj = cv(ctx, evalNode(ctx, target.obj));
        if (!(obj instanceof HostObject))
          throw new ValueError('InvalidOperationException', `a ${typeNameOf(obj)} cannot be changed by index`);
        obj.setIndex(cv(ctx, evalNode(ctx, target.index)), v);
        return v;
      }
      default:
        throw new ValueError('InvalidOperationException', 'this cannot be assigned');
    }
  }

  /** `new T(…)`: objects.ts, with the report's types from the host. */
  private construct(ctx: Ctx, n: Extract<ScriptNode, { k: 'snew' }>): Value {
    return construct(ctx, n, this.budget, (type, args) => this.host.construct?.(type, args));
  }
}
