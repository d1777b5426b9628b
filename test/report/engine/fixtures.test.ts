// The FastReport demo reports run on nwind.xml; every expectation is computed here from the XML
// (helpers.ts reads it with regular expressions, not with the data layer).

import { describe, expect, it } from 'vitest';
import type { PreparedReport } from '../../../src/report/engine/index.js';
import { collate, itemsOf, nwindRows, runFixture, textsOf, usd } from './helpers.js';

const byName = <T>(rows: T[], key: (r: T) => string): Map<string, T> => new Map(rows.map((r) => [key(r), r]));

/** Exact decimal text → units of 1/10000. */
function units(text: string): bigint {
  const [i = '0', f = ''] = text.split('.');
  return BigInt(i) * 10000n + BigInt((f + '0000').slice(0, 4));
}

/** Units of 1/10000 → cents, half away from zero (decimal formatting). */
const cents = (u: bigint): bigint => (u >= 0n ? (u + 50n) / 100n : -((-u + 50n) / 100n));

describe('Simple List.frx', () => {
  const r = runFixture('Simple List.frx').prepared;
  const employees = nwindRows('Employees').sort(
    (a, b) => collate(a.FirstName ?? '', b.FirstName ?? '') || collate(a.LastName ?? '', b.LastName ?? ''),
  );

  it('lists the employees sorted by first and last name, one band each', () => {
    expect(textsOf(r, 'Text2')).toEqual(employees.map((e) => `${e.FirstName} ${e.LastName}`));
    expect(textsOf(r, 'Text14')).toEqual(employees.map((e) => e.City));
    expect(textsOf(r, 'Text8')).toEqual(employees.map((e) => e.HomePhone));
  });

  it('prints the title once and the page footer on every page', () => {
    expect(textsOf(r, 'Text1')).toEqual(['EMPLOYEES']);
    expect(textsOf(r, 'Text10')).toEqual(r.pages.map((p) => `Page ${p.index}`));
    for (const p of r.pages) {
      const footer = p.items.find((i) => i.name === 'Text10');
      // Pinned to the bottom: the footer ends at the bottom margin.
      expect((footer?.y ?? 0) + (footer?.height ?? 0)).toBeCloseTo(p.heightPx - p.margins.bottom, 1);
    }
  });

  it('grows the notes with their text and keeps every band on the page', () => {
    for (const { item } of itemsOf(r, 'Text9')) expect(item.lines.length).toBeGreaterThan(1);
    for (const p of r.pages)
      for (const it of p.items) expect(it.y + it.height).toBeLessThanOrEqual(p.heightPx - p.margins.bottom + 0.01);
  });
});

describe('Groups.frx', () => {
  const r = runFixture('Groups.frx').prepared;
  const products = nwindRows('Products')
    .map((p) => p.ProductName ?? '')
    .sort(collate);
  const letters = [...new Set(products.map((n) => n.slice(0, 1)))];

  it('prints one group per first letter, products sorted by name', () => {
    expect(textsOf(r, 'Text7')).toEqual(letters);
    expect(textsOf(r, 'Text2')).toEqual(products);
  });

  it('counts the products of each group in its footer', () => {
    expect(textsOf(r, 'Text8')).toEqual(
      letters.map((l) => `Total products: ${products.filter((n) => n.startsWith(l)).length}`),
    );
  });

  it('highlights even rows of each group (Row# restarts per group)', () => {
    const rows = itemsOf(r, 'Text2');
    let rowNo = 0;
    let letter = '';
    for (const { text, item } of rows) {
      rowNo = text.slice(0, 1) === letter ? rowNo + 1 : 1;
      letter = text.slice(0, 1);
      const fill = item.fill.kind === 'Solid' ? item.fill.color : undefined;
      if (rowNo % 2 === 0) expect(fill).toEqual({ r: 240, g: 248, b: 255, a: 255 });
      else expect(fill?.a).toBe(0);
    }
  });
});

describe('Master-Detail.frx', () => {
  const r = runFixture('Master-Detail.frx').prepared;
  it('prints each category with its products sorted by name', () => {
    const products = nwindRows('Products');
    const expected = nwindRows('Categories').flatMap((c) => [
      c.CategoryName ?? '',
      ...products
        .filter((p) => p.CategoryID === c.CategoryID)
        .map((p) => p.ProductName ?? '')
        .sort(collate),
    ]);
    const printed = r.pages.flatMap((p) =>
      p.items
        .filter((i) => i.name === 'Text1' || i.name === 'Text5')
        .map((i) => (i.kind === 'text' ? i.lines.map((l) => l.text).join('\n') : '')),
    );
    expect(printed).toEqual(expected);
  });

  it('shows Discontinued as check boxes', () => {
    const boxes = r.pages.flatMap((p) => p.items.filter((i) => i.kind === 'checkbox'));
    expect(boxes).toHaveLength(nwindRows('Products').length);
    const discontinued = nwindRows('Products').filter((p) => p.Discontinued === 'true').length;
    expect(boxes.filter((b) => b.kind === 'checkbox' && b.checked)).toHaveLength(discontinued);
  });
});

/** Customers that have orders, by CustomerID ascending, with their orders by OrderID. */
function customerGroups(): { id: string; company: string; orders: Record<string, string>[] }[] {
  const companies = byName(nwindRows('Customers'), (c) => c.CustomerID ?? '');
  const orders = nwindRows('Orders');
  const ids = [...new Set(orders.map((o) => o.CustomerID ?? ''))].sort(collate);
  return ids.map((id) => ({
    id,
    company: companies.get(id)?.CompanyName ?? '',
    orders: orders.filter((o) => o.CustomerID === id).sort((a, b) => Number(a.OrderID) - Number(b.OrderID)),
  }));
}

describe('Double Pass, Total Pages.frx', () => {
  const r = runFixture('Double Pass, Total Pages.frx').prepared;
  const groups = customerGroups();

  it('numbers pages "Page N of M" with the final page count', () => {
    expect(r.pages.length).toBeGreaterThan(10);
    expect(textsOf(r, 'Text10')).toEqual(r.pages.map((p) => `Page ${p.index} of ${r.pages.length}`));
  });

  it('groups the orders by customer with a count in each footer', () => {
    expect(textsOf(r, 'Text1')).toEqual(groups.map((g) => g.company));
    expect(textsOf(r, 'Text9')).toEqual(groups.map((g) => `Total orders: ${g.orders.length}`));
    expect(textsOf(r, 'Text4')).toEqual(groups.flatMap((g) => g.orders.map((o) => o.OrderID)));
  });
});

function groupPages(
  r: PreparedReport,
  header: string,
  row: string,
  footer: string,
): { header: number; rows: number[]; footer: number }[] {
  const out: { header: number; rows: number[]; footer: number }[] = [];
  for (const p of r.pages) {
    for (const it of p.items) {
      if (it.name === header) out.push({ header: p.index, rows: [], footer: -1 });
      else if (it.name === row) out[out.length - 1]?.rows.push(p.index);
      else if (it.name === footer) (out[out.length - 1] as { footer: number }).footer = p.index;
    }
  }
  return out;
}

describe('Keep Together.frx', () => {
  const r = runFixture('Keep Together.frx').prepared;
  it('keeps every customer group on one page', () => {
    const groups = groupPages(r, 'Text1', 'Text4', 'Text9');
    expect(groups).toHaveLength(customerGroups().length);
    for (const g of groups) {
      expect(g.rows.every((p) => p === g.header)).toBe(true);
      expect(g.footer).toBe(g.header);
    }
  });
});

describe('Repeat Headers.frx', () => {
  const r = runFixture('Repeat Headers.frx').prepared;
  const groups = customerGroups();
  const companyOfOrder = new Map(groups.flatMap((g) => g.orders.map((o) => [o.OrderID ?? '', g.company] as const)));

  it('repeats the group header, marked "continued...", when a group goes on on a new page', () => {
    const continued = itemsOf(r, 'Text11');
    expect(continued.length).toBeGreaterThan(0);
    // Walk the output in print order: a repeated header is the first band of its page and names
    // the group printed before it; the orders that follow belong to that group.
    let current = '';
    let seen = 0;
    for (const p of r.pages) {
      for (const it of p.items) {
        if (it.kind !== 'text') continue;
        if (it.name === 'Text4') expect(companyOfOrder.get(it.lines[0]?.text ?? '')).toBe(current);
        if (it.name === 'Text1') {
          const repeated = p.items.some((c) => c.name === 'Text11' && Math.abs(c.y - it.y) < 0.01);
          if (repeated) {
            seen++;
            expect(it.lines[0]?.text).toBe(current);
            expect(it.y).toBeCloseTo(p.margins.top, 1);
          }
          current = it.lines[0]?.text ?? '';
        }
      }
    }
    expect(seen).toBe(continued.length);
    // Headers: one per group, plus one per continuation.
    expect(textsOf(r, 'Text1')).toHaveLength(groups.length + continued.length);
  });
});

describe('Complex (Master-detail + Group).frx', () => {
  const r = runFixture('Complex (Master-detail + Group).frx').prepared;
  const groups = customerGroups();
  it('totals every order from its details', () => {
    const details = nwindRows('Order_x0020_Details');
    const expected = groups.flatMap((g) =>
      g.orders
        .map((o) => details.filter((d) => d.OrderID === o.OrderID))
        .filter((d) => d.length > 0)
        .map(
          (d) =>
            `Total this ` +
            `order: ${usd(cents(d.reduce((s, x) => s + units(x.UnitPrice ?? '0') * BigInt(x.Quantity ?? '0'), 0n)))}`,
        ),
    );
    expect(textsOf(r, 'Text9')).toEqual(expected);
  });

  it('names the product of every detail row through the relation', () => {
    const names = byName(nwindRows('Products'), (p) => p.ProductID ?? '');
    const firstOrder = groups[0]?.orders[0]?.OrderID;
    const first = nwindRows('Order_x0020_Details').filter((d) => d.OrderID === firstOrder);
    expect(textsOf(r, 'Text11').slice(0, first.length)).toEqual(
      first.map((d) => names.get(d.ProductID ?? '')?.ProductName),
    );
  });
});

describe('Start New Page, Reset Page Numbers.frx', () => {
  const r = runFixture('Start New Page, Reset Page Numbers.frx').prepared;
  it('starts each customer on a new page and restarts the page numbers', () => {
    const headers = itemsOf(r, 'Text1');
    expect(headers.map((h) => h.text)).toEqual(customerGroups().map((g) => g.company));
    expect(new Set(headers.map((h) => h.page)).size).toBe(headers.length);
    let expected = 0;
    for (const p of r.pages) {
      expected = headers.some((h) => h.page === p.index) ? 1 : expected + 1;
      expect(textsOf({ pages: [p] }, 'Text10')).toEqual([`Page ${expected}`]);
    }
  });
});

describe('Odd-Even Rows.frx', () => {
  const r = runFixture('Odd-Even Rows.frx').prepared;
  it('fills even rows with the EvenRows style', () => {
    const customers = nwindRows('Customers');
    expect(textsOf(r, 'Text1')).toEqual(customers.map((c) => c.CompanyName));
    let row = 0;
    for (const p of r.pages) {
      for (const t of p.items.filter((i) => i.name === 'Text1')) {
        row++;
        const band = p.items.find((i) => i.name === 'Data1' && Math.abs(i.y - t.y) < 0.01);
        if (row % 2 === 0)
          expect(band?.kind === 'box' && band.fill).toEqual({
            kind: 'Solid',
            color: { r: 250, g: 235, b: 215, a: 255 },
          });
        else expect(band).toBeUndefined();
      }
    }
  });
});

describe('Complete upto N Rows.frx', () => {
  it('completes the list of 8 categories to 15 numbered rows', () => {
    const r = runFixture('Complete upto N Rows.frx').prepared;
    expect(textsOf(r, 'Text2')).toEqual(nwindRows('Categories').map((c) => c.CategoryName));
    expect([...textsOf(r, 'Text3'), ...textsOf(r, 'Text4')]).toEqual(
      Array.from({ length: 15 }, (_, i) => String(i + 1)),
    );
  });
});

describe('Databand Columns, Row Numbers.frx', () => {
  it('prints the products of each letter in two columns, numbered per group', () => {
    const r = runFixture('Databand Columns, Row Numbers.frx').prepared;
    const products = nwindRows('Products')
      .map((p) => p.ProductName ?? '')
      .sort(collate);
    const items = itemsOf(r, 'Text2');
    expect(items.map((i) => i.text)).toEqual(products);
    const lefts = new Set(items.map((i) => Math.round(i.item.x)));
    expect(lefts.size).toBe(2);
    const numbers = textsOf(r, 'Text3');
    expect(numbers.slice(0, 2)).toEqual(['1.', '2.']);
  });
});

describe('Duplicate Values.frx', () => {
  it('merges repeated first letters into one cell', () => {
    const r = runFixture('Duplicate Values.frx').prepared;
    const products = nwindRows('Products')
      .map((p) => p.ProductName ?? '')
      .sort(collate);
    expect(textsOf(r, 'Text2')).toEqual(products);
    const letters = itemsOf(r, 'Text7');
    // One cell per letter and page (a letter split by a page break shows on both pages).
    expect(letters.length).toBeLessThan(products.length);
    const a = letters.find((l) => l.text === 'A');
    expect(a?.item.height).toBeCloseTo(2 * 28.35, 1);
  });
});

describe('Hierarchic List.frx', () => {
  it('indents employees under their managers', () => {
    const r = runFixture('Hierarchic List.frx').prepared;
    const employees = nwindRows('Employees');
    const byId = byName(employees, (e) => e.EmployeeID ?? '');
    const level = (e: Record<string, string>): number =>
      e.ReportsTo && byId.has(e.ReportsTo) ? 1 + level(byId.get(e.ReportsTo) as Record<string, string>) : 1;
    const items = itemsOf(r, 'Text2');
    expect(items).toHaveLength(employees.length);
    const root = items.find((i) => i.text === 'Andrew Fuller');
    for (const i of items) {
      const e = employees.find((x) => `${x.FirstName} ${x.LastName}` === i.text) as Record<string, string>;
      expect(i.item.x - (root?.item.x ?? 0)).toBeCloseTo((level(e) - 1) * 85.05, 1);
    }
  });
});

describe('Purchase Order.frx', () => {
  it('lists order 10278 and sums it in the summary', () => {
    const r = runFixture('Purchase Order.frx').prepared;
    const details = nwindRows('Order_x0020_Details').filter((d) => d.OrderID === '10278');
    expect(textsOf(r, 'Text23')).toEqual(details.map((d) => d.Quantity));
    const sum = details.reduce((s, d) => s + units(d.UnitPrice ?? '0') * BigInt(d.Quantity ?? '0'), 0n);
    expect(textsOf(r, 'Text11')).toEqual([usd(cents(sum))]);
  });
});
