// Every FastReport demo rendered to PDF with nwind.xml and checked with the PDF tools: the file
// passes `qpdf --check`, `pdffonts` lists only embedded fonts, the page count is the HTML
// export's, and the text that `pdftotext` finds inside each object's box is what the fixture
// tests (test/report/engine/fixtures.test.ts) expect of it — computed here the same way, from
// nwind.xml with the helpers those tests use, never from the rendered output.
//
// Skipped with a message when qpdf/poppler-utils are missing (an error under REQUIRE_POPPLER=1).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreparedReport, PreparedText } from '../../../src/report/engine/prepared.js';
import { exportHtml } from '../../../src/report/export/html.js';
import { renderReport } from '../../../src/report/render.js';
import {
  pageCount,
  pdfFonts,
  pdfWords,
  POPPLER_AVAILABLE,
  qpdfCheck,
  type PdfTextPage,
} from '../../support/poppler.js';
import { collate, FIXED_NOW, FIXTURE_DIR, NWIND_TEXT, nwindRows, usd } from '../engine/helpers.js';
import { CORE_DEMOS } from '../../support/fastreport-demos.js';

const FIXTURES = [...CORE_DEMOS];
const PT_PER_PX = 0.75;

interface PdfRun {
  file: string;
  bytes: number;
  prepared: PreparedReport;
  htmlPages: number;
  text: PdfTextPage[];
}

let dir = '';
const runs = new Map<string, PdfRun>();

function run(f: string): PdfRun {
  const r = runs.get(f);
  if (!r) throw new Error(`${f} was not rendered`);
  return r;
}

/**
 * The text pdftotext finds inside each text object named `name`, page by page in print order:
 * the words whose centre lies in the object's box, lines top to bottom, words left to right.
 */
function pdfTextsOf(r: PdfRun, name: string): string[] {
  const out: string[] = [];
  r.prepared.pages.forEach((page, i) => {
    const words = r.text[i]?.words ?? [];
    for (const it of page.items) {
      if (it.kind !== 'text' || it.name !== name) continue;
      const x0 = it.x * PT_PER_PX - 0.5;
      const y0 = it.y * PT_PER_PX - 0.5;
      const x1 = (it.x + it.width) * PT_PER_PX + 0.5;
      const y1 = (it.y + it.height) * PT_PER_PX + 0.5;
      const inside = words.filter((w) => {
        const cx = (w.xMin + w.xMax) / 2;
        const cy = (w.yMin + w.yMax) / 2;
        return cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1;
      });
      inside.sort((a, b) => (Math.abs(a.yMin - b.yMin) < 1 ? a.xMin - b.xMin : a.yMin - b.yMin));
      const lines: string[][] = [];
      let lastY = Number.NaN;
      for (const w of inside) {
        if (!(Math.abs(w.yMin - lastY) < 1)) lines.push([]);
        lines[lines.length - 1]?.push(w.text);
        lastY = w.yMin;
      }
      out.push(lines.map((l) => l.join(' ')).join('\n'));
    }
  });
  return out;
}

/** Runs of spaces count as one (pdftotext gives words, not the spaces between them). */
const norm = (s: string | undefined): string => (s ?? '').replace(/[ \t]+/g, ' ').trim();
const normAll = (list: (string | undefined)[]): string[] => list.map(norm);

/** Exact decimal text → units of 1/10000 (as in fixtures.test.ts). */
function units(text: string): bigint {
  const [i = '0', f = ''] = text.split('.');
  return BigInt(i) * 10000n + BigInt((f + '0000').slice(0, 4));
}
/** Units of 1/10000 → cents, half away from zero. */
const cents = (u: bigint): bigint => (u >= 0n ? (u + 50n) / 100n : -((-u + 50n) / 100n));

/** Customers that have orders, by CustomerID, with their orders by OrderID (as in fixtures.test.ts). */
function customerGroups(): { company: string; orders: Record<string, string>[] }[] {
  const companies = new Map(nwindRows('Customers').map((c) => [c.CustomerID ?? '', c.CompanyName ?? '']));
  const orders = nwindRows('Orders');
  const ids = [...new Set(orders.map((o) => o.CustomerID ?? ''))].sort(collate);
  return ids.map((id) => ({
    company: companies.get(id) ?? '',
    orders: orders.filter((o) => o.CustomerID === id).sort((a, b) => Number(a.OrderID) - Number(b.OrderID)),
  }));
}

const productNames = (): string[] =>
  nwindRows('Products')
    .map((p) => p.ProductName ?? '')
    .sort(collate);

if (POPPLER_AVAILABLE) {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pdf-fixtures-'));
    for (const f of FIXTURES) {
      const r = renderReport({
        template: readFileSync(FIXTURE_DIR + f),
        data: { datasetXml: NWIND_TEXT },
        format: 'pdf',
        now: FIXED_NOW,
      });
      const file = join(dir, `${f.replace(/[^A-Za-z0-9]+/g, '_')}.pdf`);
      writeFileSync(file, r.output);
      const html = exportHtml(r.prepared);
      runs.set(f, {
        file,
        bytes: (r.output as Buffer).length,
        prepared: r.prepared,
        htmlPages: [...html.matchAll(/<div class="p" data-page="\d+"/g)].length,
        text: pdfWords(file),
      });
    }
  }, 240_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}

describe.skipIf(!POPPLER_AVAILABLE)('every FastReport demo renders to a valid PDF', () => {
  it.each(FIXTURES)('%s: qpdf --check passes, fonts are embedded, pages as in HTML', (f) => {
    const r = run(f);
    const check = qpdfCheck(r.file);
    expect(check.status, check.output).toBe(0);
    expect(check.output).toContain('No syntax or stream encoding errors found');
    const fonts = pdfFonts(r.file);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) {
      expect(font, font.name).toMatchObject({ embedded: true, subset: true, unicode: true });
    }
    expect(pageCount(r.file)).toBe(r.htmlPages);
    expect(r.text).toHaveLength(r.htmlPages);
    // Page size in points: the report's px × 0.75.
    r.prepared.pages.forEach((p, i) => {
      expect(r.text[i]?.width).toBeCloseTo(p.widthPx * PT_PER_PX, 1);
      expect(r.text[i]?.height).toBeCloseTo(p.heightPx * PT_PER_PX, 1);
    });
  });
});

describe.skipIf(!POPPLER_AVAILABLE)('pdftotext shows the values the fixture tests expect', () => {
  it('Simple List: employees by first and last name, title, page numbers', () => {
    const r = run('Simple List.frx');
    const employees = nwindRows('Employees').sort(
      (a, b) => collate(a.FirstName ?? '', b.FirstName ?? '') || collate(a.LastName ?? '', b.LastName ?? ''),
    );
    expect(pdfTextsOf(r, 'Text2')).toEqual(employees.map((e) => `${e.FirstName} ${e.LastName}`));
    expect(pdfTextsOf(r, 'Text14')).toEqual(normAll(employees.map((e) => e.City)));
    expect(pdfTextsOf(r, 'Text8')).toEqual(normAll(employees.map((e) => e.HomePhone)));
    expect(pdfTextsOf(r, 'Text1')).toEqual(['EMPLOYEES']);
    expect(pdfTextsOf(r, 'Text10')).toEqual(r.prepared.pages.map((p) => `Page ${p.index}`));
    // The notes grow over several lines: all their words are there, in order.
    const notes = pdfTextsOf(r, 'Text9');
    expect(notes).toHaveLength(employees.length);
    notes.forEach((n, i) => {
      expect(n.split('\n').length).toBeGreaterThan(1);
      expect(norm(n.replace(/\n/g, ' '))).toBe(norm(employees[i]?.Notes?.replace(/\s+/g, ' ')));
    });
  });

  it('Groups: one group per first letter, products by name, counts in the footers', () => {
    const r = run('Groups.frx');
    const products = productNames();
    const letters = [...new Set(products.map((n) => n.slice(0, 1)))];
    expect(pdfTextsOf(r, 'Text7')).toEqual(letters);
    expect(pdfTextsOf(r, 'Text2')).toEqual(normAll(products));
    expect(pdfTextsOf(r, 'Text8')).toEqual(
      letters.map((l) => `Total products: ${products.filter((n) => n.startsWith(l)).length}`),
    );
  });

  it('Master-Detail: each category with its products', () => {
    const r = run('Master-Detail.frx');
    const products = nwindRows('Products');
    const expected = nwindRows('Categories').flatMap((c) => [
      c.CategoryName ?? '',
      ...products
        .filter((p) => p.CategoryID === c.CategoryID)
        .map((p) => p.ProductName ?? '')
        .sort(collate),
    ]);
    // Both objects, in print order: walk the pages item by item.
    const printed: string[] = [];
    const t1 = pdfTextsOf(r, 'Text1');
    const t5 = pdfTextsOf(r, 'Text5');
    for (const p of r.prepared.pages) {
      for (const it of p.items) {
        if (it.name === 'Text1') printed.push(t1.shift() ?? '');
        if (it.name === 'Text5') printed.push(t5.shift() ?? '');
      }
    }
    expect(printed).toEqual(normAll(expected));
  });

  it('Double Pass, Total Pages: "Page N of M" with the PDF page count, groups and counts', () => {
    const r = run('Double Pass, Total Pages.frx');
    const groups = customerGroups();
    const total = pageCount(r.file);
    expect(pdfTextsOf(r, 'Text10')).toEqual(Array.from({ length: total }, (_, i) => `Page ${i + 1} of ${total}`));
    expect(pdfTextsOf(r, 'Text1')).toEqual(normAll(groups.map((g) => g.company)));
    expect(pdfTextsOf(r, 'Text9')).toEqual(groups.map((g) => `Total orders: ${g.orders.length}`));
    expect(pdfTextsOf(r, 'Text4')).toEqual(groups.flatMap((g) => g.orders.map((o) => o.OrderID ?? '')));
  });

  it('Keep Together and Repeat Headers: every order under its customer', () => {
    const groups = customerGroups();
    const keep = run('Keep Together.frx');
    expect(pdfTextsOf(keep, 'Text1')).toEqual(normAll(groups.map((g) => g.company)));
    expect(pdfTextsOf(keep, 'Text4')).toEqual(groups.flatMap((g) => g.orders.map((o) => o.OrderID ?? '')));
    const repeat = run('Repeat Headers.frx');
    expect(pdfTextsOf(repeat, 'Text4')).toEqual(groups.flatMap((g) => g.orders.map((o) => o.OrderID ?? '')));
    const continued = pdfTextsOf(repeat, 'Text11');
    expect(continued.length).toBeGreaterThan(0);
    expect(pdfTextsOf(repeat, 'Text1')).toHaveLength(groups.length + continued.length);
  });

  it('Complex (Master-detail + Group): every order totalled from its details', () => {
    const r = run('Complex (Master-detail + Group).frx');
    const details = nwindRows('Order_x0020_Details');
    const expected = customerGroups().flatMap((g) =>
      g.orders
        .map((o) => details.filter((d) => d.OrderID === o.OrderID))
        .filter((d) => d.length > 0)
        .map(
          (d) =>
            `Total this ` +
            `order: ${usd(cents(d.reduce((s, x) => s + units(x.UnitPrice ?? '0') * BigInt(x.Quantity ?? '0'), 0n)))}`,
        ),
    );
    expect(pdfTextsOf(r, 'Text9')).toEqual(expected);
  });

  it('Start New Page, Reset Page Numbers: a page per customer, numbers restarting', () => {
    const r = run('Start New Page, Reset Page Numbers.frx');
    expect(pdfTextsOf(r, 'Text1')).toEqual(normAll(customerGroups().map((g) => g.company)));
    const headerPages = new Set(
      r.prepared.pages.filter((p) => p.items.some((i) => i.name === 'Text1')).map((p) => p.index),
    );
    let n = 0;
    const expected = r.prepared.pages.map((p) => `Page ${(n = headerPages.has(p.index) ? 1 : n + 1)}`);
    expect(pdfTextsOf(r, 'Text10')).toEqual(expected);
  });

  it('Odd-Even Rows, Complete upto N Rows, Databand Columns, Duplicate Values, Hierarchic List', () => {
    expect(pdfTextsOf(run('Odd-Even Rows.frx'), 'Text1')).toEqual(
      normAll(nwindRows('Customers').map((c) => c.CompanyName)),
    );
    const upto = run('Complete upto N Rows.frx');
    expect(pdfTextsOf(upto, 'Text2')).toEqual(normAll(nwindRows('Categories').map((c) => c.CategoryName)));
    expect([...pdfTextsOf(upto, 'Text3'), ...pdfTextsOf(upto, 'Text4')]).toEqual(
      Array.from({ length: 15 }, (_, i) => String(i + 1)),
    );
    const columns = run('Databand Columns, Row Numbers.frx');
    expect(pdfTextsOf(columns, 'Text2')).toEqual(normAll(productNames()));
    expect(pdfTextsOf(columns, 'Text3').slice(0, 2)).toEqual(['1.', '2.']);
    expect(pdfTextsOf(run('Duplicate Values.frx'), 'Text2')).toEqual(normAll(productNames()));
    const names = nwindRows('Employees').map((e) => `${e.FirstName} ${e.LastName}`);
    expect([...pdfTextsOf(run('Hierarchic List.frx'), 'Text2')].sort()).toEqual([...names].sort());
  });

  it('Purchase Order: the quantities of order 10278 and their sum', () => {
    const r = run('Purchase Order.frx');
    const details = nwindRows('Order_x0020_Details').filter((d) => d.OrderID === '10278');
    expect(pdfTextsOf(r, 'Text23')).toEqual(details.map((d) => d.Quantity));
    const sum = details.reduce((s, d) => s + units(d.UnitPrice ?? '0') * BigInt(d.Quantity ?? '0'), 0n);
    expect(pdfTextsOf(r, 'Text11')).toEqual([usd(cents(sum))]);
  });

  it('the text of every object of every demo is in its box (HtmlTags runs included)', () => {
    // Beyond the named values: for all text objects that are not rotated, the words in the
    // object's box are the words of its lines. Objects placed off the page (Subreport.frx hides
    // one at Left -9450) print nothing.
    const onPage = (i: PreparedText, p: { widthPx: number; heightPx: number }): boolean =>
      i.x + i.width > 0 && i.y + i.height > 0 && i.x < p.widthPx && i.y < p.heightPx;
    for (const f of FIXTURES) {
      const r = run(f);
      const names = new Set(
        r.prepared.pages.flatMap((p) =>
          p.items
            .filter((i): i is PreparedText => i.kind === 'text' && i.angle === 0 && onPage(i, p))
            .map((i) => i.name),
        ),
      );
      for (const name of names) {
        const shown = r.prepared.pages.flatMap((p) =>
          p.items.filter((i): i is PreparedText => i.kind === 'text' && i.name === name && onPage(i, p)),
        );
        if (shown.some((t) => t.angle !== 0)) continue;
        const words = (t: PreparedText): string =>
          (t.html ? t.html.map((l) => l.runs.map((x) => x.text).join('')) : t.lines.map((l) => l.text)).join(' ');
        expect(
          pdfTextsOf(r, name).map((s) => norm(s.replace(/\n/g, ' '))),
          `${f}: ${name}`,
        ).toEqual(shown.map((t) => norm(words(t))));
      }
    }
  });
});
