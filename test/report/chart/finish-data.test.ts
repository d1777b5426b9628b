// FinishData (FastReport's MSChartSeries over MS Chart's DataManipulator) and AlignXValues: each
// expected value follows from the definitions (sums, counts, sort orders) on small inputs.

import { describe, expect, it } from 'vitest';
import type { ChartSeriesBindingModel } from '../../../src/report/frx/model.js';
import {
  alignXValues,
  finishData,
  fromOADate,
  groupByInterval,
  newPoint,
  toOADate,
  type FinishSettings,
} from '../../../src/report/chart/finish-data.js';
import type { ChartPoint } from '../../../src/report/chart/model.js';

const cmp = new Intl.Collator('en-US').compare;
const NONE: FinishSettings = {
  sortBy: 'None',
  sortOrder: 'Ascending',
  groupBy: 'None',
  groupInterval: 1,
  groupFunction: 'Sum',
  collect: 'None',
  collectValue: 0,
  collectedItemText: '',
  collectedItemColor: { r: 255, g: 255, b: 255, a: 0 },
  pieExplode: 'None',
  pieExplodeValue: '',
};
const labelled = (pairs: [string, number][]): ChartPoint[] => pairs.map(([l, v]) => newPoint(0, [v], l));
const view = (pts: ChartPoint[]) => pts.map((p) => [p.axisLabel, p.ys[0]]);
const settings = (s: Partial<ChartSeriesBindingModel>): FinishSettings => ({ ...NONE, ...s });

describe('FinishData', () => {
  const data = labelled([
    ['b', 2],
    ['a', 5],
    ['c', 1],
    ['a', 3],
    ['b', 4],
  ]);

  it('GroupBy XValue sorts by label and merges equal labels with the group function', () => {
    expect(view(finishData(data, settings({ groupBy: 'XValue' }), cmp))).toEqual([
      ['a', 8],
      ['b', 6],
      ['c', 1],
    ]);
    expect(view(finishData(data, settings({ groupBy: 'XValue', groupFunction: 'Count' }), cmp))).toEqual([
      ['a', 2],
      ['b', 2],
      ['c', 1],
    ]);
    expect(view(finishData(data, settings({ groupBy: 'XValue', groupFunction: 'Avg' }), cmp))).toEqual([
      ['a', 4],
      ['b', 3],
      ['c', 1],
    ]);
    expect(view(finishData(data, settings({ groupBy: 'XValue', groupFunction: 'Max' }), cmp))[0]).toEqual(['a', 5]);
    expect(view(finishData(data, settings({ groupBy: 'XValue', groupFunction: 'Min' }), cmp))[0]).toEqual(['a', 3]);
  });

  it('sorts by Y (stable) and by X in either order', () => {
    expect(view(finishData(data, settings({ sortBy: 'YValue' }), cmp)).map(([, v]) => v)).toEqual([1, 2, 3, 4, 5]);
    expect(view(finishData(data, settings({ sortBy: 'YValue', sortOrder: 'Descending' }), cmp))[0]).toEqual(['a', 5]);
    const xs = [3, 1, 2].map((x) => newPoint(x, [x * 10]));
    expect(finishData(xs, settings({ sortBy: 'XValue' }), cmp).map((p) => p.x)).toEqual([1, 2, 3]);
  });

  it('TopN forces a descending Y sort and sums the rest into the CollectedItemText point', () => {
    const out = finishData(
      data,
      settings({ groupBy: 'XValue', collect: 'TopN', collectValue: 2, collectedItemText: 'Other' }),
      cmp,
    );
    expect(view(out)).toEqual([
      ['a', 8],
      ['b', 6],
      ['Other', 1],
    ]);
    // Without a text the collected points are only removed.
    expect(view(finishData(data, settings({ groupBy: 'XValue', collect: 'BottomN', collectValue: 1 }), cmp))).toEqual([
      ['c', 1],
    ]);
  });

  it('LessThan / GreaterThan(Percent) drop what they match', () => {
    const total = 15;
    const pct = (v: number): number => (v / total) * 100;
    const less = finishData(data, settings({ collect: 'LessThan', collectValue: 3, collectedItemText: 'Rest' }), cmp);
    expect(view(less)).toEqual([
      ['a', 5],
      ['a', 3],
      ['b', 4],
      ['Rest', 3],
    ]);
    const cut = 20; // percent
    const kept = data.filter((p) => pct(p.ys[0] as number) <= cut).map((p) => p.ys[0]);
    expect(
      finishData(data, settings({ collect: 'GreaterThanPercent', collectValue: cut }), cmp).map((p) => p.ys[0]),
    ).toEqual(kept);
    const red = { r: 255, g: 0, b: 0, a: 255 };
    const other = finishData(
      data,
      settings({ collect: 'GreaterThan', collectValue: 3, collectedItemText: 'Big', collectedItemColor: red }),
      cmp,
    ).at(-1);
    expect(other).toMatchObject({ axisLabel: 'Big', ys: [9], color: red });
  });

  it('PieExplode marks the biggest, the lowest or the named point', () => {
    const big = finishData(data, settings({ groupBy: 'XValue', pieExplode: 'BiggestValue' }), cmp);
    expect(big.filter((p) => p.custom.Exploded === 'true').map((p) => p.axisLabel)).toEqual(['a']);
    const low = finishData(data, settings({ groupBy: 'XValue', pieExplode: 'LowestValue' }), cmp);
    expect(low.filter((p) => p.custom.Exploded === 'true').map((p) => p.axisLabel)).toEqual(['c']);
    const named = finishData(
      data,
      { ...settings({ groupBy: 'XValue', pieExplode: 'SpecificValue' }), pieExplodeValue: 'b' },
      cmp,
    );
    expect(named.filter((p) => p.custom.Exploded === 'true').map((p) => p.axisLabel)).toEqual(['b']);
  });

  it('groups dates by calendar month after the X sort, one point per non-empty month at its first day', () => {
    const day = (y: number, m: number, d: number): number => toOADate(new Date(Date.UTC(y, m - 1, d)));
    const pts = [day(2020, 3, 5), day(2020, 1, 31), day(2020, 1, 2), day(2020, 3, 1), day(2021, 1, 9)].map((x) =>
      newPoint(x, [1]),
    );
    const out = finishData(pts, settings({ sortBy: 'XValue', groupBy: 'Months', groupFunction: 'Count' }), cmp);
    expect(out.map((p) => [fromOADate(p.x).toISOString().slice(0, 10), p.ys[0]])).toEqual([
      ['2020-01-01', 2],
      ['2020-03-01', 2],
      ['2021-01-01', 1],
    ]);
    // Two-month intervals start at the first point's month.
    const two = groupByInterval(finishData(pts, settings({ sortBy: 'XValue' }), cmp), 'Months', 2, 'Count');
    expect(two.map((p) => [fromOADate(p.x).toISOString().slice(0, 7), p.ys[0]])).toEqual([
      ['2020-01', 2],
      ['2020-03', 2],
      ['2021-01', 1],
    ]);
    // Numbers: intervals of GroupInterval from the first X: [1, 4), [4, 7), [7, 10).
    const nums = [1, 2, 4, 7, 8].map((x) => newPoint(x, [x]));
    expect(groupByInterval(nums, 'Number', 3, 'Sum').map((p) => [p.x, p.ys[0]])).toEqual([
      [1, 3],
      [4, 4],
      [7, 15],
    ]);
  });

  it('OADate is days since 1899-12-30', () => {
    expect(toOADate(new Date(Date.UTC(1900, 0, 1)))).toBe(2);
    expect(toOADate(new Date(Date.UTC(2000, 0, 1, 12)))).toBe(36526.5);
  });
});

describe('AlignXValues', () => {
  it('gives every series every label in order of first appearance, empty points where missing', () => {
    const a = labelled([
      ['x', 1],
      ['y', 2],
    ]);
    const b = labelled([
      ['z', 3],
      ['x', 4],
    ]);
    const [ra, rb] = alignXValues([a, b]);
    expect(ra?.map((p) => [p.axisLabel, p.x, p.empty])).toEqual([
      ['x', 1, false],
      ['y', 2, false],
      ['z', 3, true],
    ]);
    expect(rb?.map((p) => [p.axisLabel, p.x, p.empty, p.ys[0]])).toEqual([
      ['x', 1, false, 4],
      ['y', 2, true, 0],
      ['z', 3, false, 3],
    ]);
  });
});
