// The report's dialog forms (`Form2.Visible`) and their controls, as expressions read them (`TextBox1.Text`,
// `CheckBox1.Checked`, `DateTimePicker1.Value`, `ListBox1.SelectedItem`): their designed values,
// or a render parameter of the control's name (the value a user would have entered).

import type { Resolved } from '../expr/index.js';
import type { DialogControlModel, ReportModel } from '../frx/model.js';
import { parseInvariantDate } from '../frx/value-parsers.js';
import type { ReportScope } from './scope.js';

const str = (s: string | null): Resolved => ({ value: s, type: 'System.String' });
const bool = (b: boolean): Resolved => ({ value: b, type: 'System.Boolean' });

/** A supplied value read as the control's kind of value. */
function overridden(c: DialogControlModel, v: unknown): DialogControlModel {
  const text = v instanceof Date ? v.toISOString() : String(v ?? '');
  const out = { ...c, text };
  if (typeof v === 'boolean') out.checked = v;
  else if (/^(true|false|1|0)$/i.test(text)) out.checked = /^(true|1)$/i.test(text);
  if (c.className === 'DateTimePickerControl' || c.className === 'MonthCalendarControl') {
    const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?/.exec(text);
    const d = v instanceof Date ? v : iso ? new Date(`${iso[0]}${iso[1] ? '' : 'T00:00'}Z`) : parseInvariantDate(text);
    if (d && !Number.isNaN(d.getTime())) out.date = d;
  }
  if (c.className === 'NumericUpDownControl' && Number.isFinite(Number(text))) out.number = Number(text);
  const index = c.items.indexOf(text);
  if (index >= 0) out.selectedIndex = index;
  return out;
}

function properties(c: DialogControlModel, now: Date): (property: string) => Resolved | undefined {
  const selected = (): string | null => c.items[c.selectedIndex] ?? null;
  return (property) => {
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
  };
}

/** Makes every dialog control readable by name in expressions. */
export function exposeDialogControls(
  report: ReportModel,
  scope: ReportScope,
  parameters: Readonly<Record<string, unknown>>,
  now: Date,
): void {
  for (const dialog of report.dialogs) {
    scope.objectProperties.set(dialog.name, (property) =>
      property === 'Visible' ? bool(dialog.visible) : property === 'Text' ? str(dialog.text) : undefined,
    );
    for (const c of dialog.controls) {
      const control = Object.hasOwn(parameters, c.name) ? overridden(c, parameters[c.name]) : c;
      scope.objectProperties.set(c.name, properties(control, now));
    }
  }
}
