// Event handlers a script passes around: a method of the script as a value (`new
// EventHandler(ResultTable_AfterCalcBounds)`, or the method's bare name), and an event of a
// report object that handlers are added to with `+=` and removed from with `-=`
// (`Table1.ResultTable.AfterCalcBounds += …`). The report runs an event's handlers itself.

import { ValueError } from '../expr/value-error.js';
import type { Value } from '../expr/values.js';
import { ScriptObject } from './collections.js';

/** A method of the script, named. */
export class ScriptDelegate extends ScriptObject {
  readonly typeName = 'System.EventHandler';
  protected readonly label = 'EventHandler';
  constructor(readonly method: string) {
    super();
  }
  member(name: string): Value {
    if (name === 'Method') return this.method;
    throw new ValueError('MissingMemberException', `'EventHandler' has no property '${name}'`);
  }
  call(name: string): Value {
    if (name === 'ToString') return this.typeName;
    throw new ValueError('MissingMethodException', `'EventHandler' has no method '${name}'`);
  }
}

/** An event: the methods added to it, in order. */
export class EventSlot extends ScriptObject {
  readonly typeName = 'System.EventHandler';
  protected readonly label = 'event';
  readonly methods: string[] = [];
  constructor(readonly name: string) {
    super();
  }
  /** `+=` (add) and `-=` (remove) of a handler. */
  change(op: string, v: Value): void {
    if (!(v instanceof ScriptDelegate))
      throw new ValueError('InvalidCastException', `${this.name} takes an EventHandler (a method of the script)`);
    if (op === '+') {
      if (this.methods.length >= 100) throw new ValueError('LimitExceeded', `${this.name} has too many handlers`);
      this.methods.push(v.method);
    } else if (op === '-') {
      const at = this.methods.lastIndexOf(v.method);
      if (at >= 0) this.methods.splice(at, 1);
    } else throw new ValueError('InvalidOperationException', `an event takes only += and -=`);
  }
  member(name: string): Value {
    throw new ValueError('MissingMemberException', `the event ${this.name} has no property '${name}'`);
  }
  call(name: string): Value {
    throw new ValueError('MissingMethodException', `the event ${this.name} cannot be called ('${name}')`);
  }
}
