// One pass where the page total is only shown: [TotalPages#] as a whole bracket, and [PageNofM] /
// [TotalPages] in fixed page-header and footer texts are filled in after a single pass, with the
// very output two passes give; anything else that reads the total or the passes keeps two.

import { describe, expect, it } from 'vitest';
import { passPlan } from '../../../src/report/engine/pass-plan.js';
import { loadFrx } from '../../../src/report/frx/index.js';
import { runTemplate, textsOf } from './helpers.js';

const report = (footer: string, opts: { attrs?: string; data?: string; script?: string; page2?: boolean } = {}) => {
  const page = (name: string, rows: number, attrs = '') => `<ReportPage Name="${name}" ${attrs}>
    <DataBand Name="D${name}" Width="718.2" Height="100" RowCount="${rows}">
      <TextObject Name="R${name}" Width="200" Height="20" Text="[Row#]"/>${opts.data ?? ''}
    </DataBand>
    <PageFooterBand Name="F${name}" Width="718.2" Height="20">${footer.replaceAll('$', name)}</PageFooterBand>
  </ReportPage>`;
  const script = opts.script === undefined ? '' : `<ScriptText>${opts.script}</ScriptText>`;
  const second = opts.page2 ? page('B', 31, 'ResetPageNumber="true"') : '';
  return `<Report ${opts.attrs ?? ''}>${script}<Dictionary/>${page('A', 23)}${second}</Report>`;
};
const plan = (t: string) => {
  const p = passPlan(loadFrx(t).report);
  return { doublePass: p.doublePass, late: [...p.lateTotals].map((o) => o.name) };
};
const nofm = `<TextObject Name="N$" Width="300" Height="20" HorzAlign="Right" Text="[PageNofM]"/>`;

describe('pass plan', () => {
  it('runs one pass for a whole [TotalPages#] bracket, two when an expression computes with it', () => {
    expect(plan(report(`<TextObject Name="N$" Width="300" Height="20" Text="[Page#] of [TotalPages#]"/>`))).toEqual({
      doublePass: false,
      late: [],
    });
    expect(plan(report(`<TextObject Name="N$" Width="300" Height="20" Text="[[TotalPages#] - 1]"/>`)).doublePass).toBe(
      true,
    );
    const visible = `<TextObject Name="N$" Width="300" Height="20" VisibleExpression="[TotalPages#] &gt; 1" Text="x"/>`;
    expect(plan(report(visible)).doublePass).toBe(true);
  });

  it('fills in [PageNofM] of a fixed footer text after one pass', () => {
    expect(plan(report(nofm))).toEqual({ doublePass: false, late: ['NA'] });
    expect(plan(report(nofm, { script: 'public class ReportScript { void X() {} }' })).doublePass).toBe(false);
  });

  it.each([
    ['the text can grow', report(nofm.replace('Width=', 'CanGrow="true" Width=')), true],
    ['the report asks for two', report(nofm, { attrs: 'DoublePass="true"' }), true],
    ['a data band shows the total', report('', { data: nofm.replace('N$', 'X') }), true],
    ['an object prints on some pages only', report(nofm.replace('Width=', 'PrintOn="FirstPage" Width=')), true],
    [
      'another text reads it',
      report(nofm, { data: '<TextObject Name="Y" Width="90" Height="20" Text="[NA.Text]"/>' }),
      true,
    ],
    [
      'a text reads bookmarks',
      report(nofm, { data: '<TextObject Name="Y" Text="[GetBookmarkPage(&quot;a&quot;)]"/>' }),
      true,
    ],
    ['a handler changes it', report(nofm, { script: 'public class ReportScript { void X() { NA.Left = 9; } }' }), true],
    ['the script keeps fields', report(nofm, { script: 'public class ReportScript { int n; }' }), true],
    [
      'the script reads the engine',
      report(nofm, { script: 'public class ReportScript { void X() { var p = Engine.FinalPass; } }' }),
      true,
    ],
  ])('keeps two passes when %s', (_, t, two) => {
    expect(plan(t).doublePass).toBe(two);
  });

  it('prints what two passes print, logical numbers per report page and Formats included', () => {
    const footer =
      `<TextObject Name="N$" Width="300" Height="20" HorzAlign="Center" ` +
      `Text="[PageNofM] · [TotalPages] of [Page] · [Page#]/[TotalPages#] · [1+1]" Format="Number" ` +
      `Format.UseLocale="false" Format.DecimalDigits="1" Format.DecimalSeparator="," Format.GroupSeparator="" ` +
      `Format.NegativePattern="1"/>` +
      `<TextObject Name="M$" Left="300" Width="100" Height="20" Text="[TotalPages]"/>`;
    const single = report(footer, { page2: true });
    expect(plan(single)).toEqual({ doublePass: false, late: ['NA', 'MA', 'NB', 'MB'] });
    const one = runTemplate(single).prepared;
    const two = runTemplate(report(footer, { page2: true, attrs: 'DoublePass="true"' })).prepared;
    // Ten 100 px rows a page: 3 pages, then 4 numbered anew; the text wraps in its 300 px.
    expect(textsOf(one, 'MA')).toEqual(['3', '3', '3']);
    expect(textsOf(one, 'NB')[0]).toBe('Page 1 of 4 · 4,0 of 1,0 · 4/7 ·\n2,0');
    expect(JSON.stringify(one)).toBe(JSON.stringify(two));
  });
});
