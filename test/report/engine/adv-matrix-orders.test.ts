// FastReport's AdvMatrix demos on Order Details: "Order details" (= "Advanced
// Matrix.frx": adjacent column groups, TopN 5 + Total/Others/OthersTotal, SortByTotal, a stepped
// category › product row tree) and "Sparkline, Gauge" (PercentOfColumnTotal, ValuesList, a
// Total row spanning two data lines). Every printed cell equals a sum computed here from
// nwind.xml's Order Details, Orders, Employees, Customers, Products and Categories; the objects in
// a data cell see the cell's value and values (EngineContext.cellData) while they get their data.

import { afterEach, describe, expect, it } from 'vitest';
import type { EngineContext } from '../../../src/report/engine/context.js';
import { OBJECT_TYPES } from '../../../src/report/engine/object-types.js';
import type { ObjectType } from '../../../src/report/engine/object-type.js';
import type { ReportObjectModel } from '../../../src/report/frx/model.js';
import { nwindRows } from './helpers.js';
import { cellNames, matrixGrid, runDemo } from './adv-matrix-helpers.js';

/** One Order Details row: its price Quantity × UnitPrice × (1 − Discount) in millionths. */
interface Line {
  employee: string;
  customer: string;
  category: string;
  product: string;
  micro: bigint;
}

function lines(): Line[] {
  const byId = (table: string, id: string) => new Map(nwindRows(table).map((r) => [r[id] as string, r]));
  const orders = byId('Orders', 'OrderID');
  const employees = byId('Employees', 'EmployeeID');
  const customers = byId('Customers', 'CustomerID');
  const products = byId('Products', 'ProductID');
  const categories = byId('Categories', 'CategoryID');
  return nwindRows('Order_x0020_Details').map((d) => {
    const o = orders.get(d.OrderID as string) ?? {};
    const e = employees.get(o.EmployeeID as string) ?? {};
    const p = products.get(d.ProductID as string) ?? {};
    const [whole, frac = ''] = (d.UnitPrice as string).split('.');
    const price4 = BigInt(whole as string) * 10000n + BigInt((frac + '0000').slice(0, 4));
    const discountPercent = BigInt(Math.round(Number(d.Discount ?? '0') * 100));
    return {
      employee: `${e.FirstName} ${e.LastName}`,
      customer: customers.get(o.CustomerID as string)?.CompanyName as string,
      category: categories.get(p.CategoryID as string)?.CategoryName as string,
      product: p.ProductName as string,
      micro: BigInt(d.Quantity as string) * price4 * (100n - discountPercent),
    };
  });
}

const LINES = lines();
const collator = new Intl.Collator('en-US');

/** The demos' Currency format: "$", a no-break space (U+00A0, as the file says) between thousands, a
 *  decimal comma. */
function money(micro: bigint | undefined): string {
  if (micro === undefined) return '';
  const cents = (micro + 5000n) / 10000n;
  const whole = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  return `$${whole},${(cents % 100n).toString().padStart(2, '0')}`;
}

const sum = (ls: readonly Line[]): bigint | undefined =>
  ls.length === 0 ? undefined : ls.reduce((s, l) => s + l.micro, 0n);

/** The keys of `key` ordered by their lines' total (ascending unless `descending`). */
function byTotal(ls: readonly Line[], key: (l: Line) => string, descending = false): string[] {
  const totals = new Map<string, bigint>();
  for (const l of ls) totals.set(key(l), (totals.get(key(l)) ?? 0n) + l.micro);
  const sign = descending ? -1 : 1;
  return [...totals.keys()].sort((a, b) => sign * Number((totals.get(a) ?? 0n) - (totals.get(b) ?? 0n)));
}

/** Categories ascending, each with its products ascending. */
function categoryTree(): { category: string; products: string[] }[] {
  const cats = [...new Set(LINES.map((l) => l.category))].sort(collator.compare);
  return cats.map((category) => ({
    category,
    products: [...new Set(LINES.filter((l) => l.category === category).map((l) => l.product))].sort(collator.compare),
  }));
}

describe('AdvMatrix demos on Order Details', () => {
  it.each(['AdvMatrix - Order details', 'Advanced Matrix'])(
    '%s: employees by total, the top 5 customers + Total + the other customers + their total, categories › products',
    (demo) => {
      const run = runDemo(demo);
      expect(run.warnings).toEqual([]);
      const g = matrixGrid(run.prepared, cellNames(run.objects, 'AdvMatrix1')).texts;
      const employees = byTotal(LINES, (l) => l.employee);
      const customers = byTotal(LINES, (l) => l.customer, true);
      const top = customers.slice(0, 5);
      const others = customers.slice(5);
      type Column = (l: Line) => boolean;
      const columns: Column[] = [
        ...employees.map(
          (e): Column =>
            (l) =>
              l.employee === e,
        ),
        ...top.map(
          (c): Column =>
            (l) =>
              l.customer === c,
        ),
        (l) => top.includes(l.customer),
        ...others.map(
          (c): Column =>
            (l) =>
              l.customer === c,
        ),
        (l) => !top.includes(l.customer),
        () => true,
      ];
      const width = 1 + columns.length;
      const header0: (string | null)[] = new Array(width).fill(null);
      header0[0] = '';
      header0[1] = 'Employees';
      header0[1 + employees.length] = 'Top 5 customers';
      header0[width - 1] = 'Total';
      expect(g[0]).toEqual(header0);
      expect(g[1]).toEqual([null, ...employees, ...top, 'Total', ...others, `Others (${others.length})`, null]);
      const row = (label: string, ls: readonly Line[]) => [label, ...columns.map((c) => money(sum(ls.filter(c))))];
      const expected: string[][] = [];
      for (const { category, products } of categoryTree()) {
        const inCategory = LINES.filter((l) => l.category === category);
        expected.push(row(`${category} (${products.length})`, inCategory));
        products.forEach((p, i) => {
          expected.push(
            row(
              `${i + 1}. ${p}`,
              inCategory.filter((l) => l.product === p),
            ),
          );
        });
      }
      expected.push(row('Total', LINES));
      expect(g.slice(2)).toEqual(expected);
    },
  );

  describe('Sparkline, Gauge', () => {
    const seen: { name: string; value: unknown; values: readonly unknown[] }[] = [];
    const restore: (() => void)[] = [];
    afterEach(() => {
      for (const r of restore.splice(0)) r();
    });

    /** Records what the objects of the given model type see while they get their data. */
    function spyOn(type: ReportObjectModel['type']): void {
      const t = OBJECT_TYPES[type] as ObjectType<ReportObjectModel>;
      const own = t.getData;
      t.getData = (e: EngineContext, o, rt) => {
        if (e.cellData) seen.push({ name: o.name, value: e.cellData.value, values: e.cellData.values });
        else seen.push({ name: o.name, value: undefined, values: [] });
        own?.(e, o, rt);
      };
      restore.push(() => {
        t.getData = own;
      });
    }

    it('prints the product percentages, the category sums and the employee totals; the cell objects see them', () => {
      const first = runDemo('AdvMatrix - Sparkline, Gauge');
      const gaugeType = first.objects.flatMap((o) => (o.type === 'AdvMatrixObject' ? o.cells.flat() : []));
      const inner = gaugeType.flatMap((c) => c.objects).filter((o) => o.type !== 'MatrixButton');
      for (const type of new Set(inner.map((o) => o.type))) spyOn(type);
      const run = runDemo('AdvMatrix - Sparkline, Gauge');
      const g = matrixGrid(run.prepared, cellNames(run.objects, 'AdvMatrix1')).texts;
      const employees = byTotal(LINES, (l) => l.employee);
      const total = (e: string): bigint => sum(LINES.filter((l) => l.employee === e)) ?? 0n;
      expect(g[0]).toEqual(['', ...employees, 'Total']);
      const expected: (string | null)[][] = [];
      /** A fraction as the cell's Currency format shows it (two decimals). */
      const fraction = (part: bigint | undefined, whole: bigint): string =>
        part === undefined ? '' : money(BigInt(Math.round((Number(part) / Number(whole)) * 100)) * 10000n);
      for (const { category, products } of categoryTree()) {
        const inCategory = LINES.filter((l) => l.category === category);
        expected.push([
          `${category} (${products.length})`,
          ...employees.map((e) => money(sum(inCategory.filter((l) => l.employee === e)))),
          money(sum(inCategory)),
        ]);
        products.forEach((p, i) => {
          const mine = inCategory.filter((l) => l.product === p);
          expected.push([
            `${i + 1}. ${p}`,
            ...employees.map((e) => fraction(sum(mine.filter((l) => l.employee === e)), total(e))),
            money(sum(mine)),
          ]);
        });
      }
      // The Total row: the sparklines' cells (no text of their own), the grand total spanning it
      // and the row below, which has each employee's sum under an empty header.
      expected.push(['Total', ...employees.map(() => ''), money(sum(LINES))]);
      expected.push(['', ...employees.map((e) => money(total(e))), null]);
      expect(g.slice(1)).toEqual(expected);

      // The gauge of a product cell sees the fraction; the sparkline of an employee's Total cell
      // sees the employee's prices in data order.
      const gauges = seen.filter((s) => s.name === 'SimpleProgressGauge1');
      const tree = categoryTree();
      expect(gauges).toHaveLength(tree.reduce((n, c) => n + c.products.length, 0) * employees.length);
      const firstProduct = tree[0]?.products[0] as string;
      const firstCell = LINES.filter((l) => l.product === firstProduct && l.employee === employees[0]);
      const want = firstCell.length === 0 ? null : Number(sum(firstCell)) / Number(total(employees[0] as string));
      if (want === null) expect(gauges[0]?.value).toBeNull();
      else expect(gauges[0]?.value).toBeCloseTo(want, 12);
      const sparks = seen.filter((s) => s.name === 'Sparkline2');
      expect(sparks).toHaveLength(employees.length);
      sparks.forEach((s, i) => {
        const mine = LINES.filter((l) => l.employee === employees[i]);
        expect(s.values).toHaveLength(mine.length);
        const got = s.values.reduce((acc: number, v) => acc + Number(String(v)), 0);
        expect(got).toBeCloseTo(Number(sum(mine)) / 1e6, 4);
      });
    });
  });
});
