import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReportWarnings, TemplateError } from '../../../src/report/errors.js';
import {
  DataSourceCursor,
  bindDictionary,
  loadDataSetXml,
  type DataContext,
  type DataSet,
  type DictionaryInput,
} from '../../../src/report/data/index.js';
import { FIXTURES, fixtureDictionary } from './frx-dictionary.js';
import { CORE_DEMOS } from '../../support/fastreport-demos.js';

const NWIND_TEXT = readFileSync(new URL('nwind.xml', FIXTURES), 'utf8');

/** Rows of one nwind table as field maps, read with regular expressions (independent of the loader). */
function rawRows(element: string): Record<string, string>[] {
  const rows: Record<string, string>[] = [];
  const re = new RegExp(`<${element}>([\\s\\S]*?)</${element}>`, 'g');
  for (const m of NWIND_TEXT.matchAll(re)) {
    const fields: Record<string, string> = {};
    for (const f of (m[1] as string).matchAll(/<(\w+)>([^<]*)<\/\1>/g)) fields[f[1] as string] = f[2] as string;
    rows.push(fields);
  }
  return rows;
}

const FRX_FILES = [...CORE_DEMOS];

describe('binding the fixtures’ dictionaries to nwind.xml', () => {
  let nwind: DataSet;
  beforeAll(() => {
    nwind = loadDataSetXml(NWIND_TEXT);
  });
  const bind = (dict: DictionaryInput, warnings?: ReportWarnings): DataContext =>
    bindDictionary(dict, { datasets: { NorthWind: nwind } }, warnings ? { warnings } : {});

  it.each(FRX_FILES)('%s', (file) => {
    const dict = fixtureDictionary(file);
    const warnings = new ReportWarnings();
    const ctx = bind(dict, warnings);
    expect(warnings.list).toEqual([]);
    for (const ds of dict.dataSources ?? []) {
      const table = nwind.tables.get((ds.referenceName as string).slice('NorthWind.'.length));
      const cursor = ctx.source(ds.name);
      expect(cursor.count).toBe(table?.rows.length);
      // Declared types are the template's view of the data.
      for (const c of ds.columns ?? []) expect(cursor.columnValue(c.name).type).toBe(c.dataType);
    }
    expect(ctx.relations.map((r) => r.name)).toEqual((dict.relations ?? []).map((r) => r.name));
    // Every [Source.Column…] the template's texts use resolves.
    const xml = readFileSync(new URL(file, FIXTURES), 'utf8');
    const refs = new Set([...xml.matchAll(/\[([^[\]]+)\]/g)].map((m) => m[1] as string));
    let checked = 0;
    for (const ref of refs) {
      const segs = ref.split('.');
      if (segs.length < 2 || !segs.some((_, k) => k > 0 && ctx.findSource(segs.slice(0, k).join('.')))) continue;
      expect(ctx.resolve(ref), ref).not.toBeNull();
      ctx.value(ref);
      checked++;
    }
    if ((dict.dataSources ?? []).length > 0) expect(checked).toBeGreaterThan(0);
  });

  it('Categories → Products (master-detail) gives each category its products', () => {
    const ctx = bind(fixtureDictionary('Master-Detail.frx'));
    const expected = new Map<string, string[]>();
    for (const p of rawRows('Products')) {
      const list = expected.get(p.CategoryID as string) ?? [];
      list.push(p.ProductName as string);
      expected.set(p.CategoryID as string, list);
    }
    const categories = ctx.source('Categories');
    let total = 0;
    for (categories.first(); !categories.eof; categories.next()) {
      const id = String(ctx.value('Categories.CategoryID').value);
      const products = ctx.initSource('Products', 'Categories');
      const names: unknown[] = [];
      for (; !products.eof; products.next()) names.push(ctx.value('Products.ProductName').value);
      expect(names).toEqual(expected.get(id));
      total += names.length;
    }
    expect(categories.count).toBe(8);
    expect(total).toBe(77);
    expect(ctx.childRows('CategoriesProducts', null)).toEqual([]);
  });

  it('a segment naming a parent data source or a relation jumps to the parent row', () => {
    const ctx = bind(fixtureDictionary('Purchase Order.frx'));
    const categoryName = new Map(rawRows('Categories').map((c) => [c.CategoryID, c.CategoryName]));
    const products = ctx.source('Products');
    for (products.first(); !products.eof; products.next()) {
      const want = categoryName.get(String(ctx.value('Products.CategoryID').value));
      expect(ctx.value('Products.Categories.CategoryName').value).toBe(want);
      expect(ctx.value('Products.CategoriesProducts.CategoryName').value).toBe(want);
    }
    // Two hops, and a data source name with a space.
    const details = ctx.source('Order Details');
    const order = rawRows('Orders').find((o) => o.OrderID === String(ctx.value('Order Details.OrderID').value));
    const shipper = rawRows('Shippers').find((s) => s.ShipperID === order?.ShipVia);
    expect(ctx.value('Order Details.Orders.Shippers.CompanyName').value).toBe(shipper?.CompanyName);
    expect(ctx.value('Order Details.Orders.Freight')).toMatchObject({
      type: 'System.Decimal',
      decimalText: order?.Freight,
    });
    const r = ctx.resolve('Order Details.Products.ProductName');
    expect(r?.source.name).toBe('Order Details');
    expect(r?.hops.map((h) => h.name)).toEqual(['ProductsOrderDetails']);
    expect(r?.path).toEqual(['ProductName']);
    details.next();
    expect(ctx.value(r ?? '').value).toBe(
      rawRows('Products').find((p) => p.ProductID === String(ctx.value('Order Details.ProductID').value))?.ProductName,
    );
  });

  it('an order date keeps its offset through the binding', () => {
    const ctx = bind(fixtureDictionary('Simple List.frx'));
    const emp = ctx.source('Employees');
    emp.setRows(emp.allRows().filter((r) => r[0] === 1));
    expect(ctx.value('Employees.FirstName').value).toBe('Nancy');
    const birth = ctx.value('Employees.BirthDate');
    expect(birth).toMatchObject({ type: 'System.DateTime', offsetMinutes: 180 });
    expect((birth.value as Date).toISOString()).toBe('1968-12-07T21:00:00.000Z');
  });
});

describe('DataContext and cursors', () => {
  const people = [
    { Id: 1, Name: 'Ann', Dept: 10, Salary: '1200.50', Hired: '2020-01-02T09:00:00+02:00' },
    { Id: 2, Name: 'Bob', Dept: 20, Salary: 900 },
    { Id: 3, Name: 'Cy', Dept: null },
  ];
  const depts = [
    { Id: 10, Title: 'Sales' },
    { Id: 20, Title: 'Ops' },
  ];
  const dict: DictionaryInput = {
    dataSources: [
      {
        name: 'People',
        alias: 'Staff',
        columns: [
          { name: 'Id', dataType: 'System.Int32' },
          { name: 'Name', alias: 'FullName', dataType: 'System.String' },
          { name: 'Dept', dataType: 'System.Int32' },
          { name: 'Salary', dataType: 'System.Decimal' },
          { name: 'Hired', dataType: 'System.DateTime' },
          { name: 'Bonus', dataType: 'System.Decimal', calculated: true, expression: '[Staff.Salary] * 0.1' },
        ],
      },
      { name: 'Depts' },
      { name: 'Order' },
      { name: 'Order Details' },
    ],
    relations: [
      {
        name: 'DeptsPeople',
        parentDataSource: 'Depts',
        childDataSource: 'People',
        parentColumns: 'Id',
        childColumns: 'Dept',
      },
    ],
  };
  const data = {
    tables: { People: people, Depts: depts, Order: [{ X: 'order' }], 'Order Details': [{ X: 'details' }] },
  };

  it('plain JS tables: declared types, aliases, decimals and dates, calculated columns', () => {
    const ctx = bindDictionary(dict, data);
    expect(ctx.value('Staff.FullName').value).toBe('Ann');
    expect(ctx.value('People.Salary')).toEqual({ value: 1200.5, type: 'System.Decimal', decimalText: '1200.50' });
    expect(ctx.value('Staff.Hired')).toEqual({
      value: new Date('2020-01-02T07:00:00Z'),
      type: 'System.DateTime',
      offsetMinutes: 120,
    });
    expect(ctx.value('Staff.Bonus')).toEqual({ value: null, type: 'System.Decimal' });
    expect(ctx.source('Staff').columns.find((c) => c.alias === 'Bonus')?.expression).toBe('[Staff.Salary] * 0.1');
    expect(ctx.value('Depts.Title')).toEqual({ value: 'Sales', type: 'System.String' }); // inferred
    const staff = ctx.source('People');
    staff.next();
    expect(ctx.value('Staff.Salary')).toEqual({ value: 900, type: 'System.Decimal' });
    expect(ctx.value('Staff.Hired')).toEqual({ value: null, type: 'System.DateTime', offsetMinutes: null });
  });

  it('longest data source name first, names with spaces, case-insensitive fallback', () => {
    const ctx = bindDictionary(dict, data);
    expect(ctx.value('Order Details.X').value).toBe('details');
    expect(ctx.value('Order.X').value).toBe('order');
    expect(ctx.value('order details.x').value).toBe('details');
    expect(ctx.isDataReference('Order Details.Nope')).toBe(false);
    expect(ctx.isDataReference('Nobody.X')).toBe(false);
    expect(() => ctx.value('Nobody.X')).toThrow(TemplateError);
    expect(() => ctx.source('Nobody')).toThrow(/unknown data source/);
    expect(ctx.tryValue('Page')).toBeUndefined();
  });

  it('relations: child rows by key, parent lookup, null keys match nothing', () => {
    const ctx = bindDictionary(dict, data);
    const people = ctx.source('Staff');
    expect(ctx.value('Staff.Depts.Title').value).toBe('Sales');
    people.position = 2;
    expect(ctx.value('Staff.Depts.Title')).toEqual({ value: null, type: 'System.String' });
    const depts = ctx.source('Depts');
    depts.next();
    expect(ctx.childRows('DeptsPeople', depts.current).map((r) => r[0])).toEqual([2]);
    expect(ctx.parentRow('DeptsPeople', people.current)).toBeNull();
    expect(ctx.relationBetween('Depts', 'Staff')?.name).toBe('DeptsPeople');
  });

  it('cursors walk explicit row lists (filter/sort done by the engine)', () => {
    const ctx = bindDictionary(dict, data);
    const staff = ctx.source('Staff');
    const sorted = [...staff.allRows()].sort((a, b) => String(b[1]).localeCompare(String(a[1])));
    staff.setRows(sorted);
    const names: unknown[] = [];
    for (staff.first(); !staff.eof; staff.next()) names.push(staff.columnValue('FullName').value);
    expect(names).toEqual(['Cy', 'Bob', 'Ann']);
    expect(staff.current).toBeNull();
    expect(staff.columnValue('FullName')).toEqual({ value: null, type: 'System.String' });
    staff.reset();
    expect(staff.count).toBe(3);
    expect(() => staff.columnValue('Nope')).toThrow(/no column "Nope"/);
    const standalone = new DataSourceCursor({ name: 'T', columns: staff.columns }, sorted.slice(0, 1));
    expect(standalone.columnValue('Id').value).toBe(3);
  });

  it('missing data: TemplateError by default, or an empty table with a warning', () => {
    const d: DictionaryInput = { dataSources: [{ name: 'Ghost', referenceName: 'NorthWind.Ghost' }] };
    expect(() => bindDictionary(d, {})).toThrow(/no data supplied for ReferenceName "NorthWind.Ghost"/);
    const warnings = new ReportWarnings();
    const ctx = bindDictionary(d, {}, { missingData: 'empty', warnings });
    expect(ctx.source('Ghost').count).toBe(0);
    expect(warnings.list).toHaveLength(1);
  });

  it('bad supplied values name the row and column', () => {
    const bad = { tables: { ...data.tables, People: [{ Id: 'x' }] } };
    expect(() => bindDictionary(dict, bad)).toThrow(/row 1, column "Id"/);
    expect(() => bindDictionary(dict, { tables: { ...data.tables, People: [1, 2] } })).toThrow(
      /row 1 is not an object/,
    );
    expect(() =>
      bindDictionary(
        {
          ...dict,
          relations: [
            {
              name: 'R',
              parentDataSource: 'Depts',
              childDataSource: 'People',
              parentColumns: ['Id'],
              childColumns: ['Nope'],
            },
          ],
        },
        data,
      ),
    ).toThrow(/no column "Nope"/);
    const warnings = new ReportWarnings();
    bindDictionary(
      {
        ...dict,
        relations: [
          { name: 'R', parentDataSource: 'X', childDataSource: 'People', parentColumns: 'Id', childColumns: 'Id' },
        ],
      },
      data,
      { warnings },
    );
    expect(warnings.list[0]).toMatch(/Relation "R"/);
  });

  it('multi-column relations', () => {
    const ctx = bindDictionary(
      {
        dataSources: [{ name: 'P' }, { name: 'C' }],
        relations: [
          {
            name: 'PC',
            parentDataSource: 'P',
            childDataSource: 'C',
            parentColumns: 'A\r\nB',
            childColumns: ['A', 'B'],
          },
        ],
      },
      {
        tables: {
          P: [
            { A: 1, B: 'x' },
            { A: 1, B: 'y' },
          ],
          C: [
            { A: 1, B: 'y', V: 1 },
            { A: 1, B: 'x', V: 2 },
            { A: '1', B: 'x', V: 3 },
            { A: 1, B: 'y', V: 4 },
          ],
        },
      },
    );
    const p = ctx.source('P');
    expect(ctx.childRows('PC', p.current).map((r) => r[2])).toEqual([2]);
    p.next();
    expect(ctx.childRows('PC', p.current).map((r) => r[2])).toEqual([1, 4]);
  });
});
