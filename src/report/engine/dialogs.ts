// The report's dialog forms (`Form2.Visible`) and their controls, as expressions and scripts read
// them (`TextBox1.Text`, `CheckBox1.Checked`, `DateTimePicker1.Value`, `ListBox1.SelectedItem`):
// their designed values, what the forms' handlers set, and over both a render parameter of the
// control's name (the value a user would have entered). A render has no user: each visible form
// runs as if shown and closed with OK at once (Load, Shown, the OK button's Click, FormClosing,
// FormClosed), in the template's order, before the report starts.

import type { Resolved } from '../expr/index.js';
import type { DialogControlModel, DialogPageModel, ReportModel } from '../frx/model.js';
import { parseInvariantDate } from '../frx/value-parsers.js';
import type { ReportScope } from './scope.js';
import type { ScriptEvents } from './script-events.js';

const str = (s: string | null): Resolved => ({ value: s, type: 'System.String' });
const bool = (b: boolean): Resolved => ({ value: b, type: 'System.Boolean' });

/** Sets a control to a supplied value, read as the control's kind of value. */
function supply(c: DialogControlModel, v: unknown): void {
  const text = v instanceof Date ? v.toISOString() : String(v ?? '');
  c.text = text;
  if (typeof v === 'boolean') c.checked = v;
  else if (/^(true|false|1|0)$/i.test(text)) c.checked = /^(true|1)$/i.test(text);
  if (c.className === 'DateTimePickerControl' || c.className === 'MonthCalendarControl') {
    const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?/.exec(text);
    const d = v instanceof Date ? v : iso ? new Date(`${iso[0]}${iso[1] ? '' : 'T00:00'}Z`) : parseInvariantDate(text);
    if (d && !Number.isNaN(d.getTime())) c.date = d;
  }
  if (c.className === 'NumericUpDownControl' && Number.isFinite(Number(text))) c.number = Number(text);
  const index = c.items.indexOf(text);
  if (index >= 0) c.selectedIndex = index;
  if (c.className === 'CheckedListBoxControl')
    c.checkedIndices = text
      .split(/\r?\n|,/)
      .map((s) => c.items.indexOf(s.trim()))
      .filter((i) => i >= 0);
}

/** A control's property as a value (undefined for one it does not have). */
export function controlProperty(c: DialogControlModel, property: string, now: Date): Resolved | undefined {
  const selected = (): string | null => c.items[c.selectedIndex] ?? null;
  switch (property) {
    case 'Text':
      if (c.className === 'ListBoxControl') return str(selected() ?? '');
      return str(c.className === 'ComboBoxControl' ? (selected() ?? c.text) : c.text);
    case 'Checked':
      return bool(c.checked);
    case 'Enabled':
      return bool(c.enabled);
    case 'Visible':
      return bool(c.visible);
    case 'Value':
      if (c.number !== null) return { value: c.number, type: 'System.Decimal' };
      return { value: c.date ?? now, type: 'System.DateTime' };
    case 'SelectedIndex':
      return { value: c.selectedIndex, type: 'System.Int32' };
    case 'SelectedItem':
      return str(selected());
    default:
      return undefined;
  }
}

/** The forms and controls of one run: copies the forms' handlers may change. */
export class DialogForms {
  readonly forms = new Map<string, DialogPageModel>();
  readonly controls = new Map<string, DialogControlModel>();

  constructor(
    report: ReportModel,
    private readonly parameters: Readonly<Record<string, unknown>>,
    readonly now: Date,
  ) {
    for (const dialog of report.dialogs) {
      const form = {
        ...dialog,
        controls: dialog.controls.map((c) => ({ ...c, checkedIndices: [...c.checkedIndices] })),
      };
      if (!this.forms.has(form.name)) this.forms.set(form.name, form);
      for (const c of form.controls) {
        if (Object.hasOwn(parameters, c.name)) supply(c, parameters[c.name]);
        if (!this.controls.has(c.name)) this.controls.set(c.name, c);
      }
    }
  }

  /** Makes every form and control readable by name in expressions. */
  expose(scope: ReportScope): void {
    for (const form of this.forms.values())
      scope.objectProperties.set(form.name, (property) =>
        property === 'Visible' ? bool(form.visible) : property === 'Text' ? str(form.text) : undefined,
      );
    for (const c of this.controls.values())
      scope.objectProperties.set(c.name, (property) => controlProperty(c, property, this.now));
  }

  /** Runs the visible forms as if each was shown and closed with OK. A render parameter of a
   *  control's name is what the user entered: it wins over what Load set. */
  run(script: ScriptEvents): void {
    for (const form of this.forms.values()) {
      if (!form.visible) continue;
      script.fire(form.name, form.events, 'LoadEvent');
      for (const c of form.controls) if (Object.hasOwn(this.parameters, c.name)) supply(c, this.parameters[c.name]);
      script.fire(form.name, form.events, 'ShownEvent');
      const ok = form.controls.find((c) => c.className === 'ButtonControl' && c.dialogResult === 'OK');
      if (ok) script.fire(ok.name, ok.events, 'ClickEvent');
      script.fire(form.name, form.events, 'FormClosingEvent');
      script.fire(form.name, form.events, 'FormClosedEvent');
    }
  }
}
