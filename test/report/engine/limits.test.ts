// Hostile and broken templates: every run ends (page and row budgets), errors name the object
// and the expression, unsupported objects still render.

import { describe, expect, it } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import { runTemplate, textsOf } from './helpers.js';

const page = (bands: string, dict = '', attrs = ''): string =>
  `<Report ${attrs}><Dictionary>${dict}</Dictionary><ReportPage Name="P">${bands}</ReportPage></Report>`;

describe('budgets', () => {
  it(
    'stops a huge virtual row count at the page limit (cut when asked for, with a warning; see ' +
      'page-limit.test.ts)',
    () => {
      const t = page(
        `<DataBand Name="D" Width="718.2" Height="18.9" RowCount="2147483647"><TextObject Name="T" Width="100" ` +
          `Height="18.9" Text="[Row#]"/></DataBand>`,
      );
      const started = Date.now();
      const r = runTemplate(t, {}, { maxPages: 5, truncatePages: true });
      expect(r.prepared.pages).toHaveLength(5);
      expect(r.warnings.some((w) => /Output truncated: the report has more than 5 pages/.test(w))).toBe(true);
      expect(Date.now() - started).toBeLessThan(10_000);
    },
  );

  it('stops rows that print nothing at the row limit', () => {
    const t = page(`<DataBand Name="D" Width="718.2" Height="18.9" RowCount="2147483647" VisibleExpression="false"/>`);
    const r = runTemplate(t, {}, { maxRows: 20_000 });
    expect(r.prepared.pages).toHaveLength(1);
    expect(r.warnings.some((w) => /more than 20000 data rows/.test(w))).toBe(true);
  });

  it("respects the template's MaxPages", () => {
    const t = page(`<DataBand Name="D" Width="718.2" Height="500" RowCount="100"/>`, '', 'MaxPages="3"');
    expect(runTemplate(t).prepared.pages).toHaveLength(3);
  });

  it('breaks a band taller than a page across pages', () => {
    const lines400 = Array.from({ length: 400 }, (_, i) => `line ${i + 1}`);
    const t = page(
      `<DataBand Name="D" Width="718.2" Height="20" CanGrow="true"><TextObject Name="T" Width="300" ` +
        `Height="20" CanGrow="true" Text="${lines400.join('&#10;')}"/></DataBand>`,
    );
    const r = runTemplate(t).prepared;
    expect(r.pages.length).toBeGreaterThan(3);
    const lines = r.pages.flatMap((p) => p.items.flatMap((i) => (i.kind === 'text' ? i.lines.map((l) => l.text) : [])));
    expect(lines).toEqual(lines400);
  });

  it('ends keep-together groups taller than a page and StartNewPage on every row', () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ g: i < 150 ? 'a' : 'b', n: i }));
    const t = page(
      `<GroupHeaderBand Name="G" Width="718.2" Height="20" Condition="[JSON.item.rows.item.g]" KeepTogether="true">
      <DataBand Name="D" Width="718.2" Height="20" DataSource="rows" StartNewPage="true"><TextObject ` +
        `Name="T" Width="100" Height="20" Text="[JSON.item.rows.item.n]"/></DataBand>
    </GroupHeaderBand>`,
    );
    const r = runTemplate(t, { json: { rows } }, { maxPages: 300 }).prepared;
    expect(textsOf(r, 'T')).toHaveLength(200);
  });

  it('survives a hierarchy with a cycle', () => {
    const rows = [
      { id: 1, parent: 2 },
      { id: 2, parent: 1 },
      { id: 3, parent: null },
    ];
    const t = page(
      `<DataBand Name="D" Width="718.2" Height="20" DataSource="rows" IdColumn="JSON.item.rows.item.id" ` +
        `ParentIdColumn="JSON.item.rows.item.parent">
      <TextObject Name="T" Width="100" Height="20" Text="[JSON.item.rows.item.id]"/></DataBand>`,
    );
    expect(textsOf(runTemplate(t, { json: { rows } }).prepared, 'T')).toEqual(['3']);
  });
});

describe('errors', () => {
  const fails = (t: string, json?: unknown): TemplateError => {
    try {
      runTemplate(t, json === undefined ? {} : { json });
    } catch (e) {
      if (e instanceof TemplateError) return e;
      throw e;
    }
    throw new Error('no error');
  };

  it('names the object and the expression of a bad text', () => {
    const e = fails(
      page(
        `<ReportTitleBand Name="T" Width="718.2" Height="20"><TextObject Name="Text7" Width="100" ` +
          `Height="20" Text="Sum: [Unknown.Column]"/></ReportTitleBand>`,
      ),
    );
    expect(e.message).toContain('Text7.Text');
    expect(e.message).toContain('Unknown.Column');
  });

  it('names the band of a bad group condition, filter and sort', () => {
    const data = { rows: [{ a: 1 }, { a: 2 }] };
    const group = fails(
      page(
        `<GroupHeaderBand Name="G1" Width="718.2" Height="20" Condition="[JSON.item.rows.item.a] ` +
          `+"><DataBand Name="D" Width="718.2" Height="20" DataSource="rows"/></GroupHeaderBand>`,
      ),
      data,
    );
    expect(group.message).toContain('G1.Condition');
    const filter = fails(
      page(`<DataBand Name="D2" Width="718.2" Height="20" DataSource="rows" Filter="[JSON.item.rows.item.a] =="/>`),
      data,
    );
    expect(filter.message).toContain('D2.Filter');
    const sort = fails(
      page(
        `<DataBand Name="D3" Width="718.2" Height="20" DataSource="rows"><Sort><Sort ` +
          `Expression="[Nope]"/></Sort></DataBand>`,
      ),
      data,
    );
    expect(sort.message).toContain('D3.Sort');
  });

  it('names a bad highlight condition and a bad format', () => {
    const h = fails(
      page(
        `<ReportTitleBand Name="T" Width="718.2" Height="20"><TextObject Name="H1" Width="100" Height="20" ` +
          `Text="x"><Highlight><Condition Expression="[Value] &gt;&gt;&gt; ` +
          `1"/></Highlight></TextObject></ReportTitleBand>`,
      ),
    );
    expect(h.message).toContain('H1.Highlight');
  });
});

describe('unsupported and odd content', () => {
  it('prints unsupported objects as boxes, no subreport of a missing page, unknown references as warnings', () => {
    const t = page(
      `<ReportTitleBand Name="T" Width="718.2" Height="60" Style="Nope">
      <CrossViewObject Name="Bar" Width="100" Height="50" Border.Lines="All"/>
      <SubreportObject Name="Sub" Left="200" Width="100" Height="50" ReportPage="Missing"/>
      <TextObject Name="X" Left="400" Width="100" Height="20" Text="ok"/>
    </ReportTitleBand>
    <DataBand Name="D" Width="718.2" Height="20" DataSource="NoSuchSource"/>`,
      `<Total Name="T1" Evaluator="Ghost"/>`,
    );
    const r = runTemplate(t);
    const items = r.prepared.pages[0]?.items ?? [];
    expect(items.find((i) => i.name === 'Bar')).toMatchObject({ kind: 'box', unsupported: 'CrossViewObject' });
    expect(items.find((i) => i.name === 'Sub')).toBeUndefined();
    expect(textsOf(r.prepared, 'X')).toEqual(['ok']);
    const all = r.warnings.join('\n');
    expect(all).toMatch(/CrossViewObject/);
    expect(all).toMatch(/SubreportObject "Sub": its ReportPage "Missing" does not exist/);
    expect(all).toMatch(/style "Nope" is not defined/);
    expect(all).toMatch(/data source "NoSuchSource" is not in the dictionary/);
    expect(all).toMatch(/Evaluator band "Ghost" does not exist/);
  });

  it('prints [Page#] and [TotalPages#] filled in after layout', () => {
    const t = page(
      `<PageFooterBand Name="F" Width="718.2" Height="20"><TextObject Name="N" Width="200" Height="20" ` +
        `HorzAlign="Right" Text="[Page#] / [TotalPages#]"/></PageFooterBand>
      <DataBand Name="D" Width="718.2" Height="400" RowCount="5"/>`,
    );
    const r = runTemplate(t).prepared;
    const n = r.pages.length;
    expect(textsOf(r, 'N')).toEqual(Array.from({ length: n }, (_, i) => `${i + 1} / ${n}`));
    const first = r.pages[0]?.items.find((i) => i.name === 'N');
    // Right-aligned after the substitution: the line ends at the right padding.
    expect(first?.kind === 'text' && first.lines[0] ? first.lines[0].x + first.lines[0].width : 0).toBeCloseTo(
      200 - 4,
      3,
    );
  });

  it('evaluates VisibleExpression, PrintOn and ResetAfterPrint', () => {
    const t = page(
      `<ReportTitleBand Name="T" Width="718.2" Height="20"><TextObject Name="V" Width="100" Height="20" ` +
        `VisibleExpression="1 == 2" Text="hidden"/><TextObject Name="W" Left="100" Width="100" Height="20" ` +
        `VisibleExpression="[Page] == 1" Text="shown"/></ReportTitleBand>
      <DataBand Name="D" Width="718.2" Height="20" RowCount="3"><TextObject Name="R" Width="100" ` +
        `Height="20" Text="[Running]"/></DataBand>
      <ReportSummaryBand Name="S" Width="718.2" Height="20"><TextObject Name="Sum" Width="100" ` +
        `Height="20" Text="[Running]"/></ReportSummaryBand>`,
      `<Total Name="Running" Expression="[Row#]" Evaluator="D" PrintOn="S"/>`,
    );
    const r = runTemplate(t).prepared;
    expect(textsOf(r, 'V')).toEqual([]);
    expect(textsOf(r, 'W')).toEqual(['shown']);
    // A total printed in its evaluator band shows the rows before it.
    expect(textsOf(r, 'R')).toEqual(['', '1', '3']);
    expect(textsOf(r, 'Sum')).toEqual(['6']);
  });
});
