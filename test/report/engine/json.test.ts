// SRS-shaped data (one JSON object: command name → rows, or one object with dtsingle) through
// the JSON connection: lists, single objects, IIf, null/DBNull comparisons, HtmlTags, CanGrow,
// totals and formats.

import { describe, expect, it } from 'vitest';
import { shownText, type PreparedText } from '../../../src/report/engine/index.js';
import { renderReport } from '../../../src/report/index.js';
import { runTemplate, textsOf } from './helpers.js';

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A template with a JSON connection, the given bands on one page, and optional totals. */
function jsonTemplate(bands: string, dictionary = ''): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" ReportInfo.Name="JSON test">
  <Dictionary>
    <JsonDataSourceConnection Name="Connection">
      <JsonTableDataSource Name="JSON" DataType="FastReport.Data.JsonConnection.JsonParser.JsonArray" ` +
    `Enabled="true" TableName="JSON"/>
    </JsonDataSourceConnection>
    ${dictionary}
  </Dictionary>
  <ReportPage Name="Page1">
    ${bands}
  </ReportPage>
</Report>`
  );
}

const text = (name: string, expr: string, attrs = ''): string =>
  `<TextObject Name="${name}" Width="300" Height="18.9" Text="${esc(expr)}" ${attrs}/>`;

const srs = {
  customer: { name: 'Ada & Co', phone: null, city: 'Zürich' },
  orders: [
    { id: 1, total: 1234.5, note: 'rush', shipped: '2024-03-01T00:00:00' },
    { id: 2, total: 10, note: null },
    { id: 3, total: 0.25 },
  ],
  empty: [],
};

const PHONE_OR_NONE = '[IIf([JSON.item.customer.phone] == null, "no phone", [JSON.item.customer.phone])]';
const NOTE_OR_DASH = '[IIf([JSON.item.orders.item.note] == DBNull.Value, "-", [JSON.item.orders.item.note])]';

describe('SRS data through the JSON connection', () => {
  const template = jsonTemplate(
    `<ReportTitleBand Name="Title" Width="718.2" Height="56.7">
      ${text('Customer', '[JSON.item.customer.name]')}
      ${text('Phone', PHONE_OR_NONE, 'Top="18.9"')}
      ${text('City', '[JSON.item.customer.city]', 'Top="37.8"')}
    </ReportTitleBand>
    <DataBand Name="Orders" Width="718.2" Height="18.9" DataSource="orders">
      ${text('Id', '[JSON.item.orders.item.id]')}
      ${text('Total', '[JSON.item.orders.item.total]', 'Left="300" Format="Currency" Format.UseLocale="true"')}
      ${text('Note', NOTE_OR_DASH, 'Left="400"')}
      ${text('Big', '[[JSON.item.orders.item.total] > 100 ? "big" : "small"]', 'Left="500"')}
    </DataBand>
    <ReportSummaryBand Name="Summary" Width="718.2" Height="37.8">
      ${text('Sum', 'Sum: [OrderSum]', 'Format="Number" Format.UseLocale="true" Format.DecimalDigits="2"')}
      ${text('Count', '[OrderCount] orders, max [OrderMax]', 'Top="18.9"')}
    </ReportSummaryBand>`,
    `<Total Name="OrderSum" Expression="[JSON.item.orders.item.total]" Evaluator="Orders"/>
     <Total Name="OrderCount" TotalType="Count" Evaluator="Orders"/>
     <Total Name="OrderMax" TotalType="Max" Expression="[JSON.item.orders.item.id]" Evaluator="Orders"/>`,
  );
  const r = runTemplate(template, { json: srs }).prepared;

  it('reads a single object with [JSON.item.cmd.prop]', () => {
    expect(textsOf(r, 'Customer')).toEqual(['Ada & Co']);
    expect(textsOf(r, 'City')).toEqual(['Zürich']);
  });

  it('compares a JSON null with null', () => {
    expect(textsOf(r, 'Phone')).toEqual(['no phone']);
  });

  it('lists an array with [JSON.item.cmd.item.prop], one band per element', () => {
    expect(textsOf(r, 'Id')).toEqual(['1', '2', '3']);
    expect(textsOf(r, 'Total')).toEqual(['$1,234.50', '$10.00', '$0.25']);
  });

  it('sees null and missing properties as DBNull.Value', () => {
    expect(textsOf(r, 'Note')).toEqual(['rush', '-', '-']);
  });

  it('evaluates conditionals per row', () => {
    expect(textsOf(r, 'Big')).toEqual(['big', 'small', 'small']);
  });

  it('totals the rows (Sum, Count, Max) with the text format', () => {
    expect(textsOf(r, 'Sum')).toEqual(['Sum: 1,244.75']);
    expect(textsOf(r, 'Count')).toEqual(['3 orders, max 3']);
  });

  it('renders the same through renderReport, and HTML-escapes the data', () => {
    const out = renderReport({ template, data: { json: srs }, format: 'html', now: new Date(0) });
    expect(out.pages).toBe(1);
    expect(String(out.output)).toContain('Ada &amp; Co');
    expect(String(out.output)).toContain('$1,234.50');
  });

  it('gives a template without a JSON connection the SRS table "JSON"', () => {
    const plain =
      `<Report><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" ` +
      `Height="18.9">${text('C', '[JSON.item.customer.name]')}</ReportTitleBand></ReportPage></Report>`;
    expect(textsOf(runTemplate(plain, { json: srs }).prepared, 'C')).toEqual(['Ada & Co']);
  });

  it('prints nothing for an empty array unless PrintIfDatasourceEmpty', () => {
    const t = jsonTemplate(
      `<DataBand Name="E" Width="718.2" Height="18.9" ` +
        `DataSource="empty">${text('X', 'row [Row#]')}</DataBand>
      <DataBand Name="F" Width="718.2" Height="18.9" DataSource="empty" ` +
        `PrintIfDatasourceEmpty="true">${text('Y', 'no rows')}</DataBand>`,
    );
    const res = runTemplate(t, { json: srs }).prepared;
    expect(textsOf(res, 'X')).toEqual([]);
    expect(textsOf(res, 'Y')).toEqual(['no rows']);
  });
});

describe('text layout', () => {
  const long =
    'This text is long enough to wrap onto several lines in a narrow object, so the object grows and pushes ' +
    'what is below it down.';

  it('grows a CanGrow text, shifts the objects below and the next band down', () => {
    const t = jsonTemplate(
      `<DataBand Name="D" Width="718.2" Height="40" CanGrow="true" DataSource="orders">
        <TextObject Name="Grow" Width="150" Height="18.9" CanGrow="true" Text="${esc(long)}"/>
        <TextObject Name="Below" Top="20" Width="150" Height="18.9" Text="below"/>
        <TextObject Name="Beside" Left="200" Top="20" Width="150" Height="18.9" ` +
        `ShiftMode="WhenOverlapped" Text="beside"/>
      </DataBand>
      <ReportSummaryBand Name="S" Width="718.2" Height="18.9">${text('After', 'after')}</ReportSummaryBand>`,
    );
    const r = runTemplate(t, { json: { orders: [{}] } }).prepared;
    const page = r.pages[0];
    const grow = page?.items.find((i) => i.name === 'Grow') as PreparedText;
    const below = page?.items.find((i) => i.name === 'Below');
    const beside = page?.items.find((i) => i.name === 'Beside');
    const after = page?.items.find((i) => i.name === 'After');
    expect(grow.lines.length).toBeGreaterThan(3);
    // Height = lines × line height + padding + 1 (FastReport's CalcHeight).
    expect(grow.height).toBeCloseTo(grow.lines.length * grow.lineHeight + 1, 3);
    const growth = grow.height - 18.9;
    expect((below?.y ?? 0) - grow.y).toBeCloseTo(20 + growth, 1);
    // WhenOverlapped: not below the grown object horizontally, so it stays.
    expect((beside?.y ?? 0) - grow.y).toBeCloseTo(20, 1);
    // The band grew to the shifted object's bottom; the summary follows it.
    expect((after?.y ?? 0) - grow.y).toBeCloseTo(20 + growth + 18.9, 1);
    for (const l of grow.lines) expect(l.width).toBeLessThanOrEqual(150 - 4 + 1e-6);
  });

  it('lays out HtmlTags text in styled runs', () => {
    const t = jsonTemplate(
      `<ReportTitleBand Name="T" Width="718.2" Height="40">
      <TextObject Name="H" Width="400" Height="40" TextRenderType="HtmlTags" ` +
        `Text="${esc('<b>Bold</b> and <i>italic</i> and <font color="red">red</font><br>second line')}"/>
    </ReportTitleBand>`,
    );
    const h = runTemplate(t).prepared.pages[0]?.items.find((i) => i.name === 'H') as PreparedText;
    expect(h.html).toHaveLength(2);
    const runs = h.html?.[0]?.runs ?? [];
    expect(runs.find((x) => x.text.includes('Bold'))?.font.bold).toBe(true);
    expect(runs.find((x) => x.text.includes('italic'))?.font.italic).toBe(true);
    expect(runs.find((x) => x.text.includes('red'))?.color).toBe('red');
    expect(shownText(h)).toBe('Bold and italic and red\nsecond line');
  });

  it('formats each expression of a text with its own format', () => {
    const t = jsonTemplate(`<ReportTitleBand Name="T" Width="718.2" Height="20">
      <TextObject Name="F" Width="600" Height="18.9" Text="[JSON.item.a] | [JSON.item.b] | [JSON.item.c]">
        <Formats>
          <NumberFormat DecimalDigits="1"/>
          <PercentFormat/>
          <CustomFormat Format="0000"/>
        </Formats>
      </TextObject>
      <TextObject Name="Z" Top="20" Width="300" Height="18.9" HideZeros="true" Text="[JSON.item.zero]"/>
      <TextObject Name="N" Top="40" Width="300" Height="18.9" NullValue="n/a" Text="[JSON.item.nothing]"/>
    </ReportTitleBand>`);
    const r = runTemplate(t, { json: { a: 1234.56, b: 0.125, c: 42, zero: 0, nothing: null } }).prepared;
    expect(textsOf(r, 'F')).toEqual(['1,234.6 | 12.50% | 0042']);
    expect(textsOf(r, 'Z')).toEqual(['']);
    // A JSON null of unknown type stays null under ConvertNulls, so NullValue shows.
    expect(textsOf(r, 'N')).toEqual(['n/a']);
  });
});
