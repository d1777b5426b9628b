// The chart demos: the charts of "Microsoft Chart Sample", "Interactive
// Chart" and "Sparkline" bound to nwind.xml, read back from the DRAWN geometry of the prepared
// items and compared with values computed here from nwind.xml independently of the engine
// (sums per name and year, order counts per calendar month).

import { afterEach, describe, expect, it } from 'vitest';
import { AXISLESS_PLOTTERS } from '../../../src/report/chart/axisless-plotters.js';
import type { AxislessPlotter, PlotSeries } from '../../../src/report/chart/plot-types.js';
import type { PreparedItem, PreparedPath, PreparedText } from '../../../src/report/engine/prepared.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { collate, nwindDataSet, nwindRows, runTemplate } from './helpers.js';

const DEMOS = 'Reports/';

const run = (name: string) => runTemplate(demoFile(`${DEMOS}${name}.frx`), { datasets: { NorthWind: nwindDataSet() } });
const itemsOf = (r: ReturnType<typeof run>, page = 0): PreparedItem[] => r.prepared.pages[page]?.items ?? [];
const named = (items: PreparedItem[], re: RegExp): PreparedItem[] => items.filter((i) => re.test(i.name));

/** Sum of a MatrixDemo column per key, from nwind.xml directly. */
function sums(column: string, key: (r: Record<string, string>) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of nwindRows('MatrixDemo')) m.set(key(r), (m.get(key(r)) ?? 0) + Number(r[column]));
  return m;
}

/** Every drawn length is the value times one factor (the axis' px per unit), within 0.5 px. */
function expectProportional(lengths: number[], values: number[]): void {
  expect(lengths.length).toBe(values.length);
  const k = (lengths[0] as number) / (values[0] as number);
  for (const [i, l] of lengths.entries()) expect(Math.abs(l - (values[i] as number) * k)).toBeLessThanOrEqual(0.5);
}

const plotters = AXISLESS_PLOTTERS as Record<string, AxislessPlotter>;
const savedDoughnut = plotters.Doughnut;
afterEach(() => {
  if (savedDoughnut) plotters.Doughnut = savedDoughnut;
  else delete plotters.Doughnut;
});

describe('chart demos on nwind.xml', () => {
  it('Microsoft Chart Sample: revenue bars sorted ascending, lengths proportional to the sums per name', () => {
    const items = itemsOf(run('Microsoft Chart Sample'));
    const revenue = [...sums('Revenue', (r) => r.Name as string)].sort((a, b) => a[1] - b[1]);
    const bars = named(items, /^MSChart2\.Series1\.\d+$/) as PreparedPath[];
    bars.sort((a, b) => Number(a.name.split('.')[2]) - Number(b.name.split('.')[2]));
    expect(bars.length).toBe(revenue.length);
    // Bars grow right from one baseline; the first point is the lowest bar (MS Chart's bar order).
    for (const b of bars) expect(b.x).toBeCloseTo((bars[0] as PreparedPath).x, 3);
    for (let i = 1; i < bars.length; i++)
      expect((bars[i] as PreparedPath).y).toBeLessThan((bars[i - 1] as PreparedPath).y);
    expectProportional(
      bars.map((b) => b.width),
      revenue.map(([, v]) => v),
    );
    // The category axis names them in the same order, the data labels print the values.
    const labels = bars.map(
      (_, i) => (items.find((t) => t.name === `MSChart2.Series1.${i}.label`) as PreparedText).text,
    );
    expect(labels).toEqual(revenue.map(([, v]) => String(v)));
    const axis = named(items, /^MSChart2\.axis-x\.label\.\d+$/).map((t) => (t as PreparedText).text);
    expect(axis).toEqual(revenue.map(([n]) => n));
  });

  it('Microsoft Chart Sample: one column series per year (first appearance), aligned by name', () => {
    const items = itemsOf(run('Microsoft Chart Sample'));
    const rows = nwindRows('MatrixDemo');
    const years = [...new Set(rows.map((r) => r.Year as string))];
    const names = [...new Set(rows.map((r) => r.Name as string))].sort(collate);
    const sold = sums('ItemsSold', (r) => `${r.Year}|${r.Name}`);
    const legend = named(items, /^MSChart3\.legend\.0\.\d+$/).map((t) => (t as PreparedText).text);
    expect(legend).toEqual(years);
    const lengths: number[] = [];
    const values: number[] = [];
    const baseline: number[] = [];
    years.forEach((year, s) => {
      names.forEach((name, i) => {
        const bar = items.find((t) => t.name === `MSChart3.${year}.${i}`) as PreparedPath | undefined;
        const v = sold.get(`${year}|${name}`);
        if (v === undefined) {
          expect(bar, `${year} ${name} has no column`).toBeUndefined();
          return;
        }
        expect(bar, `${year} ${name}`).toBeDefined();
        lengths.push((bar as PreparedPath).height);
        values.push(v);
        baseline.push((bar as PreparedPath).y + (bar as PreparedPath).height);
        // Side by side in series order within the name's category.
        if (s > 0) {
          const prev = years
            .slice(0, s)
            .map((y) => items.find((t) => t.name === `MSChart3.${y}.${i}`) as PreparedPath | undefined)
            .filter((b) => b !== undefined);
          for (const p of prev) expect((bar as PreparedPath).x).toBeGreaterThan(p.x);
        }
      });
    });
    expectProportional(lengths, values);
    for (const b of baseline) expect(b).toBeCloseTo(baseline[0] as number, 3);
  });

  it.each(['Microsoft Chart Sample', 'Interactive Chart'])(
    '%s: the doughnut gets the items sold per name in label order, the biggest exploded',
    (demo) => {
      const seen: PlotSeries[] = [];
      plotters.Doughnut = (_ctx, series) => {
        seen.push(series);
        return [];
      };
      run(demo);
      const sold = [...sums('ItemsSold', (r) => r.Name as string)].sort((a, b) => collate(a[0], b[0]));
      const s = seen[0] as PlotSeries;
      expect(s.points.map((p) => [p.axisLabel, p.ys[0]])).toEqual(sold);
      const max = Math.max(...sold.map(([, v]) => v));
      expect(s.points.filter((p) => p.exploded).map((p) => p.ys[0])).toEqual([max]);
      expect(s.points.map((p) => p.label)).toEqual(sold.map(([n, v]) => `${n}: ${v}`));
    },
  );

  it('Sparkline: per employee, one vertex per month with orders, heights following the counts', () => {
    const r = run('Sparkline');
    const employees = new Map(nwindRows('Employees').map((e) => [`${e.FirstName} ${e.LastName}`, e.EmployeeID]));
    const counts = new Map<string, Map<string, number>>();
    for (const o of nwindRows('Orders')) {
      const month = (o.OrderDate as string).slice(0, 7); // the date part as written
      const m = counts.get(o.EmployeeID as string) ?? new Map<string, number>();
      m.set(month, (m.get(month) ?? 0) + 1);
      counts.set(o.EmployeeID as string, m);
    }
    const all = r.prepared.pages.flatMap((p) => p.items);
    const names = all.filter((i) => i.name === 'Text2') as PreparedText[];
    const lines = named(all, /^Sparkline1\.Series1\.line\.\d+$/) as PreparedPath[];
    expect(names.length).toBe(employees.size);
    expect(lines.length).toBe(names.length);
    names.forEach((t, k) => {
      const id = employees.get(t.text.trim()) as string;
      const months = [...(counts.get(id) ?? new Map<string, number>())].sort((a, b) => a[0].localeCompare(b[0]));
      const line = lines[k] as PreparedPath;
      expect(line.y).toBeGreaterThanOrEqual(t.y - 0.01);
      const nums = (line.d.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
      const xs = nums.filter((_, i) => i % 2 === 0);
      const ys = nums.filter((_, i) => i % 2 === 1);
      expect(ys.length, t.text).toBe(months.length);
      for (let i = 1; i < xs.length; i++) expect(xs[i] as number).toBeGreaterThan(xs[i - 1] as number);
      // Heights above the lowest vertex are proportional to count − min count.
      const values = months.map(([, c]) => c);
      const minV = Math.min(...values);
      const bottom = Math.max(...ys);
      const rise = ys.map((y) => bottom - y);
      const iMax = values.indexOf(Math.max(...values));
      const k2 = (rise[iMax] as number) / ((values[iMax] as number) - minV);
      for (const [i, h] of rise.entries())
        expect(Math.abs(h - ((values[i] as number) - minV) * k2)).toBeLessThanOrEqual(0.5);
    });
  });

  it.each(['Chart', 'Series of Chart', 'Microsoft Chart Sample', 'Interactive Chart', 'Sparkline'])(
    '%s renders with no placeholder and no warning but "drawn flat" and undrawn axisless types',
    (demo) => {
      const { warnings } = run(demo);
      const axisless = /chart type (Pie|Doughnut|Funnel|Pyramid|Radar) is not drawn/;
      expect(
        warnings.filter((w) => !/drawn flat/.test(w) && !axisless.test(w) && !/^font ".*" is not available/.test(w)),
      ).toEqual([]);
      const flat = warnings.filter((w) => /drawn flat/.test(w));
      const threeD = (
        demoFile(`${DEMOS}${demo}.frx`)
          .toString('utf8')
          .match(/ChartData="[^"]*"/g) ?? []
      ).filter((m) => Buffer.from(m.slice(11, -1), 'base64').toString('utf8').includes('Enable3D="True"'));
      expect(flat.length).toBe(threeD.length);
    },
  );
});
