// The .NET exceptions of a report script: the hierarchy of the ones it can meet (so that
// `catch (ArgumentException)` takes an ArgumentOutOfRangeException and `e is Exception` holds, as
// in .NET), the message of one made without a message, and the script's exception object.

import { ValueError } from '../expr/value-error.js';
import type { Value } from '../expr/values.js';
import { ScriptObject } from './collections.js';

/** Each exception type's base type (short names; an unknown type derives from Exception). */
const BASE: Readonly<Record<string, string>> = {
  SystemException: 'Exception',
  ApplicationException: 'Exception',
  ArgumentException: 'SystemException',
  ArgumentNullException: 'ArgumentException',
  ArgumentOutOfRangeException: 'ArgumentException',
  ArithmeticException: 'SystemException',
  DivideByZeroException: 'ArithmeticException',
  OverflowException: 'ArithmeticException',
  NotFiniteNumberException: 'ArithmeticException',
  FormatException: 'SystemException',
  IndexOutOfRangeException: 'SystemException',
  InvalidCastException: 'SystemException',
  InvalidOperationException: 'SystemException',
  ObjectDisposedException: 'InvalidOperationException',
  KeyNotFoundException: 'SystemException',
  NotSupportedException: 'SystemException',
  NotImplementedException: 'SystemException',
  NullReferenceException: 'SystemException',
  MemberAccessException: 'SystemException',
  MissingMemberException: 'MemberAccessException',
  MissingMethodException: 'MissingMemberException',
  MissingFieldException: 'MissingMemberException',
  RankException: 'SystemException',
  ArrayTypeMismatchException: 'SystemException',
  TimeoutException: 'SystemException',
};

/** .NET's message for an exception made without one (`new T()`). */
const DEFAULT_MESSAGE: Readonly<Record<string, string>> = {
  SystemException: 'System error.',
  ApplicationException: 'Error in the application.',
  ArgumentException: 'Value does not fall within the expected range.',
  ArgumentNullException: 'Value cannot be null.',
  ArgumentOutOfRangeException: 'Specified argument was out of the range of valid values.',
  ArithmeticException: 'Overflow or underflow in the arithmetic operation.',
  DivideByZeroException: 'Attempted to divide by zero.',
  OverflowException: 'Arithmetic operation resulted in an overflow.',
  FormatException: 'One of the identified items was in an invalid format.',
  IndexOutOfRangeException: 'Index was outside the bounds of the array.',
  InvalidCastException: 'Specified cast is not valid.',
  InvalidOperationException: 'Operation is not valid due to the current state of the object.',
  KeyNotFoundException: 'The given key was not present in the dictionary.',
  NotSupportedException: 'Specified method is not supported.',
  NotImplementedException: 'The method or operation is not implemented.',
  NullReferenceException: 'Object reference not set to an instance of an object.',
};

/** Full names of the types outside the System namespace. */
const NAMESPACE: Readonly<Record<string, string>> = {
  KeyNotFoundException: 'System.Collections.Generic.',
};

const shortName = (type: string): string => type.replace(/^.*\./, '');

/** The full .NET name of an exception type as a script or the engine names it. */
export function exceptionType(type: string): string {
  if (type.includes('.')) return type;
  return `${NAMESPACE[type] ?? 'System.'}${type}`;
}

/** True when an exception of type `actual` is a `type` (itself or derived from it). */
export function isException(actual: string, type: string): boolean {
  const want = shortName(type);
  for (let t: string | undefined = shortName(actual); t; t = t === 'Exception' ? undefined : (BASE[t] ?? 'Exception'))
    if (t === want) return true;
  return false;
}

/** The message of `new T()`. */
export function defaultMessage(type: string): string {
  return DEFAULT_MESSAGE[shortName(type)] ?? `Exception of type '${exceptionType(type)}' was thrown.`;
}

/** An exception a script throws or catches (`e.Message`). */
export class ScriptException extends ScriptObject {
  protected readonly label = 'Exception';
  readonly typeName: string;
  readonly message: string;
  constructor(
    type: string,
    /** Null: the type's default message. */
    message: string | null = null,
  ) {
    super();
    this.typeName = exceptionType(type);
    this.message = message ?? defaultMessage(type);
  }

  /** The exception a failed operation of the expression engine stands for: its messages are
   *  .NET's without the final period, which `e.Message` has. */
  static of(e: ValueError): ScriptException {
    const standard = DEFAULT_MESSAGE[e.netError];
    return new ScriptException(e.netError, standard && `${e.message}.` === standard ? standard : e.message);
  }

  member(name: string): Value {
    if (name === 'Message') return this.message;
    throw new ValueError('MissingMemberException', `'Exception' has no property '${name}'`);
  }
  call(name: string): Value {
    if (name === 'ToString') return `${this.typeName}: ${this.message}`;
    throw new ValueError('MissingMemberException', `'Exception' has no method '${name}'`);
  }
}
