// Dialog forms (DialogPage): FastReport shows them before the report runs, and texts read their
// controls (`TextBox1.Text`, `CheckBox1.Checked`, `DateTimePicker1.Value`). A render has no one
// to answer them, so each control keeps the value it was designed with, as if OK was pressed at
// once; the engine exposes them by name (and a render parameter of a control's name overrides it),
// and runs the form's handlers as if it had been shown and closed with OK (engine/dialogs.ts).

import type { DialogControlModel, DialogPageModel } from './model.js';
import { parseInvariantDate } from './value-parsers.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

export function parseDialogPage(el: XmlElement, ctx: LoadContext): DialogPageModel {
  const a = new Attrs(el, ctx);
  const dialog: DialogPageModel = {
    name: a.str('Name'),
    line: el.line,
    text: a.str('Text'),
    visible: a.bool('Visible', true),
    controls: [],
    events: a.events(),
  };
  const walk = (parent: XmlElement): void => {
    for (const child of parent.children) {
      if (!child.name.endsWith('Control')) {
        ctx.warn(`${describe(child)} inside ${describe(parent)} is ignored`);
        continue;
      }
      dialog.controls.push(parseControl(child, ctx));
      walk(child);
    }
  };
  walk(el);
  return dialog;
}

function parseControl(el: XmlElement, ctx: LoadContext): DialogControlModel {
  const a = new Attrs(el, ctx);
  const items = (a.str('ItemsText') || '').split(/\r?\n/).filter((s, i, all) => s !== '' || i < all.length - 1);
  const date = a.str('Value');
  const numeric = el.name === 'NumericUpDownControl';
  const control: DialogControlModel = {
    name: a.str('Name'),
    line: el.line,
    className: el.name,
    text: a.str('Text'),
    checked: a.bool('Checked', false),
    enabled: a.bool('Enabled', true),
    visible: a.bool('Visible', true),
    date: numeric || date === '' ? null : parseInvariantDate(date),
    number: numeric ? a.float('Value', 0) : null,
    items,
    selectedIndex: a.int('SelectedIndex', -1),
    checkedIndices: [],
    dialogResult: a.str('DialogResult'),
    events: a.events(),
  };
  return control;
}
