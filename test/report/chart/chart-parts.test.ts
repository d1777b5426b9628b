// The chart library's parts with a definition to check against: MS Chart's auto interval and axis
// rounding (AxisScale.CalcInterval/RoundedValues), label keywords, CustomProperties escapes, the
// ChartData decoding and its limits.

import { describe, expect, it } from 'vitest';
import { niceInterval, scaleTicks, valueScale } from '../../../src/report/chart/axis-scale.js';
import {
  CHART_LIMITS,
  ChartDataError,
  parseChartData,
  parseCustomProperties,
  readSeries,
} from '../../../src/report/chart/chart-xml.js';
import { drawChart } from '../../../src/report/chart/draw-chart.js';
import { dateTicks } from '../../../src/report/chart/date-axis.js';
import { fromOADate, newPoint, toOADate } from '../../../src/report/chart/finish-data.js';
import type { PathShape } from '../../../src/report/chart/plot-types.js';
import { expandKeywords, pointLabel } from '../../../src/report/chart/labels.js';
import { PALETTES, paletteColors } from '../../../src/report/chart/palettes.js';
import { Formatter } from '../../../src/report/format/index.js';

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const fmt = (v: number | Date, f: string): string =>
  Formatter.format(v, f, typeof v === 'number' ? 'System.Double' : undefined);

describe('axis scale', () => {
  it('picks 2, 5 or 10 × a power of ten near a fifth of the range', () => {
    // diff / 10^k in (1, 10]: < 3 → 2, < 7 → 5, else 10.
    expect(niceInterval(2.4)).toBe(2);
    expect(niceInterval(12099 / 5)).toBe(2000);
    expect(niceInterval(0.6)).toBe(0.5);
    expect(niceInterval(8)).toBe(10);
    expect(niceInterval(10)).toBe(10);
    expect(niceInterval(1)).toBe(1);
  });

  it('starts at zero and rounds the maximum one interval past the largest value', () => {
    expect(valueScale(7800, 12099, { startFromZero: true })).toEqual({ min: 0, max: 14000, interval: 2000 });
    expect(valueScale(3, 12, { startFromZero: true })).toEqual({ min: 0, max: 14, interval: 2 });
    // Below zero the minimum is rounded down one interval too.
    expect(valueScale(-3, 7, { startFromZero: true })).toEqual({ min: -4, max: 8, interval: 2 });
    expect(scaleTicks({ min: 0, max: 1, interval: 0.2 })).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
});

describe('label keywords', () => {
  const series = readSeries(undefined);
  series.name = 'S';
  series.points = [newPoint(0, [8, 2], 'Andrew'), newPoint(0, [12, 3], 'Nancy')];

  it('expand #VALX, #VALY, #VALY2, formats in braces, #PERCENT, #SERIESNAME, #TOTAL', () => {
    expect(expandKeywords('#VALX: #VALY', series, 1, fmt)).toBe('Nancy: 12');
    expect(expandKeywords('#VALY{C}', series, 0, fmt)).toBe(fmt(8, 'C'));
    expect(expandKeywords('#VALY2 #SERIESNAME #SER #INDEX', series, 1, fmt)).toBe('3 S S 1');
    expect(expandKeywords('#PERCENT', series, 0, fmt)).toBe(fmt(8 / 20, 'P'));
    expect(expandKeywords('#TOTAL #MAX #MIN #AVG', series, 0, fmt)).toBe('20 12 8 10');
    expect(expandKeywords('#LEGENDTEXT', series, 0, fmt)).toBe('S');
  });

  it('a point shows its label, else the series label, else #VALY when IsValueShownAsLabel', () => {
    expect(pointLabel(series, 0, fmt)).toBe('');
    series.isValueShownAsLabel = true;
    expect(pointLabel(series, 0, fmt)).toBe('8');
    series.label = '#VALX';
    expect(pointLabel(series, 0, fmt)).toBe('Andrew');
    (series.points[0] as { label: string }).label = 'own';
    expect(pointLabel(series, 0, fmt)).toBe('own');
  });
});

describe('ChartData', () => {
  it('reads CustomProperties with \\, escapes', () => {
    expect(parseCustomProperties('PriceUpColor=255\\, 255\\, 0, DrawingStyle=Cylinder')).toEqual({
      PriceUpColor: '255, 255, 0',
      DrawingStyle: 'Cylinder',
    });
  });

  it('decodes series, points and defaults (BrightPastel, legend right, title top)', () => {
    const chart = parseChartData(
      b64(
        '<Chart Palette="Fire"><Series><Series Name="A" ChartType="Bar" YValuesPerPoint="2"><Points>' +
          '<DataPoint XValue="2" YValues="4,1" AxisLabel="q" IsEmpty="True"/></Points></Series></Series>' +
          '<Legends><Legend Name="L"/></Legends><Titles><Title Text="T"/></Titles></Chart>',
      ),
    );
    expect(chart.series[0]).toMatchObject({ name: 'A', chartType: 'Bar', yValuesPerPoint: 2 });
    expect(chart.series[0]?.points[0]).toMatchObject({ x: 2, ys: [4, 1], axisLabel: 'q', empty: true });
    expect(chart.palette).toBe(PALETTES.Fire);
    expect(chart.legends[0]).toMatchObject({ enabled: true, docking: 'Right', alignment: 'Near' });
    expect(chart.titles[0]).toMatchObject({ text: 'T', visible: true, docking: 'Top' });
    expect(chart.areas.length).toBe(1);
    expect(paletteColors('None')[0]).toEqual({ r: 65, g: 140, b: 240, a: 255 });
  });

  it('refuses what is not chart XML, and more points or series than the limits', () => {
    expect(() => parseChartData('not base64!')).toThrow(ChartDataError);
    expect(() => parseChartData(b64('<Chart><Series>'))).toThrow(ChartDataError);
    expect(() => parseChartData(b64('<!DOCTYPE x><Chart/>'))).toThrow(ChartDataError);
    expect(() => parseChartData(b64('<Other/>'))).toThrow(/not <Chart>/);
    const points = '<DataPoint YValues="1"/>'.repeat(CHART_LIMITS.maxPoints + 1);
    expect(() =>
      parseChartData(b64(`<Chart><Series><Series><Points>${points}</Points></Series></Series></Chart>`)),
    ).toThrow(/more than 100000 points/);
    const series = '<Series/>'.repeat(CHART_LIMITS.maxSeries + 1);
    expect(() => parseChartData(b64(`<Chart><Series>${series}</Series></Chart>`))).toThrow(/more than 256 series/);
  });
});

describe('long series', () => {
  it('draw a line of many points in pieces of at most 4000 points that join end to end', () => {
    const n = 10_001;
    const points = Array.from({ length: n }, (_, i) => `<DataPoint YValues="${i % 7}"/>`).join('');
    const chart = parseChartData(
      b64(`<Chart><Series><Series Name="L" ChartType="FastLine"><Points>${points}</Points></Series></Series></Chart>`),
    );
    const { shapes } = drawChart(chart, 400, 200, {
      measure: (t) => ({ width: t.length * 5, height: 10 }),
      format: (v) => String(v),
      plotters: {},
    });
    const pieces = shapes.filter((s) => s.tag?.startsWith('L/line/')) as PathShape[];
    const vertices = pieces.map((p) => (p.d.match(/-?\d+(?:\.\d+)?/g) ?? []).length / 2);
    expect(Math.max(...vertices)).toBeLessThanOrEqual(4000);
    // Every point is drawn, each joint once more.
    expect(vertices.reduce((a, b) => a + b, 0)).toBe(n + pieces.length - 1);
    for (let i = 1; i < pieces.length; i++) {
      const end = (pieces[i - 1] as PathShape).d.match(/(-?[\d.]+) (-?[\d.]+)$/)?.slice(1);
      const start = (pieces[i] as PathShape).d.match(/^M(-?[\d.]+) (-?[\d.]+)/)?.slice(1);
      expect(start).toEqual(end);
    }
  });
});

describe('date axis', () => {
  const oa = (y: number, m: number, d: number): number => toOADate(new Date(Date.UTC(y, m - 1, d)));
  const iso = (v: number): string => fromOADate(v).toISOString().slice(0, 10);

  it('labels whole months (every second one over eleven months), whole years over three years', () => {
    const months = dateTicks(oa(2020, 1, 15), oa(2020, 12, 10));
    expect(months.ticks.map(iso)).toEqual([
      '2020-02-01',
      '2020-04-01',
      '2020-06-01',
      '2020-08-01',
      '2020-10-01',
      '2020-12-01',
    ]);
    expect(months.format).toBe('d');
    const years = dateTicks(oa(2013, 8, 4), oa(2016, 8, 20));
    expect(years.ticks.map(iso)).toEqual(['2014-01-01', '2015-01-01', '2016-01-01']);
    expect(years.format).toBe('yyyy');
    expect(dateTicks(oa(2020, 1, 1), oa(2020, 1, 10)).ticks.map(iso)).toEqual([
      '2020-01-01',
      '2020-01-03',
      '2020-01-05',
      '2020-01-07',
      '2020-01-09',
    ]);
  });
});
