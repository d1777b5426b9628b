// The collections a report script builds: List<T> and arrays (Dictionary<K, V> is in
// dictionary.ts). Each is a HostObject: expressions reach only the members listed here, and every
// element counts against the render's memory budget.

import { asDouble, isNumeric } from '../expr/numeric-kinds.js';
import { compare, equals } from '../expr/ops.js';
import { TimeSpan } from '../expr/time-span.js';
import { typeNameOf } from '../expr/type-names.js';
import { ValueError } from '../expr/value-error.js';
import { ArrayVal, Chr, HostObject, type Value } from '../expr/values.js';
import { coerce } from './coerce.js';

/** Counts the elements a script holds; past the budget the render stops. It also passes on to
 *  the step budget the work of a member that walks a whole collection (Contains, Sort…), so that
 *  such a call in a loop costs what it does. */
export class MemoryBudget {
  used = 0;
  constructor(
    readonly max: number,
    private readonly onWork: (steps: number) => void = () => {},
  ) {}

  take(n: number): void {
    this.check(n);
    this.used += n;
  }

  /** Fails when `n` more items would pass the budget, taking nothing (before allocating them). */
  check(n: number): void {
    if (this.used + n > this.max)
      throw new ValueError('LimitExceeded', `the script holds more than ${this.max} collection items`);
  }

  /** Charges `steps` steps for work proportional to a collection's size. */
  work(steps: number): void {
    if (steps > 0) this.onWork(steps);
  }
}

export const missing = (type: string, name: string, what = 'member'): ValueError =>
  new ValueError('MissingMemberException', `'${type}' has no ${what} '${name}'`);

export function argCount(name: string, args: readonly Value[], n: number): void {
  if (args.length !== n)
    throw new ValueError('ArgumentException', `${name} takes ${n} argument${n === 1 ? '' : 's'}, not ${args.length}`);
}

/** An index into a List (ArgumentOutOfRangeException) or an array (IndexOutOfRangeException). */
function indexOf(i: Value, length: number, array = false): number {
  if (i instanceof Chr) return indexOf(i.code, length, array);
  if (typeof i !== 'number' || !Number.isInteger(i))
    throw new ValueError('ArgumentException', 'an index must be an int');
  if (i < 0 || i >= length)
    throw array
      ? new ValueError('IndexOutOfRangeException', 'Index was outside the bounds of the array.')
      : new ValueError(
          'ArgumentOutOfRangeException',
          'Index was out of range. Must be non-negative and less than the size of the collection.',
        );
  return i;
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

/** A List or an array: items by index, walked in order, converted to the element type. */
abstract class ListObject extends ScriptObject {
  abstract readonly list: Value[];
  abstract readonly elementType: string;
  protected abstract readonly budget: MemoryBudget;
  /** Counts changes, so that a `foreach` over a List that changes fails as in .NET. */
  protected version = 0;
  /** An array's index errors are IndexOutOfRangeException, a List's ArgumentOutOfRange. */
  protected readonly isArray: boolean = false;

  override index(i: Value): Value {
    return this.list[indexOf(i, this.list.length, this.isArray)] as Value;
  }
  override setIndex(i: Value, v: Value): void {
    this.list[indexOf(i, this.list.length, this.isArray)] = coerce(v, this.elementType);
    if (!this.isArray) this.version++;
  }
  /** The items as they are when each is reached (no copy); a List changed meanwhile fails. */
  override *items(): Iterable<Value> {
    const version = this.version;
    for (let i = 0; i < this.list.length; i++) {
      if (this.version !== version)
        throw new ValueError(
          'InvalidOperationException',
          'Collection was modified; enumeration operation may not execute.',
        );
      yield this.list[i] as Value;
    }
  }

  /** Where `v` is first, charging a step per item looked at. */
  protected find(v: Value): number {
    const at = this.list.findIndex((x) => same(x, v));
    this.budget.work(at < 0 ? this.list.length : at + 1);
    return at;
  }
}

export class ScriptList extends ListObject {
  protected readonly label = 'List';
  readonly typeName: string;
  readonly list: Value[];
  constructor(
    protected readonly budget: MemoryBudget,
    readonly elementType: string,
    list: Value[] = [],
  ) {
    super();
    this.typeName = `System.Collections.Generic.List<${elementType}>`;
    budget.take(list.length);
    this.list = list.map((v) => coerce(v, elementType));
  }

  member(name: string): Value {
    if (name === 'Count') return this.list.length;
    throw missing('List', name, 'property');
  }

  call(name: string, args: readonly Value[], text: (v: Value) => string): Value {
    const l = this.list;
    const w = (n: number): void => this.budget.work(n);
    switch (name) {
      case 'Add':
        argCount(name, args, 1);
        this.budget.take(1);
        l.push(coerce(args[0] as Value, this.elementType));
        this.version++;
        return null;
      case 'AddRange': {
        argCount(name, args, 1);
        const items = [...iterate(args[0] as Value)];
        this.budget.take(items.length);
        w(items.length);
        for (const v of items) l.push(coerce(v, this.elementType));
        this.version++;
        return null;
      }
      case 'Insert': {
        argCount(name, args, 2);
        this.budget.take(1);
        const at = indexOf(args[0] as Value, l.length + 1);
        w(l.length - at);
        l.splice(at, 0, coerce(args[1] as Value, this.elementType));
        this.version++;
        return null;
      }
      case 'Remove': {
        argCount(name, args, 1);
        const at = this.find(args[0] as Value);
        if (at >= 0) {
          w(l.length - at);
          l.splice(at, 1);
          this.version++;
        }
        return at >= 0;
      }
      case 'RemoveAt': {
        argCount(name, args, 1);
        const at = indexOf(args[0] as Value, l.length);
        w(l.length - at);
        l.splice(at, 1);
        this.version++;
        return null;
      }
      case 'Clear':
        l.length = 0;
        this.version++;
        return null;
      case 'Contains':
        argCount(name, args, 1);
        return this.find(args[0] as Value) >= 0;
      case 'IndexOf':
        argCount(name, args, 1);
        return this.find(args[0] as Value);
      case 'Reverse':
        w(l.length);
        l.reverse();
        this.version++;
        return null;
      case 'Sort':
        // A comparison sort: n log n comparisons.
        w(l.length * Math.ceil(Math.log2(l.length + 1)));
        l.sort(compareForSort);
        this.version++;
        return null;
      case 'ToArray':
        w(l.length);
        return new ScriptArray(this.budget, this.elementType, [...l]);
      case 'ToString':
        return this.typeName;
      default:
        if (name === 'Join') {
          w(l.length);
          return l.map(text).join('');
        }
        throw missing('List', name, 'method');
    }
  }
}

export class ScriptArray extends ListObject {
  protected readonly label = 'Array';
  protected override readonly isArray = true;
  readonly typeName: string;
  readonly list: Value[];
  constructor(
    protected readonly budget: MemoryBudget,
    readonly elementType: string,
    list: Value[],
  ) {
    super();
    this.typeName = `${elementType}[]`;
    budget.take(list.length);
    this.list = list.map((v) => coerce(v, elementType));
  }

  member(name: string): Value {
    if (name === 'Length') return this.list.length;
    throw missing('Array', name, 'property');
  }

  call(name: string, args: readonly Value[]): Value {
    if (name === 'GetLength' && args.length === 1 && args[0] === 0) return this.list.length;
    if (name === 'Contains' && args.length === 1) return this.find(args[0] as Value) >= 0;
    throw missing('Array', name, 'method');
  }
}

/** Equality as List.Contains / IndexOf see it (values of different kinds are not equal). */
export function same(a: Value, b: Value): boolean {
  try {
    return equals(a, b);
  } catch {
    return false;
  }
}

/** .NET's default string comparer (the culture's: "a" < "A" < "b"), as List.Sort uses it. */
const COLLATOR = new Intl.Collator('en-US');

/** List.Sort's comparison (Comparer<T>.Default): null first, numbers of every kind by value,
 *  strings by culture; items that cannot be compared fail as in .NET. */
function compareForSort(a: Value, b: Value): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return COLLATOR.compare(a, b);
  if (isNumeric(a) && isNumeric(b)) {
    // Double.CompareTo puts NaN first.
    const nanA = Number.isNaN(asDouble(a));
    const nanB = Number.isNaN(asDouble(b));
    if (nanA || nanB) return nanA === nanB ? 0 : nanA ? -1 : 1;
    return compare('<', a, b) ? -1 : compare('>', a, b) ? 1 : 0;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (a instanceof TimeSpan && b instanceof TimeSpan) return a.ms - b.ms;
  throw new ValueError('InvalidOperationException', 'Failed to compare two elements in the array.');
}

/** What `foreach` walks: a collection of the script, an array, a string's chars — each item as
 *  it is reached, nothing copied. */
export function iterate(v: Value): Iterable<Value> {
  if (v instanceof HostObject) return v.items();
  if (v instanceof ArrayVal) return arrayItems(v);
  if (typeof v === 'string') return chars(v);
  throw new ValueError('InvalidOperationException', `foreach cannot walk a ${typeNameOf(v)}`);
}

function* arrayItems(a: ArrayVal): Iterable<Value> {
  for (let i = 0; i < a.length; i++) yield a.get(i);
}

function* chars(s: string): Iterable<Value> {
  for (let i = 0; i < s.length; i++) yield new Chr(s.charCodeAt(i));
}
