// Starter templates from SRS data samples: valid, FastReport-shaped .frx that shows every value
// of its sample (nested arrays, nulls, numbers, booleans, dates as text, unicode, property names
// that are not identifiers), with the sample embedded and with the data supplied.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonConnectionString } from '../../../src/report/data/index.js';
import { shownText, type PreparedText } from '../../../src/report/engine/index.js';
import { allBands, allObjects, loadFrx } from '../../../src/report/frx/index.js';
import { renderReport, TemplateError } from '../../../src/report/index.js';
import { mergeDataIntoTemplate, starterTemplate } from '../../../src/report/template/index.js';
import { dataCells, expectedStarterCells, squeeze } from './helpers.js';

const NOW = new Date(Date.UTC(2024, 4, 17, 9, 30));

const SAMPLE: Record<string, unknown> = {
  orders: [
    {
      id: 1,
      customer: 'Ada & Co <b>',
      total: 1234.5,
      paid: true,
      shipped: '2024-03-01T10:15:00',
      note: null,
      'unit price': 2.25,
      'a.b': 'dotted',
      '1st': 'first',
      'x-y': -7,
      'a b': 'spaced',
      a_b: 'underscored',
      Größe: 'größer',
      ['__proto__']: 'proto',
      constructor: 'ctor',
      '[br]': '[not an expression]',
      address: { city: 'Zürich', zip: '8001' },
      lines: [
        { sku: 'A-1', qty: 2, tags: ['new', 'hot'] },
        { sku: 'B-2', qty: 0.5, tags: [] },
      ],
    },
    {
      id: 2,
      customer: '日本語のお客様 🎉',
      total: 1e21,
      paid: false,
      shipped: null,
      note: 'line one\nline two',
      'unit price': 1e-7,
      address: null,
      lines: null,
    },
    { id: 3, customer: 'שלום', total: -0.125, paid: true, lines: [{ sku: 'C-3', qty: 123456789012 }] },
  ],
  customer: {
    name: 'Ada Lovelace',
    phone: null,
    vip: true,
    since: '1843-01-01',
    contacts: [{ kind: 'mail', value: 'ada@example.test' }],
  },
  count: 3,
  nothing: null,
  empty: [],
  codes: ['x', 'y', 'z'],
};

function render(template: string, json?: unknown) {
  return renderReport({ template, format: 'html', now: NOW, ...(json !== undefined ? { data: { json } } : {}) });
}

describe('starterTemplate', () => {
  const frx = starterTemplate(SAMPLE, { title: 'Orders & more [draft]' });
  const sample = JSON.parse(JSON.stringify(SAMPLE)) as Record<string, unknown>;
  const expected = expectedStarterCells(sample);

  it('loads without warnings, with unique names, A4 portrait and 10 mm margins', () => {
    const { report, warnings } = loadFrx(frx);
    expect(warnings).toEqual([]);
    const page = report.pages[0];
    expect(report.pages).toHaveLength(1);
    expect(page).toMatchObject({
      paperWidth: 210,
      paperHeight: 297,
      leftMargin: 10,
      topMargin: 10,
      rightMargin: 10,
      bottomMargin: 10,
    });
    const names = [...frx.matchAll(/<(?!Column)\w+ Name="([^"]*)"/g)].map((m) => (m[1] as string).toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[\p{L}_][\p{L}\p{N}_]*$/u);
    // Every object fits in the printable width (190 mm = 718.2 px).
    for (const b of allBands(page!))
      for (const o of b.objects) expect(o.left + o.width).toBeLessThanOrEqual(718.2 + 1e-6);
    const fonts = allObjects(page!).map((o) => (o as { font?: { family: string; sizePt: number } }).font);
    expect(new Set(fonts.map((f) => f?.family))).toEqual(new Set(['Arial']));
    // Cells and labels in 9 pt; captions, title and footer differ.
    const sizes = fonts.map((f) => f?.sizePt);
    expect(sizes.filter((s) => s === 9).length).toBeGreaterThan(sizes.length / 2);
  });

  it('embeds the sample as raw JSON text with a schema', () => {
    const cs = loadFrx(frx).report.dictionary.connections[0]?.connectionString ?? '';
    expect(cs.startsWith('rij')).toBe(false);
    const fields = parseJsonConnectionString(cs);
    expect(JSON.parse(fields.json)).toEqual(sample);
    expect(cs).toContain('Json=\'{"orders":[{"id":1,'); // raw, not base64
    expect(JSON.parse(fields.jsonSchema)).toMatchObject({ type: 'object', properties: { orders: { type: 'array' } } });
  });

  it('shows every value of its sample, in order, with nulls empty (no data passed)', () => {
    const out = render(frx);
    expect(out.warnings).toEqual([]);
    expect(dataCells(frx, out.prepared).map(squeeze)).toEqual(expected.map(squeeze));
    // The HTML carries each value (escaped); wrapped lines lose only whitespace.
    const html = squeeze(
      String(out.output)
        .replace(/<[^>]*>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&'),
    );
    for (const v of expected) expect(html).toContain(squeeze(v));
  });

  it('shows the same when the data is supplied, and fresh data in its place', () => {
    expect(dataCells(frx, render(frx, sample).prepared)).toEqual(dataCells(frx, render(frx).prepared));
    const fresh = {
      ...sample,
      orders: [{ id: 42, customer: 'Fresh', 'unit price': 9, lines: [{ sku: 'Z', qty: 1 }] }],
    };
    const cells = dataCells(frx, render(frx, fresh).prepared);
    expect(cells).toEqual(expect.arrayContaining(['42', 'Fresh', '9', 'Z']));
  });

  it('checks the expected list against the sample itself', () => {
    // Guards the helper: a few values picked by hand must be in it, in this order.
    const picks = [
      'Ada & Co <b>',
      '1234.5',
      'True',
      '2024-03-01T10:15:00',
      '',
      '2.25',
      'dotted',
      'first',
      '-7',
      'spaced',
      'underscored',
      'größer',
      'proto',
      'ctor',
      '[not an expression]',
      'Zürich',
      'A-1',
      'new',
      'hot',
      '1E+21',
      'False',
      'line one\nline two',
      '1E-07',
      '-0.125',
      '123456789012',
      'Ada Lovelace',
      'mail',
      '3',
      'x',
      'z',
    ];
    let at = 0;
    for (const p of picks) {
      const i = expected.indexOf(p, at);
      expect(i, p).toBeGreaterThanOrEqual(at);
      at = i + 1;
    }
  });

  it('binds property names that are not identifiers through sanitised aliases', () => {
    for (const expr of [
      '[JSON.item.orders.item.unit_price]',
      '[JSON.item.orders.item.a_b1]',
      '[JSON.item.orders.item._1st]',
      '[JSON.item.orders.item.x_y]',
      '[JSON.item.orders.item._br_]',
      '[JSON.item.orders.item.Größe]',
    ]) {
      expect(frx).toContain(`Text="${expr}"`);
    }
    // Missing in one row: System.Object, so the row shows empty rather than 0.
    expect(frx).toMatch(/<Column Name="unit_price" DataType="System.Object" PropName="unit price"\/>/);
    expect(frx).toMatch(/<Column Name="qty" DataType="System.Double"\/>/);
    // Header cells show the JSON names as they are (brackets as text, not expressions).
    const texts = render(frx)
      .prepared.pages.flatMap((p) => p.items)
      .filter((i) => i.kind === 'text')
      .map((i) => squeeze(shownText(i as PreparedText)));
    for (const label of [
      'unit price',
      'a.b',
      '1st',
      'x-y',
      'a b',
      'a_b',
      '[br]',
      'address.city',
      'Orders & more [draft]',
    ])
      expect(texts).toContain(squeeze(label));
  });

  it('nests arrays as detail DataBands over nested tables', () => {
    const { report } = loadFrx(frx);
    const bands = allBands(report.pages[0]!);
    const sources = bands.filter((b) => b.type === 'DataBand').map((b) => (b as { dataSource: string }).dataSource);
    expect(sources).toEqual(['orders', 'lines', 'tags', '', 'contacts', '', '', 'empty', 'codes']);
    expect(frx).toContain('Text="[JSON.item.orders.item.lines.item.tags.item]"');
    expect(frx).toContain('Text="[JSON.item.customer.contacts.item.value]"');
    expect(frx).toContain('Text="[Page#] / [TotalPages#]"');
  });

  it('merged with its own sample renders like the starter', () => {
    const merged = mergeDataIntoTemplate(frx, sample);
    expect(render(merged).output).toBe(render(frx).output);
  });

  it('takes JSON text, and a root array as one list', () => {
    const fromText = starterTemplate(JSON.stringify(SAMPLE), { title: 'Orders & more [draft]' });
    expect(fromText).toBe(frx);
    const list = starterTemplate([
      { a: 1, b: 'x' },
      { a: 2, b: null },
    ]);
    expect(dataCells(list, render(list).prepared)).toEqual(['1', 'x', '2', '']);
  });

  it('refuses data it cannot describe, clearly', () => {
    expect(() => starterTemplate(5)).toThrow(TemplateError);
    expect(() => starterTemplate('not json')).toThrow(/malformed JSON/);
    expect(() => starterTemplate(undefined)).toThrow(/no JSON data/);
    const cyclic: Record<string, unknown> = { a: [] };
    (cyclic.a as unknown[]).push(cyclic);
    expect(() => starterTemplate(cyclic)).toThrow(/cycle/);
    expect(() => starterTemplate({ rows: [{ 'bad\u0001name': 1 }] })).toThrow(/cannot carry/);
  });
});

// Random samples of the SRS shape: commands of rows (scalars, nulls, missing properties, nested
// arrays of rows two levels deep), single objects and scalars.
const key = fc.oneof(
  fc.constantFrom(
    'id',
    'name',
    'unit price',
    'a.b',
    '1st',
    'x-y',
    'ä ö',
    '__proto__',
    'item',
    'index',
    'array',
    'JSON',
    'Text1',
    'Data1',
    '[x]',
  ),
  fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !/[\u0000-\u001f\ud800-\udfff\ufffe\uffff]/.test(s)),
);
const text = fc
  .string({ maxLength: 24, unit: 'grapheme' })
  .filter((s) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u.test(s));
const scalar = fc.oneof(
  text,
  fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc
    .date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 19)),
);
// The structure of an array's rows is drawn once for the whole array (its scalar keys, maybe a
// nested array and that one's structure), then the rows: drawing the nested structure per row
// would let one row's nested array and another row's scalar share a key, a mixed column whose
// cells this property's model does not predict.
interface RowShape {
  keys: string[];
  nested?: { key: string; shape: RowShape };
}
const rowShape = (depth: number): fc.Arbitrary<RowShape> =>
  fc.uniqueArray(key, { minLength: 1, maxLength: 4 }).chain((keys) => {
    const nestedKey =
      depth > 0
        ? fc.option(
            fc
              .string({ minLength: 1, maxLength: 5 })
              .filter((s) => !keys.includes(s) && !/[\u0000-\u001f\ud800-\udfff\ufffe\uffff]/.test(s)),
            { nil: undefined },
          )
        : fc.constant(undefined);
    return nestedKey.chain(
      (nk): fc.Arbitrary<RowShape> =>
        nk === undefined
          ? fc.constant({ keys })
          : rowShape(depth - 1).map((shape) => ({ keys, nested: { key: nk, shape } })),
    );
  });
const rowsFor = (shape: RowShape): fc.Arbitrary<unknown[]> => {
  const row = fc.record(
    {
      ...Object.fromEntries(shape.keys.map((k) => [k, scalar])),
      ...(shape.nested
        ? {
            [shape.nested.key]: fc.oneof(
              { weight: 4, arbitrary: rowsFor(shape.nested.shape) },
              { weight: 1, arbitrary: fc.constant(null) },
            ),
          }
        : {}),
    },
    { requiredKeys: shape.keys.slice(0, 1) },
  );
  return fc.array(row, { maxLength: 4 });
};
const rowsOf = (depth: number): fc.Arbitrary<unknown[]> => rowShape(depth).chain(rowsFor);
const sampleArb = fc.dictionary(
  key,
  fc.oneof(
    { weight: 4, arbitrary: rowsOf(2) },
    { weight: 1, arbitrary: fc.dictionary(key, scalar, { maxKeys: 4 }) },
    { weight: 1, arbitrary: scalar },
  ),
  { minKeys: 1, maxKeys: 3 },
);

describe('starterTemplate on random samples', () => {
  it('renders without error and shows every value, nulls empty', () => {
    fc.assert(
      fc.property(sampleArb, (raw) => {
        const sample = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
        const frx = starterTemplate(sample);
        const out = render(frx);
        expect(out.warnings).toEqual([]);
        expect(dataCells(frx, out.prepared).map(squeeze)).toEqual(expectedStarterCells(sample).map(squeeze));
      }),
      // STARTER_RUNS=4000 searches longer (80 keeps the file quick).
      { numRuns: Number(process.env.STARTER_RUNS ?? 80) },
    );
  }, 120_000);
});
