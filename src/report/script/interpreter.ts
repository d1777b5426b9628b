// Runs a parsed report script: its fields, its methods, their statements. Expressions are
// evaluated by the expression engine (its values and .NET semantics), with this file answering
// for what only scripts do (assignments, the script's methods, `new`, `is`/`as`) through the
// evaluation hooks. Names are the method's locals, then the script's fields, then what the host
// (the report) knows. Every statement and expression step counts against the step budget, every
// collection item against the memory budget: a loop that never ends or a runaway allocation ends
// the render with a template error naming the method and line.

import type { Node, ScriptNode } from '../expr/ast.js';
import { type Ctx, cv, isNullish, makeCtx, type ScriptHooks } from '../expr/context.js';
import { evalBinary, evalNode } from '../expr/evaluate.js';
import { arith } from '../expr/ops.js';
import type { Formatter, Resolved, Scope } from '../expr/types.js';
import { DEFAULT_LIMITS } from '../expr/types.js';
import { ValueError } from '../expr/value-error.js';
import { HostObject, type Value } from '../expr/values.js';
import { castTo } from '../expr/casts.js';
import { canonicalType, typeNameOf } from '../expr/type-names.js';
import { toCondition } from '../expr/functions.js';
import { getMember } from '../expr/instance-members.js';
import type { MethodDecl, ScriptProgram, Stmt } from './ast.js';
import {
  defaultFor,
  iterate,
  MemoryBudget,
  ScriptArray,
  ScriptDictionary,
  ScriptException,
  ScriptList,
} from './collections.js';

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

/** A C# exception in flight (`throw`, or a failed operation a `catch` may take). */
class Thrown {
  constructor(readonly exception: ScriptException) {}
}

type Completion = undefined | { k: 'break' } | { k: 'continue' } | { k: 'return'; v: Value };

interface Slot {
  v: Value;
  type: string;
}

const NUMERIC_TYPES = new Set(['int', 'long', 'short', 'byte', 'double', 'float', 'decimal', 'char']);

export class ScriptRuntime implements ScriptHooks {
  private readonly fields = new Map<string, Slot>();
  private readonly methods = new Map<string, MethodDecl[]>();
  /** The locals of the running method: one map per block. */
  private frames: Map<string, Slot>[] = [];
  private depth = 0;
  private current: { method: string; line: number } = { method: '(fields)', line: 0 };
  readonly ctx: Ctx;
  readonly budget: MemoryBudget;

  constructor(
    readonly program: ScriptProgram,
    private readonly host: ScriptHost,
    private readonly limits: ScriptLimits = DEFAULT_SCRIPT_LIMITS,
  ) {
    for (const m of program.methods) this.methods.set(m.name, [...(this.methods.get(m.name) ?? []), m]);
    this.budget = new MemoryBudget(limits.maxItems);
    this.ctx = makeCtx(this.scope(), { ...DEFAULT_LIMITS, maxSteps: limits.maxSteps }, this);
  }

  /** Runs the field initialisers and the constructor. */
  init(): void {
    for (const f of this.program.fields) {
      this.current = { method: `field ${f.name}`, line: f.line };
      const v = f.init ? this.guard(() => this.value(f.init as Node, f.type)) : defaultFor(f.type);
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
    const saved = { frames: this.frames, current: this.current };
    this.frames = [new Map()];
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
    }
  }

  /** Where each error in flight happened (the innermost method and line). */
  private readonly whereOf = new WeakMap<object, { method: string; line: number }>();

  private run(m: MethodDecl, args: readonly Value[]): Value {
    {
      m.params.forEach((p, i) => {
        const v = i < args.length ? (args[i] as Value) : this.value(p.init as Node, p.type);
        this.declare(p.name, p.type, this.coerce(v, p.type));
      });
      const done = this.exec(m.body as Stmt);
      return done?.k === 'return' ? done.v : null;
    }
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

  // -------------------------------------------------------------------------------------------
  // Names

  private scope(): Scope {
    return {
      convertNulls: this.host.convertNulls,
      ...(this.host.formatter ? { formatter: this.host.formatter } : {}),
      resolve: (name) => {
        const own = this.slot(name);
        if (own) return { value: own.v };
        return this.host.resolve(name);
      },
    };
  }

  private slot(name: string): Slot | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const s = this.frames[i]?.get(name);
      if (s) return s;
    }
    return this.fields.get(name);
  }

  private declare(name: string, type: string, v: Value): void {
    const frame = this.frames[this.frames.length - 1];
    if (!frame) throw new ValueError('InvalidOperationException', 'no method is running');
    if (frame.has(name)) throw new ValueError('InvalidOperationException', `'${name}' is already declared here`);
    frame.set(name, { v, type });
  }

  /** A value converted to a declared type where C# would convert it (numbers). */
  private coerce(v: Value, type: string): Value {
    const t = type.endsWith('?') ? type.slice(0, -1) : type;
    if (!NUMERIC_TYPES.has(t) || v === null || isNullish(v)) return v;
    const canonical = canonicalType(t);
    return canonical ? castTo(this.ctx, v, canonical, false) : v;
  }

  private value(n: Node, type?: string): Value {
    const v = cv(this.ctx, evalNode(this.ctx, n));
    return type ? this.coerce(v, type) : v;
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  private step(s: Stmt): void {
    this.current = { method: this.current.method, line: this.program.lineOf(s.pos) };
    if (++this.ctx.steps > this.limits.maxSteps)
      throw new ValueError('LimitExceeded', `the script takes more than ${this.limits.maxSteps} steps`);
  }

  private block<T>(fn: () => T): T {
    this.frames.push(new Map());
    try {
      return fn();
    } finally {
      this.frames.pop();
    }
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
        });
      case 'local':
        for (const d of s.decls) {
          let v = d.init ? this.value(d.init, s.type === 'var' ? undefined : s.type) : defaultFor(s.type);
          if (d.init?.k === 'snew' && d.init.type === '' && v instanceof ScriptArray && s.type.endsWith('[]'))
            v = new ScriptArray(this.budget, s.type.slice(0, -2), v.list);
          this.declare(d.name, s.type, v);
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
            this.declare(s.name, s.type, s.type === 'var' ? item : this.coerce(item, s.type));
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
        const v = s.x ? this.value(s.x) : null;
        throw new Thrown(
          v instanceof ScriptException ? v : new ScriptException('System.Exception', v === null ? '' : String(v)),
        );
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
    return this.block(() => {
      for (const st of body) {
        const done = this.exec(st);
        if (done?.k === 'break') return undefined;
        if (done) return done;
      }
      return undefined;
    });
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
      const clause = s.catches.find((c) => c.type === null || catches(c.type, exception));
      if (!clause) throw e;
      return this.block(() => {
        if (clause.name) this.declare(clause.name, clause.type ?? 'Exception', exception);
        return this.exec(clause.body);
      });
    } finally {
      if (s.fin) this.exec(s.fin);
    }
  }

  /** The exception a `catch` may take (never a budget or limit: those end the render). */
  private caught(e: unknown): ScriptException | undefined {
    if (e instanceof Thrown) return e.exception;
    if (e instanceof ValueError && e.netError !== 'LimitExceeded')
      return new ScriptException(`System.${e.netError}`, e.message);
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
    const v = evalBinary(ctx, n.op.slice(0, -1), current, evalNode(ctx, n.value));
    return this.store(ctx, n.target, v);
  }

  /** Stores a value where an assignment's target says; returns what was stored. */
  private store(ctx: Ctx, target: Node, v: Value): Value {
    switch (target.k) {
      case 'chain': {
        const [first, ...rest] = target.segs;
        const own = this.slot(first as string);
        if (own && rest.length === 0) {
          own.v = this.coerce(v, own.type);
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

  private construct(ctx: Ctx, n: Extract<ScriptNode, { k: 'snew' }>): Value {
    const args = n.args.map((a) => cv(ctx, evalNode(ctx, a)));
    const items = n.init?.map((a) => cv(ctx, evalNode(ctx, a))) ?? [];
    if (n.array) {
      const element = n.type === '' ? 'object' : n.type;
      if (n.length) {
        const length = cv(ctx, evalNode(ctx, n.length));
        if (typeof length !== 'number' || length < 0)
          throw new ValueError('OverflowException', 'an array length must be a non-negative int');
        this.budget.take(length);
        return new ScriptArray(
          this.budget,
          element,
          Array.from({ length }, () => defaultFor(element)),
        );
      }
      return new ScriptArray(this.budget, element, items);
    }
    const short = n.type.replace(/^System\.Collections\.Generic\./, '');
    if (short === 'Hashtable' || short === 'System.Collections.Hashtable')
      return new ScriptDictionary(this.budget, 'object', 'object', true);
    if (short === 'List' || short === 'ArrayList' || short === 'System.Collections.ArrayList') {
      const list = new ScriptList(this.budget, n.typeArgs[0] ?? 'object');
      for (const v of args.length === 1 && args[0] instanceof HostObject ? iterate(args[0]) : [])
        list.call('Add', [v], String);
      for (const v of items) list.call('Add', [v], String);
      return list;
    }
    if (short === 'Dictionary' || short === 'SortedDictionary') {
      const d = new ScriptDictionary(this.budget, n.typeArgs[0] ?? 'object', n.typeArgs[1] ?? 'object');
      for (const pair of items) {
        if (!(pair instanceof ScriptArray) || pair.list.length !== 2)
          throw new ValueError('ArgumentException', 'a dictionary initializer takes { key, value } pairs');
        d.call('Add', pair.list);
      }
      return d;
    }
    if (/^(System\.)?\w*Exception$/.test(n.type)) {
      const message = args[0];
      return new ScriptException(
        n.type.startsWith('System.') ? n.type : `System.${n.type}`,
        message == null ? '' : String(message),
      );
    }
    const made = this.host.construct?.(n.type, args);
    if (made !== undefined) return made;
    throw new ValueError('InvalidOperationException', `'new ${n.type}' is not supported in a report script`);
  }
}

function setOn(obj: Value, name: string, v: Value): Value {
  if (!(obj instanceof HostObject))
    throw new ValueError('InvalidOperationException', `the ${name} of a ${typeNameOf(obj)} cannot be changed`);
  obj.setMember(name, v);
  return v;
}

/** `catch (T e)` takes exceptions of T (System.Exception takes all). */
function catches(type: string, e: ScriptException): boolean {
  const t = type.replace(/^System\./, '');
  return t === 'Exception' || e.typeName.replace(/^System\./, '') === t;
}

/** `v is T` for the types scripts test. */
function isType(v: Value, type: string): boolean {
  if (v === null || isNullish(v)) return false;
  const canonical = canonicalType(type.replace(/\?$/, ''));
  const actual = typeNameOf(v);
  if (canonical === 'System.Object' || type === 'object') return true;
  if (canonical && actual === canonical) return true;
  const short = (s: string): string => s.replace(/<.*$/, '').replace(/^.*\./, '');
  return v instanceof HostObject && short(actual) === short(type);
}
