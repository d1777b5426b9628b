// What a report script makes with `new` (its collections, arrays, exceptions, DateTime and
// TimeSpan; the report's own types come from the host), what it changes with `x.Name = v`, and
// what it tests with `is`/`as` and `catch (T)`.

import { ScriptDelegate } from './delegates.js';
import type { ScriptNode } from '../expr/ast.js';
import { type Ctx, cv, isNullish } from '../expr/context.js';
import { evalNode } from '../expr/evaluate.js';
import { construct as constructValue } from '../expr/instance-members.js';
import { canonicalType, typeNameOf } from '../expr/type-names.js';
import { ValueError } from '../expr/value-error.js';
import { HostObject, type Value } from '../expr/values.js';
import { defaultFor } from './coerce.js';
import { iterate, type MemoryBudget, ScriptArray, ScriptList } from './collections.js';
import { ScriptDictionary } from './dictionary.js';
import { isException, ScriptException } from './exceptions.js';

type HostConstruct = (type: string, args: readonly Value[]) => Value | undefined;

/** `new T(args) { items }`, `new T[n]`, `new T[] { … }`. */
export function construct(
  ctx: Ctx,
  n: Extract<ScriptNode, { k: 'snew' }>,
  budget: MemoryBudget,
  host: HostConstruct,
): Value {
  const args = n.args.map((a) => cv(ctx, evalNode(ctx, a)));
  const items = n.init?.map((a) => cv(ctx, evalNode(ctx, a))) ?? [];
  if (n.array) {
    const element = n.type === '' ? 'object' : n.type;
    if (n.length) {
      const length = cv(ctx, evalNode(ctx, n.length));
      if (typeof length !== 'number' || length < 0)
        throw new ValueError('OverflowException', 'an array length must be a non-negative int');
      // Checked before allocating; the array takes its items from the budget itself.
      budget.check(length);
      const zero = defaultFor(element);
      return new ScriptArray(budget, element, new Array<Value>(length).fill(zero));
    }
    return new ScriptArray(budget, element, items);
  }
  const short = n.type.replace(/^System\.Collections\.Generic\./, '');
  if (short === 'Hashtable' || short === 'System.Collections.Hashtable')
    return new ScriptDictionary(budget, 'object', 'object', true);
  if (short === 'List' || short === 'ArrayList' || short === 'System.Collections.ArrayList') {
    const list = new ScriptList(budget, n.typeArgs[0] ?? 'object');
    for (const v of args.length === 1 && args[0] instanceof HostObject ? iterate(args[0]) : [])
      list.call('Add', [v], String);
    for (const v of items) list.call('Add', [v], String);
    return list;
  }
  if (short === 'Dictionary' || short === 'SortedDictionary') {
    const d = new ScriptDictionary(budget, n.typeArgs[0] ?? 'object', n.typeArgs[1] ?? 'object');
    for (const pair of items) {
      if (!(pair instanceof ScriptArray) || pair.list.length !== 2)
        throw new ValueError('ArgumentException', 'a dictionary initializer takes { key, value } pairs');
      d.call('Add', pair.list);
    }
    return d;
  }
  const canonical = canonicalType(n.type);
  if (canonical === 'System.DateTime' || canonical === 'System.TimeSpan') return constructValue(canonical, args);
  if (/^(System\.)?\w*Exception$/.test(n.type)) {
    const message = args[0];
    return new ScriptException(n.type, message == null ? null : String(message));
  }
  if (/^(System\.)?EventHandler$/.test(n.type)) {
    if (args.length === 1 && args[0] instanceof ScriptDelegate) return args[0];
    throw new ValueError('ArgumentException', 'new EventHandler takes a method of the script');
  }
  const made = host(n.type, args);
  if (made !== undefined) return made;
  throw new ValueError('InvalidOperationException', `'new ${n.type}' is not supported in a report script`);
}

/** `obj.name = v` on an object of the script or the report. */
export function setOn(obj: Value, name: string, v: Value): Value {
  if (!(obj instanceof HostObject))
    throw new ValueError('InvalidOperationException', `the ${name} of a ${typeNameOf(obj)} cannot be changed`);
  obj.setMember(name, v);
  return v;
}

/** `v is T` for the types scripts test, and `catch (T)`: an exception is of its base types too. */
export function isType(v: Value, type: string): boolean {
  if (v === null || isNullish(v)) return false;
  const canonical = canonicalType(type.replace(/\?$/, ''));
  if (canonical === 'System.Object' || type === 'object') return true;
  if (v instanceof ScriptException) return isException(v.typeName, type);
  const actual = typeNameOf(v);
  if (canonical && actual === canonical) return true;
  const short = (s: string): string => s.replace(/<.*$/, '').replace(/^.*\./, '');
  return v instanceof HostObject && short(actual) === short(type);
}
