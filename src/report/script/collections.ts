// The collections a report script builds: List<T>, Dictionary<K, V>, arrays, and its exception
// objects. Each is a HostObject: expressions reach only the members listed here, and every
// element counts against the render's memory budget.

import { equals } from '../expr/ops.js';
import { defaultOf, typeNameOf } from '../expr/type-names.js';
import { ValueError } from '../expr/value-error.js';
import { ArrayVal, Chr, HostObject, type Value } from '../expr/values.js';

/** Counts the elements a script holds; past the budget the render stops. */
export class MemoryBudget {
  used = 0;
  constructor(readonly max: number) {}

  take(n: number): void {
    this.used += n;
    if (this.used > this.max)
      throw new ValueError('LimitExceeded', `the script holds more than ${this.max} collection items`);
  }
}

const missing = (type: string, name: string, what = 'member'): ValueError =>
  new ValueError('MissingMemberException', `'${type}' has no ${what} '${name}'`);

function argCount(name: string, args: readonly Value[], n: number): void {
  if (args.length !== n)
    throw new ValueError('ArgumentException', `${name} takes ${n} argument${n === 1 ? '' : 's'}, not ${args.length}`);
}

function indexOf(i: Value, length: number): number {
  if (typeof i !== 'number' || !Number.isInteger(i))
    throw new ValueError('ArgumentException', 'an index must be an int');
  if (i < 0 || i >= length)
    throw new ValueError(
      'ArgumentOutOfRangeException',
      'Index was out of range. Must be non-negative and less than the size of the collection.',
    );
  return i;
}

/** C#'s `default(T)` for a type as scripts write it. */
export function defaultFor(type: string): Value {
  const map: Record<string, string> = {
    int: 'System.Int32',
    long: 'System.Int64',
    short: 'System.Int16',
    byte: 'System.Byte',
    double: 'System.Double',
    float: 'System.Single',
    decimal: 'System.Decimal',
    bool: 'System.Boolean',
    char: 'System.Char',
    DateTime: 'System.DateTime',
  };
  const t = map[type] ?? (type.startsWith('System.') ? type : undefined);
  return t ? defaultOf(t) : null;
}

/** What every script object shares: its name in messages, and no settable property, indexer or
 *  items unless it says otherwise. */
export abstract class ScriptObject extends HostObject {
  /** The short type name messages use ('List', 'Exception'). */
  protected abstract readonly label: string;

  setMember(name: string, _v: Value): void {
    throw missing(this.label, name, 'settable property');
  }
  index(_i: Value): Value {
    throw new ValueError('InvalidOperationException', `'${this.label}' cannot be indexed`);
  }
  setIndex(_i: Value, _v: Value): void {
    throw new ValueError('InvalidOperationException', `'${this.label}' cannot be indexed`);
  }
  items(): Iterable<Value> {
    throw new ValueError('InvalidOperationException', `'${this.label}' cannot be walked`);
  }
}

/** A List or an array: items by index, walked in order. */
abstract class ListObject extends ScriptObject {
  abstract readonly list: Value[];

  override index(i: Value): Value {
    return this.list[indexOf(i, this.list.length)] as Value;
  }
  override setIndex(i: Value, v: Value): void {
    this.list[indexOf(i, this.list.length)] = v;
  }
  override items(): Iterable<Value> {
    return [...this.list];
  }
}

export class ScriptList extends ListObject {
  protected readonly label = 'List';
  readonly typeName: string;
  constructor(
    private readonly budget: MemoryBudget,
    readonly elementType: string,
    readonly list: Value[] = [],
  ) {
    super();
    this.typeName = `System.Collections.Generic.List<${elementType}>`;
    budget.take(list.length);
  }

  member(name: string): Value {
    if (name === 'Count') return this.list.length;
    throw missing('List', name, 'property');
  }

  call(name: string, args: readonly Value[], text: (v: Value) => string): Value {
    const l = this.list;
    switch (name) {
      case 'Add':
        argCount(name, args, 1);
        this.budget.take(1);
        l.push(args[0] as Value);
        return null;
      case 'AddRange': {
        argCount(name, args, 1);
        const items = [...iterate(args[0] as Value)];
        this.budget.take(items.length);
        l.push(...items);
        return null;
      }
      case 'Insert':
        argCount(name, args, 2);
        this.budget.take(1);
        l.splice(indexOf(args[0] as Value, l.length + 1), 0, args[1] as Value);
        return null;
      case 'Remove': {
        argCount(name, args, 1);
        const at = l.findIndex((x) => same(x, args[0] as Value));
        if (at >= 0) l.splice(at, 1);
        return at >= 0;
      }
      case 'RemoveAt':
        argCount(name, args, 1);
        l.splice(indexOf(args[0] as Value, l.length), 1);
        return null;
      case 'Clear':
        l.length = 0;
        return null;
      case 'Contains':
        argCount(name, args, 1);
        return l.some((x) => same(x, args[0] as Value));
      case 'IndexOf':
        argCount(name, args, 1);
        return l.findIndex((x) => same(x, args[0] as Value));
      case 'Reverse':
        l.reverse();
        return null;
      case 'Sort':
        l.sort(compareForSort);
        return null;
      case 'ToArray':
        return new ScriptArray(this.budget, this.elementType, [...l]);
      case 'ToString':
        return this.typeName;
      default:
        if (name === 'Join') return l.map(text).join('');
        throw missing('List', name, 'method');
    }
  }
}

export class ScriptArray extends ListObject {
  protected readonly label = 'Array';
  readonly typeName: string;
  constructor(
    budget: MemoryBudget,
    readonly elementType: string,
    readonly list: Value[],
  ) {
    super();
    this.typeName = `${elementType}[]`;
    budget.take(list.length);
  }

  member(name: string): Value {
    if (name === 'Length') return this.list.length;
    throw missing('Array', name, 'property');
  }

  call(name: string, args: readonly Value[]): Value {
    if (name === 'GetLength' && args.length === 1 && args[0] === 0) return this.list.length;
    if (name === 'Contains' && args.length === 1) return this.list.some((x) => same(x, args[0] as Value));
    throw missing('Array', name, 'method');
  }
}

/** A dictionary's entry, as `foreach` gives it. */
class KeyValuePair extends ScriptObject {
  protected readonly label = 'KeyValuePair';
  readonly typeName = 'System.Collections.Generic.KeyValuePair';
  constructor(
    readonly key: Value,
    readonly value: Value,
  ) {
    super();
  }
  member(name: string): Value {
    if (name === 'Key') return this.key;
    if (name === 'Value') return this.value;
    throw missing('KeyValuePair', name, 'property');
  }
  call(name: string): Value {
    throw missing('KeyValuePair', name, 'method');
  }
}

/** A key for a map: equal for values .NET's Equals calls equal (numbers of one type, strings…). */
function keyOf(v: Value): string {
  if (v === null) throw new ValueError('ArgumentNullException', 'a dictionary key cannot be null');
  if (v instanceof Date) return `d:${v.getTime()}`;
  if (v instanceof HostObject) throw new ValueError('ArgumentException', 'objects cannot be dictionary keys');
  return `${typeNameOf(v)}:${String(v)}`;
}

export class ScriptDictionary extends ScriptObject {
  protected readonly label = 'Dictionary';
  readonly typeName: string;
  private readonly map = new Map<string, { key: Value; value: Value }>();
  constructor(
    private readonly budget: MemoryBudget,
    readonly keyType: string,
    readonly valueType: string,
    /** A Hashtable: a missing key reads as null. */
    private readonly hashtable = false,
  ) {
    super();
    this.typeName = hashtable
      ? 'System.Collections.Hashtable'
      : `System.Collections.Generic.Dictionary<${keyType}, ${valueType}>`;
  }

  member(name: string): Value {
    switch (name) {
      case 'Count':
        return this.map.size;
      case 'Keys':
        return new ScriptList(
          this.budget,
          this.keyType,
          [...this.map.values()].map((e) => e.key),
        );
      case 'Values':
        return new ScriptList(
          this.budget,
          this.valueType,
          [...this.map.values()].map((e) => e.value),
        );
      default:
        throw missing('Dictionary', name, 'property');
    }
  }

  call(name: string, args: readonly Value[]): Value {
    switch (name) {
      case 'Add': {
        argCount(name, args, 2);
        const k = keyOf(args[0] as Value);
        if (this.map.has(k))
          throw new ValueError('ArgumentException', 'An item with the same key has already been added.');
        this.budget.take(1);
        this.map.set(k, { key: args[0] as Value, value: args[1] as Value });
        return null;
      }
      case 'Remove':
        argCount(name, args, 1);
        return this.map.delete(keyOf(args[0] as Value));
      case 'ContainsKey':
      case 'Contains':
        argCount(name, args, 1);
        return this.map.has(keyOf(args[0] as Value));
      case 'ContainsValue':
        argCount(name, args, 1);
        return [...this.map.values()].some((e) => same(e.value, args[0] as Value));
      case 'Clear':
        this.map.clear();
        return null;
      default:
        throw missing('Dictionary', name, 'method');
    }
  }

  override index(i: Value): Value {
    const e = this.map.get(keyOf(i));
    if (!e && this.hashtable) return null;
    if (!e) throw new ValueError('KeyNotFoundException', 'The given key was not present in the dictionary.');
    return e.value;
  }

  override setIndex(i: Value, v: Value): void {
    const k = keyOf(i);
    if (!this.map.has(k)) this.budget.take(1);
    this.map.set(k, { key: i, value: v });
  }

  override items(): Iterable<Value> {
    return [...this.map.values()].map((e) => new KeyValuePair(e.key, e.value));
  }
}

/** An exception a script throws or catches (`e.Message`). */
export class ScriptException extends ScriptObject {
  protected readonly label = 'Exception';
  constructor(
    readonly typeName: string,
    readonly message: string,
  ) {
    super();
  }
  member(name: string): Value {
    if (name === 'Message') return this.message;
    throw missing('Exception', name, 'property');
  }
  call(name: string): Value {
    if (name === 'ToString') return `${this.typeName}: ${this.message}`;
    throw missing('Exception', name, 'method');
  }
}

/** Equality as List.Contains / IndexOf see it (values of different kinds are not equal). */
function same(a: Value, b: Value): boolean {
  try {
    return equals(a, b);
  } catch {
    return false;
  }
}

function compareForSort(a: Value, b: Value): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = Number(typeof a === 'object' && a !== null ? String(a) : a);
  const y = Number(typeof b === 'object' && b !== null ? String(b) : b);
  return x - y;
}

/** What `foreach` walks: a collection of the script, an array, a string's chars. */
export function iterate(v: Value): Iterable<Value> {
  if (v instanceof HostObject) return v.items();
  if (v instanceof ArrayVal) {
    const out: Value[] = [];
    for (let i = 0; i < v.length; i++) out.push(v.get(i));
    return out;
  }
  if (typeof v === 'string') return Array.from(v, (c) => new Chr(c.charCodeAt(0)));
  throw new ValueError('InvalidOperationException', `foreach cannot walk a ${typeNameOf(v)}`);
}
