// FastReport's AdvMatrix demos on MatrixDemo, from test/fixtures/fastreport: each
// printed cell equals an independent computation from nwind.xml's MatrixDemo rows (sums per
// group, sort by total, stepped subtotals, two data cells, the comparison columns, the script's
// aggregate), in the order the descriptors give; the collapse and sort buttons print as glyphs.

import { describe, expect, it } from 'vitest';
import { nwindRows, toCents, usd } from './helpers.js';
import { cellNames, type DemoRow, matrixGrid, runDemo, sumBy, uniqueSorted } from './adv-matrix-helpers.js';

const ROWS: DemoRow[] = nwindRows('MatrixDemo').map((r) => ({
  name: r.Name as string,
  year: Number(r.Year),
  month: Number(r.Month),
  cents: toCents(r.Revenue as string),
}));
const NAMES = uniqueSorted(ROWS.map((r) => r.name));
const YEARS = uniqueSorted(
  ROWS.map((r) => r.year),
  (a, b) => a - b,
);
const TOTAL = ROWS.reduce((s, r) => s + r.cents, 0n);
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October'];
MONTHS.push('November', 'December');

/** A sum as the Currency cells show it ('' for no value). */
const money = (c: bigint | undefined): string => (c === undefined ? '' : usd(c));
const byNameYear = sumBy(ROWS, (r) => `${r.name}|${r.year}`);
const byName = sumBy(ROWS, (r) => r.name);
const byYear = sumBy(ROWS, (r) => r.year);

function grid(demo: string, matrix = 'Matrix1') {
  const run = runDemo(demo);
  return { ...run, grid: matrixGrid(run.prepared, cellNames(run.objects, matrix)).texts };
}

describe('AdvMatrix demos on MatrixDemo', () => {
  it('Sort Year by total: the years by their total revenue, descending; names ascending; totals', () => {
    const { grid: g, warnings } = grid('AdvMatrix - Sort Year by total');
    expect(warnings).toEqual([]);
    const years = [...YEARS].sort((a, b) => Number((byYear.get(b) ?? 0n) - (byYear.get(a) ?? 0n)));
    expect(g[0]).toEqual(['Employee', ...years.map(String), 'Total']);
    NAMES.forEach((name, i) => {
      expect(g[i + 1]).toEqual([
        name,
        ...years.map((y) => money(byNameYear.get(`${name}|${y}`))),
        money(byName.get(name)),
      ]);
    });
    expect(g[NAMES.length + 1]).toEqual(['Total', ...years.map((y) => money(byYear.get(y))), money(TOTAL)]);
    expect(g).toHaveLength(NAMES.length + 2);
  });

  it('User function: the script’s _Sum(List<dynamic>) of each cell’s values (an empty list sums to 0)', () => {
    const { grid: g, warnings } = grid('AdvMatrix - User function');
    expect(warnings).toEqual([]);
    expect(g[0]).toEqual(['Employee', ...YEARS.map(String), 'Total']);
    NAMES.forEach((name, i) => {
      expect(g[i + 1]).toEqual([
        name,
        ...YEARS.map((y) => usd(byNameYear.get(`${name}|${y}`) ?? 0n)),
        usd(byName.get(name) ?? 0n),
      ]);
    });
    expect(g[NAMES.length + 1]).toEqual(['Total', ...YEARS.map((y) => usd(byYear.get(y) ?? 0n)), usd(TOTAL)]);
  });

  it('Collapse + Sort: years › (months, Total) by names, printed expanded; buttons as glyphs', () => {
    const { grid: g, prepared, warnings } = grid('AdvMatrix - Collapse + Sort');
    expect(warnings).toEqual([]);
    expect(g[0]).toEqual(['Year', 'Month', ...NAMES, 'Total']);
    const expected: (string | null)[][] = [];
    const byYm = sumBy(ROWS, (r) => `${r.name}|${r.year}|${r.month}`);
    const byYmTotal = sumBy(ROWS, (r) => `${r.year}|${r.month}`);
    for (const y of YEARS) {
      const months = uniqueSorted(
        ROWS.filter((r) => r.year === y).map((r) => r.month),
        (a, b) => a - b,
      );
      months.forEach((m, i) => {
        expected.push([
          i === 0 ? String(y) : null,
          String(m),
          ...NAMES.map((n) => money(byYm.get(`${n}|${y}|${m}`))),
          money(byYmTotal.get(`${y}|${m}`)),
        ]);
      });
      expected.push([null, 'Total', ...NAMES.map((n) => money(byNameYear.get(`${n}|${y}`))), money(byYear.get(y))]);
    }
    expected.push(['Total', null, ...NAMES.map((n) => money(byName.get(n))), money(TOTAL)]);
    expect(g.slice(1)).toEqual(expected);
    // Every collapse button a boxed minus (expanded), every sort button an arrow: one glyph per
    // printed button (CollapseButton2 on each year, SortButton1 on each name, …).
    const paths = prepared.pages.flatMap((p) => p.items.filter((i) => i.kind === 'path').map((i) => i.name));
    const count = (n: string): number => paths.filter((p) => p === n).length;
    expect(count('CollapseButton2.Frame')).toBe(YEARS.length);
    expect(count('CollapseButton2.Minus')).toBe(YEARS.length);
    expect(count('SortButton1.Arrow')).toBe(NAMES.length);
    expect(count('MatrixSortButton3.Arrow')).toBe(expected.length - YEARS.length - 1);
    expect(count('CollapseButton1.Minus') + count('CollapseButton3.Minus')).toBe(2);
  });

  it('Stepped layout: each year on a row of its own (its subtotals), its months below it by name', () => {
    const { grid: g, warnings } = grid('AdvMatrix - Stepped layout', 'AdvMatrix1');
    expect(warnings).toEqual([]);
    expect(g[0]).toEqual(['Year/Month', ...NAMES, 'Total']);
    const byYm = sumBy(ROWS, (r) => `${r.name}|${r.year}|${r.month}`);
    const byYmTotal = sumBy(ROWS, (r) => `${r.year}|${r.month}`);
    const expected: string[][] = [];
    for (const y of YEARS) {
      expected.push([String(y), ...NAMES.map((n) => money(byNameYear.get(`${n}|${y}`))), money(byYear.get(y))]);
      const months = uniqueSorted(
        ROWS.filter((r) => r.year === y).map((r) => r.month),
        (a, b) => a - b,
      );
      for (const m of months)
        expected.push([
          MONTHS[m - 1] as string,
          ...NAMES.map((n) => money(byYm.get(`${n}|${y}|${m}`))),
          money(byYmTotal.get(`${y}|${m}`)),
        ]);
    }
    expected.push(['Total', ...NAMES.map((n) => money(byName.get(n))), money(TOTAL)]);
    expect(g.slice(1)).toEqual(expected);
  });

  it('Two data cells: a Sum row and a Count row under each year and under Total', () => {
    const { grid: g, warnings } = grid('AdvMatrix - Two data cells');
    expect(warnings).toEqual([]);
    expect(g[0]).toEqual(['Year', null, ...NAMES, 'Total']);
    const countBy = (f: (r: DemoRow) => boolean): string => {
      const n = ROWS.filter(f).length;
      return n === 0 ? '' : String(n);
    };
    const expected: (string | null)[][] = [];
    for (const y of YEARS) {
      expected.push([String(y), 'Sum', ...NAMES.map((n) => money(byNameYear.get(`${n}|${y}`))), money(byYear.get(y))]);
      expected.push([
        null,
        'Count',
        ...NAMES.map((n) => countBy((r) => r.name === n && r.year === y)),
        countBy((r) => r.year === y),
      ]);
    }
    expected.push(['Total', 'Sum', ...NAMES.map((n) => money(byName.get(n))), money(TOTAL)]);
    expected.push([null, 'Count', ...NAMES.map((n) => countBy((r) => r.name === n)), String(ROWS.length)]);
    expect(g.slice(1)).toEqual(expected);
  });

  describe('Items comparison: computed columns beside the Year group', () => {
    const run = runDemo('AdvMatrix - Items comparison');
    const read = (m: string) => matrixGrid(run.prepared, cellNames(run.objects, m)).texts;
    /** A sum as the General format shows it (the revenues are whole numbers). */
    const plain = (c: bigint | undefined): string => (c === undefined ? '' : String(c / 100n));
    const percent = (a: bigint | undefined, b: bigint | undefined): string =>
      a === undefined || b === undefined ? '' : `${((Number(a) / Number(b)) * 100).toFixed(2)}%`;
    const change = (a: bigint | undefined, b: bigint | undefined): string =>
      a === undefined || b === undefined ? '' : String((a - b) / 100n);
    /** Per row (each name, then Total): the year sums and the two computed cells of `later` to `earlier`. */
    function expected(years: number[], later: number, earlier: number, captions: string[]): (string | null)[][] {
      const line = (label: string, sum: (y: number) => bigint | undefined) => [
        label,
        ...years.map((y) => plain(sum(y))),
        change(sum(later), sum(earlier)),
        percent(sum(later), sum(earlier)),
      ];
      return [
        ['', ...years.map(String), ...captions],
        ...NAMES.map((n) => line(n, (y) => byNameYear.get(`${n}|${y}`))),
        line('Total', (y) => byYear.get(y)),
      ];
    }

    it('runs without a warning', () => {
      expect(run.warnings).toEqual([]);
    });

    it('FirstColumn/NextColumn: the second year against the first', () => {
      const want = expected(YEARS, YEARS[1] as number, YEARS[0] as number, [
        'Second to first change',
        'Second to first %',
      ]);
      expect(read('Matrix1')).toEqual(want);
    });

    it('LastColumn/PreviousColumn with the years descending: the last year against the one before it', () => {
      const desc = [...YEARS].reverse();
      const want = expected(desc, desc[desc.length - 1] as number, desc[desc.length - 2] as number, [
        'Last to prev. change',
        'Last to prev. %',
      ]);
      expect(read('Matrix2')).toEqual(want);
    });

    it('SpecificColumn: 2012 against 2011', () => {
      expect(read('Matrix3')).toEqual(expected(YEARS, 2012, 2011, ['2012 to 2011 change', '2012 to 2011 %']));
    });
  });
});
