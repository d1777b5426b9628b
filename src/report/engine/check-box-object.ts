// CheckBoxObject (FastReport's CheckBoxObject.GetData): checked from a data column, an expression
// or the template; HideIfUnchecked.

import type { CheckBoxObjectModel } from '../frx/model.js';
import type { EngineContext } from './context.js';
import { columnValue, itemHeader, type ObjectType } from './object-type.js';

function checked(e: EngineContext, o: CheckBoxObjectModel): boolean {
  let v: unknown = o.checked;
  if (o.dataColumn.trim() !== '') v = columnValue(e, o.dataColumn, `${o.name}.DataColumn`);
  else if (o.expression.trim() !== '') v = e.exprs.calc(o, 'expr', o.expression, `${o.name}.Expression`).value;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'string') return /^(true|1|yes)$/i.test(v.trim());
  return false;
}

export const checkBoxObject: ObjectType<CheckBoxObjectModel> = {
  getData(e, o, rt) {
    rt.checked = checked(e, o);
    if (o.hideIfUnchecked && !rt.checked) rt.visible = false;
  },
  item(_e, o, rt) {
    return {
      item: {
        kind: 'checkbox',
        ...itemHeader(o, rt),
        checked: rt.checked ?? false,
        checkedSymbol: o.checkedSymbol,
        uncheckedSymbol: o.uncheckedSymbol,
        checkColor: o.checkColor,
        checkWidthRatio: o.checkWidthRatio,
      },
      canBreak: false,
    };
  },
};
