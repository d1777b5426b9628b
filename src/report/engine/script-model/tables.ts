// A TableObject as its ManualBuild handler sees it: PrintRow, PrintColumn, PrintRows,
// PrintColumns and PageBreak add to the table being built (table-build.ts); a MatrixObject's
// ManualBuild fills it with AddValue(columnValues, rowValues, cellValues). Outside their
// ManualBuild these are an error, as in FastReport.

import type { MatrixObjectModel, TableObjectModel } from '../../frx/model.js';
import type { TypedValue } from '../../expr/index.js';
import { typeNameOf } from '../../expr/type-names.js';
import { toPublic } from '../../expr/values.js';
import { ValueError } from '../../expr/value-error.js';
import type { Value } from '../../expr/values.js';
import { iterate } from '../../script/collections.js';
import type { MatrixAdd, TableBuild } from '../script-events.js';
import type { LiveObjects } from './live.js';
import { ObjectProxy } from './objects.js';
import { num } from './values.js';

export class TableProxy extends ObjectProxy {
  constructor(
    private readonly table: TableObjectModel,
    live: LiveObjects,
    /** The build running now for this table (its ManualBuild handler), if any. */
    private readonly building: () => TableBuild | undefined,
  ) {
    super(table, live);
  }

  override call(name: string, args: readonly Value[]): Value {
    const each = (count: number, print: (i: number) => void): null => {
      if (args.length === 0) for (let i = 0; i < count; i++) print(i);
      else for (const v of iterate(args[0] as Value)) print(num(v, `${this.table.name}.${name}`));
      return null;
    };
    switch (name) {
      case 'PrintRow':
        this.build(name).printRow(this.position(args, name));
        return null;
      case 'PrintColumn':
        this.build(name).printColumn(this.position(args, name));
        return null;
      case 'PrintRows': {
        const b = this.build(name);
        return each(this.table.rows.length, (i) => b.printRow(i));
      }
      case 'PrintColumns': {
        const b = this.build(name);
        return each(this.table.columns.length, (i) => b.printColumn(i));
      }
      case 'PageBreak':
        this.build(name).pageBreak();
        return null;
    }
    return super.call(name, args);
  }

  private position(args: readonly Value[], name: string): number {
    if (args.length !== 1) throw new ValueError('ArgumentException', `${name} takes one index`);
    return num(args[0] as Value, `${this.table.name}.${name}`);
  }

  private build(method: string): TableBuild {
    const b = this.building();
    if (!b)
      throw new ValueError(
        'InvalidOperationException',
        `${this.table.name}.${method} may only be called while its ManualBuild handler builds it`,
      );
    return b;
  }
}

/** A script value as a matrix value (its .NET type kept for sorting and formatting). */
function typed(v: Value): TypedValue {
  return { value: toPublic(v), type: typeNameOf(v) };
}

export class MatrixProxy extends ObjectProxy {
  constructor(
    private readonly matrix: MatrixObjectModel,
    live: LiveObjects,
    private readonly adding: () => MatrixAdd | undefined,
  ) {
    super(matrix, live);
  }

  override call(name: string, args: readonly Value[]): Value {
    if (name !== 'AddValue') return super.call(name, args);
    const add = this.adding();
    if (!add)
      throw new ValueError(
        'InvalidOperationException',
        `${this.matrix.name}.AddValue may only be called while its ManualBuild handler fills it`,
      );
    if (args.length < 3) throw new ValueError('ArgumentException', 'AddValue(columnValues, rowValues, cellValues)');
    const list = (v: Value): TypedValue[] => [...iterate(v)].map(typed);
    add(list(args[0] as Value), list(args[1] as Value), list(args[2] as Value));
    return null;
  }
}
