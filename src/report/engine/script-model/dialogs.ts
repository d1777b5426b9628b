// Dialog forms and their controls as a script sees them (`DateTimePicker1.Value = DateTime.Now`,
// `TextBox1.Enabled = CheckBox1.Checked`, `Form2.Visible = …`): the run's copies (dialogs.ts),
// which expressions read too.

import type { DialogControlModel, DialogPageModel } from '../../frx/model.js';
import { fromResolved } from '../../expr/scope-values.js';
import { ValueError } from '../../expr/value-error.js';
import type { Value } from '../../expr/values.js';
import { ScriptList, type MemoryBudget } from '../../script/collections.js';
import { ScriptObject } from '../../script/collections.js';
import { controlProperty } from '../dialogs.js';
import { bool, num } from './values.js';

export class ControlProxy extends ScriptObject {
  readonly typeName: string;
  protected readonly label: string;
  constructor(
    private readonly c: DialogControlModel,
    private readonly now: Date,
    private readonly budget: MemoryBudget,
  ) {
    super();
    this.label = c.className;
    this.typeName = `FastReport.Dialog.${c.className}`;
  }

  member(name: string): Value {
    const c = this.c;
    if (name === 'Name') return c.name;
    if (name === 'Items') return new ScriptList(this.budget, 'object', [...c.items]);
    if (name === 'CheckedItems')
      return new ScriptList(
        this.budget,
        'object',
        c.checkedIndices.map((i) => c.items[i] ?? null),
      );
    if (name === 'CheckedIndices') return new ScriptList(this.budget, 'int', [...c.checkedIndices]);
    const r = controlProperty(c, name, this.now);
    if (!r) throw new ValueError('MissingMemberException', `'${c.name}' (${c.className}) has no property '${name}'`);
    return fromResolved(r);
  }

  override setMember(name: string, v: Value): void {
    const c = this.c;
    const where = `${c.name}.${name}`;
    switch (name) {
      case 'Text':
        c.text = v === null ? '' : String(v);
        return;
      case 'Checked':
        c.checked = bool(v, where);
        return;
      case 'Enabled':
        c.enabled = bool(v, where);
        return;
      case 'Visible':
        c.visible = bool(v, where);
        return;
      case 'SelectedIndex':
        c.selectedIndex = num(v, where);
        return;
      case 'Value':
        if (c.number !== null) c.number = num(v, where);
        else if (v instanceof Date) c.date = v;
        else throw new ValueError('InvalidCastException', `${where} takes a DateTime`);
        return;
    }
    throw new ValueError('MissingMemberException', `'${c.name}' (${c.className}) has no settable property '${name}'`);
  }

  call(name: string, args: readonly Value[]): Value {
    const c = this.c;
    if (name === 'SetItemChecked' && args.length === 2) {
      const i = num(args[0] as Value, `${c.name}.SetItemChecked`);
      const on = bool(args[1] as Value, `${c.name}.SetItemChecked`);
      c.checkedIndices = c.checkedIndices.filter((x) => x !== i);
      if (on) c.checkedIndices.push(i);
      return null;
    }
    if (name === 'Focus' || name === 'Refresh') return null;
    throw new ValueError('MissingMethodException', `'${c.name}' (${c.className}) has no method '${name}'`);
  }
}

export class FormProxy extends ScriptObject {
  readonly typeName = 'FastReport.Dialog.DialogPage';
  protected readonly label = 'DialogPage';
  constructor(private readonly form: DialogPageModel) {
    super();
  }
  member(name: string): Value {
    if (name === 'Visible') return this.form.visible;
    if (name === 'Text') return this.form.text;
    if (name === 'Name') return this.form.name;
    throw new ValueError('MissingMemberException', `'${this.form.name}' has no property '${name}'`);
  }
  override setMember(name: string, v: Value): void {
    if (name === 'Visible') this.form.visible = bool(v, `${this.form.name}.Visible`);
    else if (name === 'Text') this.form.text = v === null ? '' : String(v);
    else throw new ValueError('MissingMemberException', `'${this.form.name}' has no settable property '${name}'`);
  }
  call(name: string): Value {
    if (name === 'Close' || name === 'Hide') return null;
    throw new ValueError('MissingMethodException', `'${this.form.name}' has no method '${name}'`);
  }
}
