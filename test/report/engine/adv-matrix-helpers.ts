// Reading an AdvMatrix back from the prepared pages: its cells (the text items named after its
// template cells) placed on a grid by their left and top edges, a spanning cell at its first
// row and column, a covered place null.

import type { PreparedReport, PreparedText } from '../../../src/report/engine/index.js';
import { loadFrx } from '../../../src/report/frx/index.js';
import type { ReportObjectModel } from '../../../src/report/frx/model.js';
import { allBands } from '../../../src/report/frx/load.js';
import { demoReport } from '../../support/fastreport-demos.js';
import { nwindDataSet, runTemplate } from './helpers.js';

export function runDemo(name: string) {
  const xml = demoReport(`${name}.frx`).toString('utf8');
  const { report } = loadFrx(xml);
  const run = runTemplate(xml, { datasets: { NorthWind: nwindDataSet() } });
  const objects: ReportObjectModel[] = report.pages.flatMap((p) => allBands(p).flatMap((b) => b.objects));
  return { ...run, xml, objects };
}

/** The template cell names of the matrix called `name`. */
export function cellNames(objects: readonly ReportObjectModel[], name: string): Set<string> {
  const m = objects.find((o) => o.name === name);
  if (m?.type !== 'AdvMatrixObject') throw new Error(`no AdvMatrixObject ${name}`);
  return new Set(m.cells.flat().map((c) => c.name));
}

export interface Grid {
  /** Texts by printed row and column (null: covered by a spanning cell). */
  texts: (string | null)[][];
  items: (PreparedText | null)[][];
}

const key = (v: number): number => Math.round(v * 100) / 100;

/** The printed cells of a matrix (all pages' items, which these one-page demos have). */
export function matrixGrid(prepared: PreparedReport, names: ReadonlySet<string>): Grid {
  const cells = prepared.pages.flatMap((p) =>
    p.items.flatMap((i) => (i.kind === 'text' && names.has(i.name) ? [i] : [])),
  );
  const xs = [...new Set(cells.map((c) => key(c.x)))].sort((a, b) => a - b);
  const ys = [...new Set(cells.map((c) => key(c.y)))].sort((a, b) => a - b);
  const items: (PreparedText | null)[][] = ys.map(() => xs.map(() => null));
  for (const c of cells) {
    const row = items[ys.indexOf(key(c.y))] as (PreparedText | null)[];
    row[xs.indexOf(key(c.x))] = c;
  }
  return { items, texts: items.map((r) => r.map((c) => (c ? c.text : null))) };
}

/** MatrixDemo: name, year, month, revenue in cents. */
export interface DemoRow {
  name: string;
  year: number;
  month: number;
  cents: bigint;
}

/** Sums in cents by a key, with the order of the keys. */
export function sumBy<K>(rows: readonly DemoRow[], key: (r: DemoRow) => K): Map<K, bigint> {
  const out = new Map<K, bigint>();
  for (const r of rows) out.set(key(r), (out.get(key(r)) ?? 0n) + r.cents);
  return out;
}

export const uniqueSorted = <T>(xs: readonly T[], cmp?: (a: T, b: T) => number): T[] => [...new Set(xs)].sort(cmp);
