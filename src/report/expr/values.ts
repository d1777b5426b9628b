// Runtime values of the expression engine: the internal boxes, the Value union, and the passage
// between public and internal values (toPublic, inferValue), which stays beside the boxes because
// ArrayVal reads its items through both. Decimal, TimeSpan, the DateTime helpers, .NET type
// names, scope values → internal values, the default text of numbers and ValueError are in
// decimal.ts, time-span.ts, date-time.ts, type-names.ts, scope-values.ts, number-text.ts and
// value-error.ts.
//
// PUBLIC values (what `evaluate` returns, what a Scope may hand in, what a Formatter receives):
//   null                 null / DBNull
//   string               System.String (and System.Char, as a one-character string)
//   boolean              System.Boolean
//   number               System.Int32 / Int16 / Byte / SByte / UInt16 / Double / Single
//   bigint               System.Int64 / UInt32 / UInt64
//   Decimal              System.Decimal (exact: scaled bigint, 28 digits after the point at most)
//   Date                 System.DateTime: a Date whose *UTC fields* are the wall-clock fields
//                        (Year = getUTCFullYear(), Hour = getUTCHours()…); no time zone
//   TimeSpan             System.TimeSpan
//   Uint8Array           System.Byte[]
//   readonly unknown[]   arrays (String.Split results, JSON arrays)
//   plain object         JSON objects handed in by the scope (opaque to expressions)
// `evaluateTyped` also says the .NET type name of a result (`System.Int32`, `System.Double`…),
// so `3` from `1 + 2` and `3` from `1.5 * 2` can be told apart where it matters (formatting).
//
// INTERNAL values (inside one evaluation) carry the exact .NET kind:
//   number = Int32 (always an integer in range), bigint = Int64, Dbl = Double, Flt = Single,
//   Chr = Char, EnumVal = an enum member (DayOfWeek…), NullOf = a null read from data (knows the
//   column type, so ConvertNulls can turn it into 0 / "" / false where arithmetic or display
//   needs it, while `== null` still sees null), ArrayVal, Opaque (a JSON object).

import { Decimal } from './decimal.js';
import { TimeSpan } from './time-span.js';
import { ValueError } from './value-error.js';

/** System.Double (internal: a plain number is an Int32). */
export class Dbl {
  constructor(readonly v: number) {}
}
/** System.Single: always a float32 value. */
export class Flt {
  readonly v: number;
  constructor(v: number) {
    this.v = Math.fround(v);
  }
}
/** System.Char: a UTF-16 code unit. */
export class Chr {
  constructor(readonly code: number) {}
  toString(): string {
    return String.fromCharCode(this.code);
  }
}
/** A member of a .NET enum (DayOfWeek, MidpointRounding). */
export class EnumVal {
  constructor(
    readonly type: string,
    readonly name: string,
    readonly value: number,
  ) {}
}
/** A null read from data: remembers the column's declared type (canonical name or undefined). */
export class NullOf {
  private constructor(readonly type: string | undefined) {}
  private static readonly cache = new Map<string, NullOf>();
  static readonly Untyped = new NullOf(undefined);
  static of(type: string | undefined): NullOf {
    if (type === undefined) return NullOf.Untyped;
    let n = NullOf.cache.get(type);
    if (!n) {
      n = new NullOf(type);
      if (NullOf.cache.size < 256) NullOf.cache.set(type, n);
    }
    return n;
  }
}
/** An array: String.Split results (`items`) or a JSON array from data (`raw`, read lazily). */
export class ArrayVal {
  private constructor(
    private readonly items: readonly Value[] | undefined,
    private readonly raw: readonly unknown[] | undefined,
    readonly elementType: string,
  ) {}
  static of(items: readonly Value[], elementType = 'System.Object'): ArrayVal {
    return new ArrayVal(items, undefined, elementType);
  }
  static fromRaw(raw: readonly unknown[]): ArrayVal {
    return new ArrayVal(undefined, raw, 'System.Object');
  }
  get length(): number {
    return this.items ? this.items.length : this.raw!.length;
  }
  get(i: number): Value {
    if (!Number.isInteger(i) || i < 0 || i >= this.length)
      throw new ValueError('IndexOutOfRangeException', 'Index was outside the bounds of the array');
    return this.items ? this.items[i]! : inferValue(this.raw![i]);
  }
  toPublic(): unknown[] {
    const out: unknown[] = [];
    for (let i = 0; i < this.length; i++) out.push(toPublic(this.get(i)));
    return out;
  }
}
/** A value expressions may hold and print but not look into (a JSON object). */
export class Opaque {
  constructor(readonly raw: object) {}
}

/**
 * An object of a report script (a List, a Dictionary, a report object): expressions reach only
 * the members it answers for, through these methods (src/report/script implements them). It is
 * never a JS object an expression could look into.
 */
export abstract class HostObject {
  /** The .NET type name ("System.Collections.Generic.List`1", "FastReport.TextObject"). */
  abstract readonly typeName: string;
  /** A property (a ValueError for one it does not have). */
  abstract member(name: string): Value;
  abstract setMember(name: string, v: Value): void;
  /** A method; `text` gives a value's text as the report shows it. */
  abstract call(name: string, args: readonly Value[], text: (v: Value) => string): Value;
  abstract index(i: Value): Value;
  abstract setIndex(i: Value, v: Value): void;
  /** What `foreach` walks. */
  abstract items(): Iterable<Value>;
}

export type Value =
  | null
  | string
  | boolean
  | number
  | bigint
  | Dbl
  | Flt
  | Decimal
  | Chr
  | Date
  | TimeSpan
  | Uint8Array
  | ArrayVal
  | EnumVal
  | NullOf
  | Opaque
  | HostObject;

/** Internal → public (see the top of this file). A NullOf becomes null: apply ConvertNulls first. */
export function toPublic(v: Value): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Dbl || v instanceof Flt) return v.v;
  if (v instanceof Chr) return v.toString();
  if (v instanceof EnumVal) return v.name;
  if (v instanceof NullOf) return null;
  if (v instanceof ArrayVal) return v.toPublic();
  if (v instanceof Opaque) return v.raw;
  return v;
}

const isPlainObject = (v: object) => {
  const p: unknown = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
};

/** A JS value without a declared type, taken at face value: integral numbers in the Int32 range
 *  are Int32, other numbers Double; bigint Int64; one of our own boxes passes as it is. */
export function inferValue(v: unknown): Value {
  if (v === undefined || v === null) return NullOf.Untyped;
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return v;
    case 'number':
      return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 && !Object.is(v, -0) ? v : new Dbl(v);
    case 'object':
      if (
        v instanceof Decimal ||
        v instanceof TimeSpan ||
        v instanceof Dbl ||
        v instanceof Flt ||
        v instanceof Chr ||
        v instanceof EnumVal ||
        v instanceof NullOf ||
        v instanceof ArrayVal ||
        v instanceof Opaque ||
        v instanceof HostObject
      )
        return v;
      if (v instanceof Date) {
        if (Number.isNaN(v.getTime())) throw new ValueError('FormatException', 'invalid Date');
        return v;
      }
      if (v instanceof Uint8Array) return v;
      if (v instanceof ArrayBuffer) return new Uint8Array(v);
      if (Array.isArray(v)) return ArrayVal.fromRaw(v);
      if (isPlainObject(v)) return new Opaque(v);
      return new Opaque(v);
  }
  throw new ValueError('InvalidCastException', `a ${typeof v} is not a value expressions can use`);
}
