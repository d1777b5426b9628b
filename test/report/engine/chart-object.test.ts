// MSChartObject in small templates: static points, a bound chart with the chart and series
// filters, stacked 100 % columns, the 3-D warning, and hostile ChartData (a warning and an empty
// chart, never a failed report).

import { describe, expect, it } from 'vitest';
import type { PreparedItem, PreparedPath, PreparedText } from '../../../src/report/engine/prepared.js';
import { chartForPrint } from '../../../src/report/engine/chart-data.js';
import type { EngineContext } from '../../../src/report/engine/context.js';
import { ReportWarnings } from '../../../src/report/errors.js';
import { loadFrx } from '../../../src/report/frx/index.js';
import type { ChartObjectModel } from '../../../src/report/frx/model.js';
import { nwindDataSet, nwindRows, runTemplate } from './helpers.js';

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const report = (chart: string): string =>
  `<Report><Dictionary><TableDataSource Name="MatrixDemo" ReferenceName="NorthWind.MatrixDemo" ` +
  `DataType="System.Int32" Enabled="true">` +
  `<Column Name="Name" DataType="System.String"/><Column Name="Year" DataType="System.Int32"/>` +
  `<Column Name="ItemsSold" DataType="System.Int32"/><Column Name="Revenue" DataType="System.Decimal"/>` +
  `</TableDataSource></Dictionary><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" Height="300">${chart}` +
  '</ReportTitleBand></ReportPage></Report>';
const chartXml = (series: string, extra = ''): string =>
  `<Chart><Series>${series}</Series><Legends><Legend Name="Default" Enabled="False"/></Legends>${extra}</Chart>`;
const run = (xml: string) => runTemplate(report(xml), { datasets: { NorthWind: nwindDataSet() } });
const items = (r: ReturnType<typeof run>): PreparedItem[] => r.prepared.pages.flatMap((p) => p.items);
const bar = (all: PreparedItem[], name: string): PreparedPath => all.find((i) => i.name === name) as PreparedPath;

describe('MSChartObject', () => {
  it('draws static columns with heights proportional to their values and #VALX/#VALY labels', () => {
    const xml = chartXml(
      '<Series Name="S" Label="#VALX=#VALY"><Points><DataPoint YValues="3" AxisLabel="a"/>' +
        '<DataPoint YValues="7" AxisLabel="b"/><DataPoint YValues="5" AxisLabel="c"/></Points></Series>',
    );
    const r = run(
      `<MSChartObject Name="C" Width="400" Height="200" ChartData="${b64(xml)}"><MSChartSeries/></MSChartObject>`,
    );
    expect(r.warnings).toEqual([]);
    const all = items(r);
    const hs = [0, 1, 2].map((i) => bar(all, `C.S.${i}`).height);
    expect(Math.abs((hs[1] as number) / 7 - (hs[0] as number) / 3)).toBeLessThan(0.5 / 3);
    expect(Math.abs((hs[2] as number) / 5 - (hs[0] as number) / 3)).toBeLessThan(0.5 / 3);
    expect((all.find((i) => i.name === 'C.S.1.label') as PreparedText).text).toBe('b=7');
    // The Y axis runs 0…8 in steps of 2 (MS Chart: a fifth of 7 → 2, max one step past 7).
    expect(all.filter((i) => /^C\.axis-y\.label\.\d+$/.test(i.name)).map((i) => (i as PreparedText).text)).toEqual([
      '0',
      '2',
      '4',
      '6',
      '8',
    ]);
  });

  it('binds to its data source: chart Filter, series Filter, GroupBy XValue, SortBy YValue descending', () => {
    const xml = chartXml('<Series Name="S" ChartType="Bar"/>');
    const r = run(
      `<MSChartObject Name="C" Width="400" Height="200" DataSource="MatrixDemo" ` +
        `Filter="[MatrixDemo.Year] &gt;= 2012" ` +
        `ChartData="${b64(xml)}"><MSChartSeries Filter="[MatrixDemo.Name] != &quot;Andrew Fuller&quot;" ` +
        `GroupBy="XValue" ` +
        `SortBy="YValue" SortOrder="Descending" XValue="[MatrixDemo.Name]" YValue1="[MatrixDemo.Revenue]"/>` +
        `</MSChartObject>`,
    );
    expect(r.warnings).toEqual([]);
    const expected = new Map<string, number>();
    for (const row of nwindRows('MatrixDemo'))
      if (Number(row.Year) >= 2012 && row.Name !== 'Andrew Fuller')
        expected.set(row.Name as string, (expected.get(row.Name as string) ?? 0) + Number(row.Revenue));
    const sorted = [...expected].sort((a, b) => b[1] - a[1]);
    const all = items(r);
    const axis = all.filter((i) => /^C\.axis-x\.label\.\d+$/.test(i.name)).map((i) => (i as PreparedText).text);
    expect(axis).toEqual(sorted.map(([n]) => n));
    const ws = sorted.map((_, i) => bar(all, `C.S.${i}`).width);
    const k = (ws[0] as number) / (sorted[0] as [string, number])[1];
    sorted.forEach(([, v], i) => {
      expect(Math.abs((ws[i] as number) - v * k)).toBeLessThanOrEqual(0.5);
    });
  });

  it('stacks 100 % columns to the full plot height', () => {
    const xml = chartXml(
      '<Series Name="A" ChartType="StackedColumn100"><Points><DataPoint YValues="1"/><DataPoint YValues="3"/>' +
        '</Points></Series>' +
        '<Series Name="B" ChartType="StackedColumn100"><Points><DataPoint YValues="3"/>' +
        '<DataPoint YValues="1"/></Points></Series>',
    );
    const all = items(run(`<MSChartObject Name="C" Width="400" Height="200" ChartData="${b64(xml)}"/>`));
    const [a0, b0, a1, b1] = ['C.A.0', 'C.B.0', 'C.A.1', 'C.B.1'].map((n) => bar(all, n));
    expect((a0 as PreparedPath).height * 3).toBeCloseTo((b0 as PreparedPath).height, 1);
    expect((a0 as PreparedPath).height + (b0 as PreparedPath).height).toBeCloseTo(
      (a1 as PreparedPath).height + (b1 as PreparedPath).height,
      2,
    );
    // B sits on A in the same slot.
    expect((b0 as PreparedPath).y + (b0 as PreparedPath).height).toBeCloseTo((a0 as PreparedPath).y, 2);
    expect((b0 as PreparedPath).x).toBeCloseTo((a0 as PreparedPath).x, 3);
  });

  it('warns once that a 3-D chart is drawn flat', () => {
    const xml = chartXml(
      '<Series Name="S"><Points><DataPoint YValues="1"/></Points></Series>',
      '<ChartAreas><ChartArea Name="Default"><Area3DStyle Enable3D="True"/></ChartArea></ChartAreas>',
    );
    const r = run(`<MSChartObject Name="C3" Width="300" Height="200" ChartData="${b64(xml)}"/>`);
    expect(r.warnings).toEqual(['C3: 3-D chart drawn flat']);
  });

  it('draws an empty chart with a warning for ChartData that is not a chart', () => {
    for (const data of ['%%%', b64('<Chart><Series>'), b64('<html/>')]) {
      const r = run(`<MSChartObject Name="Bad" Width="300" Height="200" ChartData="${data}"/>`);
      expect(r.warnings.length).toBe(1);
      expect(r.warnings[0]).toMatch(/^Bad: ChartData .*; the chart is drawn empty$/);
      expect(items(r).some((i) => i.name === 'Bad.back')).toBe(true);
    }
  });

  it('SparklineObject is the same object (FastLine, no markers)', () => {
    const xml = chartXml(
      '<Series Name="S" ChartType="FastLine" MarkerStyle="Circle"><Points><DataPoint YValues="1"/>' +
        '<DataPoint YValues="4"/><DataPoint YValues="2"/></Points></Series>',
      '<ChartAreas><ChartArea Name="A"><AxisY Enabled="False"/><AxisX Enabled="False"/></ChartArea></ChartAreas>',
    );
    const r = run(`<SparklineObject Name="Sp" Width="100" Height="30" ChartData="${b64(xml)}"/>`);
    expect(r.warnings).toEqual([]);
    const all = items(r);
    expect(all.filter((i) => i.name.startsWith('Sp.S.')).map((i) => i.name)).toEqual(['Sp.S.line.0']);
    expect(all.some((i) => i.name.startsWith('Sp.axis'))).toBe(false);
  });
});

describe('a chart inside a matrix cell', () => {
  it("takes the cell's values as the points of its first series, one per value at X = 1, 2, …", () => {
    const xml = chartXml(
      '<Series Name="S" ChartType="FastLine"><Points><DataPoint YValues="9" AxisLabel="A"/></Points></Series>',
    );
    const loaded = loadFrx(report(`<SparklineObject Name="Sp" Width="100" Height="30" ChartData="${b64(xml)}"/>`));
    const o = loaded.report.pages[0]?.reportTitle?.objects[0] as ChartObjectModel;
    const e = {
      warnings: new ReportWarnings(),
      cellData: { value: 6, values: [1, 4, 2] },
      culture: { name: 'en-US' },
    } as unknown as EngineContext;
    const chart = chartForPrint(e, o);
    expect(chart.series[0]?.points.map((p) => [p.x, p.ys[0]])).toEqual([
      [1, 1],
      [2, 4],
      [3, 2],
    ]);
    // Without cell data the stored points stand.
    const alone = chartForPrint({ ...e, cellData: undefined } as EngineContext, o);
    expect(alone.series[0]?.points.map((p) => p.ys[0])).toEqual([9]);
  });
});

describe('limits of a bound chart', () => {
  it('stops adding points at 100,000 with a warning (121 series over the 830 orders)', () => {
    const orders = nwindRows('Orders').length;
    const seriesCount = Math.ceil(100_001 / orders);
    const xml = chartXml(
      Array.from({ length: seriesCount }, (_, i) => `<Series Name="S${i}" ChartType="FastLine"/>`).join(''),
    );
    const bindings = '<MSChartSeries XValue="[Orders.OrderID]" YValue1="[Orders.Freight]"/>'.repeat(seriesCount);
    const t =
      `<Report><Dictionary><TableDataSource Name="Orders" ReferenceName="NorthWind.Orders" ` +
      `DataType="System.Int32" Enabled="true">` +
      `<Column Name="OrderID" DataType="System.Int32"/><Column Name="Freight" DataType="System.Decimal"/>` +
      `</TableDataSource>` +
      `</Dictionary><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" Height="300">` +
      `<MSChartObject Name="Big" Width="400" Height="200" DataSource="Orders" ChartData="${b64(xml)}">` +
      `${bindings}</MSChartObject>` +
      '</ReportTitleBand></ReportPage></Report>';
    const r = runTemplate(t, { datasets: { NorthWind: nwindDataSet() } });
    expect(r.warnings).toEqual(['Big: more than 100000 points; the rest are left out']);
    const lines = items(r).filter((i) => /^Big\.S\d+\.line\.\d+$/.test(i.name)) as PreparedPath[];
    const drawn = lines.reduce((a, l) => a + (l.d.match(/-?\d+(?:\.\d+)?/g) ?? []).length / 2, 0);
    expect(drawn).toBe(100_000);
  }, 30_000);
});

describe('a chart on a DataFooter', () => {
  it("reads the rows its data band printed (the band's Filter applies), not the whole source", () => {
    const xml = chartXml('<Series Name="S" ChartType="Column"/>');
    const t = report('').replace(
      '<ReportTitleBand Name="T" Width="718.2" Height="300"></ReportTitleBand>',
      `<DataBand Name="D" Width="718.2" Height="10" DataSource="MatrixDemo" Filter="[MatrixDemo.Year] == 2011">` +
        `<DataFooterBand Name="F" Width="718.2" Height="220"><MSChartObject Name="C" Width="400" Height="200" ` +
        `DataSource="MatrixDemo" ChartData="${b64(xml)}"><MSChartSeries GroupBy="XValue" XValue="[MatrixDemo.Name]" ` +
        `YValue1="[MatrixDemo.ItemsSold]"/></MSChartObject></DataFooterBand></DataBand>`,
    );
    const r = runTemplate(t, { datasets: { NorthWind: nwindDataSet() } });
    expect(r.warnings).toEqual([]);
    const expected = new Map<string, number>();
    for (const row of nwindRows('MatrixDemo'))
      if (row.Year === '2011')
        expected.set(row.Name as string, (expected.get(row.Name as string) ?? 0) + Number(row.ItemsSold));
    const names = [...expected.keys()].sort(new Intl.Collator('en-US').compare);
    const all = items(r);
    expect(
      all.filter((i) => /^C\.axis-x\.label\.\d+$/.test(i.name)).map((i) => (i as PreparedText).text.replace('\n', ' ')),
    ).toEqual(names);
    const hs = names.map((_, i) => bar(all, `C.S.${i}`).height);
    const k = (hs[0] as number) / (expected.get(names[0] as string) as number);
    names.forEach((n, i) => {
      expect(Math.abs((hs[i] as number) - (expected.get(n) as number) * k)).toBeLessThanOrEqual(0.5);
    });
  });
});

describe('a chart on a GroupFooter', () => {
  it('reads the rows of the group it closes, one chart per group', () => {
    const xml = chartXml('<Series Name="S" ChartType="Column"/>');
    const t = report('').replace(
      '<ReportTitleBand Name="T" Width="718.2" Height="300"></ReportTitleBand>',
      `<GroupHeaderBand Name="G" Width="718.2" Height="10" Condition="[MatrixDemo.Year]">` +
        `<DataBand Name="D" Width="718.2" Height="10" DataSource="MatrixDemo"/>` +
        `<GroupFooterBand Name="F" Width="718.2" Height="220"><MSChartObject Name="C" Width="400" Height="200" ` +
        `DataSource="MatrixDemo" ChartData="${b64(xml)}"><MSChartSeries GroupBy="XValue" XValue="[MatrixDemo.Name]" ` +
        `YValue1="[MatrixDemo.ItemsSold]"/></MSChartObject></GroupFooterBand></GroupHeaderBand>`,
    );
    const r = runTemplate(t, { datasets: { NorthWind: nwindDataSet() } });
    expect(r.warnings).toEqual([]);
    const byYear = new Map<string, Map<string, number>>();
    for (const row of nwindRows('MatrixDemo')) {
      const m = byYear.get(row.Year as string) ?? new Map<string, number>();
      m.set(row.Name as string, (m.get(row.Name as string) ?? 0) + Number(row.ItemsSold));
      byYear.set(row.Year as string, m);
    }
    const years = [...byYear.keys()].sort();
    // The charts print one after the other: each one's first bar item starts its items.
    const all = items(r);
    const charts: PreparedItem[][] = [];
    for (const i of all) {
      if (i.name === 'C.back') charts.push([]);
      if (i.name.startsWith('C.')) charts[charts.length - 1]?.push(i);
    }
    expect(charts.length).toBe(years.length);
    years.forEach((year, k) => {
      const sums = byYear.get(year) as Map<string, number>;
      const names = [...sums.keys()].sort(new Intl.Collator('en-US').compare);
      const chart = charts[k] as PreparedItem[];
      const labels = chart.filter((i) => /^C\.axis-x\.label\.\d+$/.test(i.name)).map((i) => (i as PreparedText).text);
      expect(
        labels.map((l) => l.replace('\n', ' ')),
        year,
      ).toEqual(names);
      const hs = names.map((_, i) => bar(chart, `C.S.${i}`).height);
      const f = (hs[0] as number) / (sums.get(names[0] as string) as number);
      names.forEach((n, i) => {
        expect(Math.abs((hs[i] as number) - (sums.get(n) as number) * f)).toBeLessThanOrEqual(0.5);
      });
    });
  });
});

describe('axis options', () => {
  it('IsReversed turns the value axis upside down: columns hang from the top', () => {
    const xml = chartXml(
      '<Series Name="S"><Points><DataPoint YValues="3"/><DataPoint YValues="6"/></Points></Series>',
      '<ChartAreas><ChartArea Name="A"><AxisY IsReversed="True"/></ChartArea></ChartAreas>',
    );
    const all = items(run(`<MSChartObject Name="C" Width="400" Height="200" ChartData="${b64(xml)}"/>`));
    const [a, b] = [bar(all, 'C.S.0'), bar(all, 'C.S.1')];
    expect(a.y).toBeCloseTo(b.y, 3);
    expect(b.height).toBeCloseTo(a.height * 2, 1);
    const zero = all.find((i) => i.name === 'C.axis-y.label.0') as PreparedText;
    expect(zero.text).toBe('0');
    expect(zero.y + zero.height / 2).toBeCloseTo(a.y, 0);
  });
});
