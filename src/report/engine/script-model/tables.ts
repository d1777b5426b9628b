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
import type { LaidOutTable, MatrixAdd, TableBuild } from '../script-events.js';
import type { EventSlot } from '../../script/delegates.js';
import { ScriptObject } from '../../script/collections.js';
import { Flt } from '../../expr/values.js';
import type { LiveObjects } from './live.js';
import { ObjectProxy } from './objects.js';
import { num } from './values.js';

export class TableProxy extends ObjectProxy {
  constructor(
    private readonly table: TableObjectModel,
    live: LiveObjects,
    /** The build running now for this table (its ManualBuild handler), if any. */
    private readonly building: () => TableBuild | undefined,
    /** The AfterCalcBounds event of a build's result. */
    private readonly events: (build: TableBuild) => EventSlot,
  ) {
    super(table, live);
  }

  override member(name: string): Value {
    if (name === 'ResultTable') return new ResultTableProxy(undefined, this.events(this.build(name)));
    return super.member(name);
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

/** A built table (TableResult): its AfterCalcBounds event while its ManualBuild runs, and once
 *  laid out its size, columns and rows, which its handlers may change before it prints. */
export class ResultTableProxy extends ScriptObject {
  readonly typeName = 'FastReport.Table.TableResult';
  protected readonly label = 'TableResult';
  constructor(
    private readonly laid: LaidOutTable | undefined,
    private readonly afterCalcBounds: EventSlot,
  ) {
    super();
  }
  private get table(): LaidOutTable {
    if (!this.laid) throw new ValueError('InvalidOperationException', 'the result table is not laid out yet');
    return this.laid;
  }
  member(name: string): Value {
    switch (name) {
      case 'AfterCalcBounds':
        return this.afterCalcBounds;
      case 'Width':
        return new Flt(this.table.table.columnWidths.reduce((s, w) => s + w, 0));
      case 'Height':
        return new Flt(this.table.table.rowHeights.reduce((s, h) => s + h, 0));
      case 'Columns':
        return new PartsProxy(this.table, 'column');
      case 'Rows':
        return new PartsProxy(this.table, 'row');
    }
    throw new ValueError('MissingMemberException', `'TableResult' has no property '${name}'`);
  }
  call(name: string): Value {
    if (name === 'CalcHeight' || name === 'CalcWidth') {
      this.table.relayout();
      return null;
    }
    throw new ValueError('MissingMethodException', `'TableResult' has no method '${name}'`);
  }
}

/** The columns or rows of a laid-out result table. */
class PartsProxy extends ScriptObject {
  readonly typeName: string;
  protected readonly label: string;
  constructor(
    private readonly laid: LaidOutTable,
    private readonly kind: 'column' | 'row',
  ) {
    super();
    this.label = kind === 'column' ? 'TableColumnCollection' : 'TableRowCollection';
    this.typeName = `FastReport.Table.${this.label}`;
  }
  private get count(): number {
    return this.kind === 'column' ? this.laid.columns.length : this.laid.rows.length;
  }
  member(name: string): Value {
    if (name === 'Count') return this.count;
    throw new ValueError('MissingMemberException', `'${this.label}' has no property '${name}'`);
  }
  call(name: string): Value {
    throw new ValueError('MissingMethodException', `'${this.label}' has no method '${name}'`);
  }
  override index(i: Value): Value {
    const n = num(i, this.label);
    if (!Number.isInteger(n) || n < 0 || n >= this.count)
      throw new ValueError('ArgumentOutOfRangeException', `${this.label} has no item ${n}`);
    return new PartProxy(this.laid, this.kind, n);
  }
  override items(): Iterable<Value> {
    return Array.from({ length: this.count }, (_, i) => new PartProxy(this.laid, this.kind, i));
  }
}

/** One column (Width, AutoSize) or row (Height, AutoSize) of a laid-out result table. */
class PartProxy extends ScriptObject {
  readonly typeName: string;
  protected readonly label: string;
  constructor(
    private readonly laid: LaidOutTable,
    private readonly kind: 'column' | 'row',
    private readonly at: number,
  ) {
    super();
    this.label = kind === 'column' ? 'TableColumn' : 'TableRow';
    this.typeName = `FastReport.Table.${this.label}`;
  }
  private get sizes(): number[] {
    return this.kind === 'column' ? this.laid.table.columnWidths : this.laid.table.rowHeights;
  }
  private get model(): { autoSize: boolean } {
    return (this.kind === 'column' ? this.laid.columns : this.laid.rows)[this.at] as { autoSize: boolean };
  }
  private size(name: string): boolean {
    return name === (this.kind === 'column' ? 'Width' : 'Height');
  }
  member(name: string): Value {
    if (this.size(name)) return new Flt(this.sizes[this.at] ?? 0);
    if (name === 'AutoSize') return this.model.autoSize;
    throw new ValueError('MissingMemberException', `'${this.label}' has no property '${name}'`);
  }
  override setMember(name: string, v: Value): void {
    if (this.size(name)) {
      const n = num(v, `${this.label}.${name}`);
      if (!(n >= 0 && n < 1e6)) throw new ValueError('ArgumentOutOfRangeException', `${this.label}.${name}: ${n}`);
      this.sizes[this.at] = n;
    } else if (name === 'AutoSize') {
      if (typeof v !== 'boolean') throw new ValueError('InvalidCastException', `${this.label}.AutoSize takes a bool`);
      this.model.autoSize = v;
    } else throw new ValueError('MissingMemberException', `'${this.label}' has no settable property '${name}'`);
  }
  call(name: string): Value {
    throw new ValueError('MissingMethodException', `'${this.label}' has no method '${name}'`);
  }
}
