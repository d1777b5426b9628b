// Dictionary<K, V>, SortedDictionary and Hashtable of a report script: a HostObject like the other
// collections (collections.ts), keys and values converted to their declared types, every entry
// counted against the memory budget.

import { typeNameOf } from '../expr/type-names.js';
import { ValueError } from '../expr/value-error.js';
import { HostObject, type Value } from '../expr/values.js';
import { coerce } from './coerce.js';
import { argCount, type MemoryBudget, missing, same, ScriptList, ScriptObject } from './collections.js';

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
  /** Counts additions, so that a `foreach` over a dictionary that grows fails as in .NET. */
  private version = 0;
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
        this.budget.work(this.map.size);
        return new ScriptList(
          this.budget,
          this.keyType,
          [...this.map.values()].map((e) => e.key),
        );
      case 'Values':
        this.budget.work(this.map.size);
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
        const key = coerce(args[0] as Value, this.keyType);
        const k = keyOf(key);
        if (this.map.has(k))
          throw new ValueError('ArgumentException', 'An item with the same key has already been added.');
        this.budget.take(1);
        this.map.set(k, { key, value: coerce(args[1] as Value, this.valueType) });
        this.version++;
        return null;
      }
      case 'Remove':
        argCount(name, args, 1);
        return this.map.delete(this.keyOf(args[0] as Value));
      case 'ContainsKey':
      case 'Contains':
        argCount(name, args, 1);
        return this.map.has(this.keyOf(args[0] as Value));
      case 'ContainsValue': {
        argCount(name, args, 1);
        let looked = 0;
        let found = false;
        for (const e of this.map.values()) {
          looked++;
          if ((found = same(e.value, args[0] as Value))) break;
        }
        this.budget.work(looked);
        return found;
      }
      case 'Clear':
        this.map.clear();
        return null;
      default:
        throw missing('Dictionary', name, 'method');
    }
  }

  /** The map key of a key converted to the key type (`d[1]` of a Dictionary<long, …>). */
  private keyOf(k: Value): string {
    return keyOf(coerce(k, this.keyType));
  }

  override index(i: Value): Value {
    const e = this.map.get(this.keyOf(i));
    if (!e && this.hashtable) return null;
    if (!e) throw new ValueError('KeyNotFoundException', 'The given key was not present in the dictionary.');
    return e.value;
  }

  override setIndex(i: Value, v: Value): void {
    const key = coerce(i, this.keyType);
    const k = keyOf(key);
    if (!this.map.has(k)) {
      this.budget.take(1);
      this.version++;
    }
    this.map.set(k, { key, value: coerce(v, this.valueType) });
  }

  /** The entries as they are reached (no copy); an entry added meanwhile fails as in .NET. */
  override *items(): Iterable<Value> {
    const version = this.version;
    for (const e of this.map.values()) {
      if (this.version !== version)
        throw new ValueError(
          'InvalidOperationException',
          'Collection was modified; enumeration operation may not execute.',
        );
      yield new KeyValuePair(e.key, e.value);
    }
  }
}
