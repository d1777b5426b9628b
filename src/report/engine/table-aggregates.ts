// Aggregates of a built table's cells (TableBase.Sum/Min/Max/Avg/Count): `[Sum(Cell8)]` in a
// cell adds the values of the cells printed from template cell Cell8, found going left and up
// from the cell being printed, up to the row (column) printed from the same template row
// (column) as it; only along its row (column) when Cell8 is in the same template row (column).

import { applyOperator, compareValues, type Resolved, type TypedValue } from '../expr/index.js';
import { ValueError } from '../expr/value-error.js';
import { HostObject } from '../expr/values.js';

/** The table a ManualBuild handler is building, as its cells' aggregates see it. */
export interface TableBeingBuilt {
  /** The template cell of the table named `name`. */
  templateCell(name: string): object | undefined;
  /** The values of the cells printed from `template`, left and up from the cell printed now. */
  collect(template: object): TypedValue[];
}

/** A table cell named in an aggregate's argument (`Sum(Cell8)`). */
export class TableCellRef extends HostObject {
  readonly typeName = 'FastReport.Table.TableCell';
  constructor(readonly name: string) {
    super();
  }
  member(name: string): never {
    throw new ValueError('MissingMemberException', `a table cell named in an aggregate has no property '${name}'`);
  }
  setMember(name: string): never {
    return this.member(name);
  }
  call(name: string): never {
    return this.member(name);
  }
  index(): never {
    return this.member('[]');
  }
  setIndex(): never {
    return this.member('[]');
  }
  items(): never {
    return this.member('items');
  }
}

export const TABLE_AGGREGATES = new Set(['Sum', 'Min', 'Max', 'Avg', 'Count']);

export function tableAggregate(fn: string, values: readonly TypedValue[]): Resolved {
  const present = values.filter((v) => v.value !== null && v.value !== undefined);
  if (fn === 'Count') return { value: present.length, type: 'System.Int32' };
  if (present.length === 0) return { value: fn === 'Sum' || fn === 'Avg' ? 0 : null, type: 'System.Int32' };
  let acc: TypedValue = present[0] as TypedValue;
  for (const v of present.slice(1)) {
    if (fn === 'Sum' || fn === 'Avg') acc = applyOperator('+', acc, v);
    else if (fn === 'Min' ? compareValues(v, acc) < 0 : compareValues(v, acc) > 0) acc = v;
  }
  if (fn === 'Avg') acc = applyOperator('/', acc, { value: present.length, type: 'System.Int32' });
  return acc;
}
