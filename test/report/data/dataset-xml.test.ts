import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import { ReportWarnings } from '../../../src/report/errors.js';
import {
  decodeXmlName,
  loadDataSetXml,
  parseDateTime,
  wallClock,
  type DataSet,
  type DataTable,
} from '../../../src/report/data/index.js';
import { FIXTURES } from './frx-dictionary.js';

const NWIND = readFileSync(new URL('nwind.xml', FIXTURES));

function cell(t: DataTable, row: number, col: string): unknown {
  const i = t.columns.findIndex((c) => c.name === col);
  expect(i).toBeGreaterThanOrEqual(0);
  return t.rows[row]?.[i];
}
function rowWhere(t: DataTable, col: string, value: unknown): readonly unknown[] {
  const i = t.columns.findIndex((c) => c.name === col);
  const r = t.rows.find((row) => row[i] === value);
  if (!r) throw new Error(`no row with ${col}=${String(value)}`);
  return r;
}
const at = (t: DataTable, row: readonly unknown[], col: string): unknown =>
  row[t.columns.findIndex((c) => c.name === col)];

describe('loadDataSetXml on nwind.xml', () => {
  let ds: DataSet;
  beforeAll(() => {
    ds = loadDataSetXml(NWIND, { source: 'nwind.xml' });
  });

  it('reads every table with the documented row counts', () => {
    const counts = Object.fromEntries([...ds.tables].map(([n, t]) => [n, t.rows.length]));
    expect(counts).toMatchObject({
      Categories: 8,
      Customers: 91,
      Employees: 9,
      'Order Details': 2206,
      Orders: 881,
      Products: 77,
      Shippers: 3,
      Suppliers: 29,
    });
    expect(ds.name).toBe('NWindDataSet');
  });

  it('decodes _x0020_ in element names', () => {
    expect(ds.tables.has('Order Details')).toBe(true);
    expect(ds.tables.has('Order_x0020_Details')).toBe(false);
    expect(decodeXmlName('Order_x0020_Details')).toBe('Order Details');
    expect(decodeXmlName('A_x002E_B_x0001F600_')).toBe('A.B😀');
    expect(decodeXmlName('plain_name')).toBe('plain_name');
  });

  it('types columns from the inline XSD', () => {
    const types = (t: string): Record<string, string> =>
      Object.fromEntries((ds.tables.get(t) as DataTable).columns.map((c) => [c.name, c.type]));
    expect(types('Order Details')).toEqual({
      OrderID: 'System.Int32',
      ProductID: 'System.Int32',
      UnitPrice: 'System.Decimal',
      Quantity: 'System.Int16',
      Discount: 'System.Single',
    });
    expect(types('Employees')).toMatchObject({
      BirthDate: 'System.DateTime',
      Photo: 'System.Byte[]',
      Notes: 'System.String',
      ReportsTo: 'System.Int32',
    });
    expect(types('Products')).toMatchObject({ Discontinued: 'System.Boolean', UnitsInStock: 'System.Int16' });
    expect(types('Orders')).toMatchObject({ Latitude: 'System.Double', Freight: 'System.Decimal' });
  });

  it('reads known values as plain JS values', () => {
    const emp = ds.tables.get('Employees') as DataTable;
    const nancy = rowWhere(emp, 'EmployeeID', 1);
    expect(at(emp, nancy, 'FirstName')).toBe('Nancy');
    expect(at(emp, nancy, 'LastName')).toBe('Davolio');
    expect(at(emp, nancy, 'Address')).toBe('507 - 20th Ave. E.\nApt. 2A');
    expect(at(emp, nancy, 'ReportsTo')).toBe(2);
    const photo = at(emp, nancy, 'Photo');
    expect(photo).toBeInstanceOf(Uint8Array);
    expect([...(photo as Uint8Array).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]); // JPEG

    // Anne Dodsworth has no <Region>: null, not "".
    const anne = rowWhere(emp, 'EmployeeID', 9);
    expect(at(emp, anne, 'Region')).toBeNull();
    const customers = ds.tables.get('Customers') as DataTable;
    expect(at(customers, rowWhere(customers, 'CustomerID', 'ALFKI'), 'Region')).toBeNull();

    const products = ds.tables.get('Products') as DataTable;
    const gumbo = rowWhere(products, 'ProductID', 5);
    expect(at(products, gumbo, 'ProductName')).toBe("Chef Anton's Gumbo Mix");
    expect(at(products, gumbo, 'UnitPrice')).toBe(21.35);
    expect(at(products, gumbo, 'Discontinued')).toBe(true);
    expect(at(products, rowWhere(products, 'ProductID', 1), 'Discontinued')).toBe(false);
    expect(cell(ds.tables.get('Categories') as DataTable, 0, 'CategoryName')).toBe('Beverages');
  });

  it('keeps the exact decimal text and the date offset in sidecar slots', () => {
    const products = ds.tables.get('Products') as DataTable;
    const col = products.columns.find((c) => c.name === 'UnitPrice');
    expect(col?.extra).toBeGreaterThanOrEqual(products.columns.length);
    expect(rowWhere(products, 'ProductID', 5)[col?.extra as number]).toBe('21.35');

    const orders = ds.tables.get('Orders') as DataTable;
    const o = rowWhere(orders, 'OrderID', 10248);
    const date = at(orders, o, 'OrderDate') as Date;
    const offCol = orders.columns.find((c) => c.name === 'OrderDate');
    // <OrderDate>2013-08-04T00:00:00+04:00</OrderDate>
    expect(date).toBeInstanceOf(Date);
    expect(date.toISOString()).toBe('2013-08-03T20:00:00.000Z');
    expect(o[offCol?.extra as number]).toBe(240);
    expect(wallClock(date, 240).toISOString()).toBe('2013-08-04T00:00:00.000Z');
    expect(at(orders, o, 'Freight')).toBe(32.38);
    expect(at(orders, o, 'Latitude')).toBe(49.26284);
  });

  it('loads well under a second', () => {
    const t0 = performance.now();
    loadDataSetXml(NWIND);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('accepts the same document as a string', () => {
    const fromString = loadDataSetXml(NWIND.toString('utf8'));
    expect(fromString.tables.get('Order Details')?.rows.length).toBe(2206);
  });
});

const SMALL_SCHEMA =
  `<?xml version="1.0" standalone="yes"?>
<Root>
  <xs:schema id="Root" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" ` +
  `xmlns:msdata="urn:schemas-microsoft-com:xml-msdata">
    <xs:element name="Root" msdata:IsDataSet="true">
      <xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded">
        <xs:element name="My_x0020_Table">
          <xs:complexType>
            <xs:sequence>
              <xs:element name="Id" type="xs:long" minOccurs="0" />
              <xs:element name="Code" minOccurs="0"><xs:simpleType><xs:restriction ` +
  `base="xs:string"><xs:maxLength value="5"/></xs:restriction></xs:simpleType></xs:element>
              <xs:element name="Amount" type="xs:decimal" minOccurs="0" />
              <xs:element name="Key" msdata:DataType="System.Guid, mscorlib, Version=4.0.0.0" ` +
  `type="xs:string" minOccurs="0" />
              <xs:element name="When" type="xs:dateTime" minOccurs="0" />
              <xs:element name="Day" type="xs:date" minOccurs="0" />
              <xs:element name="Flag" type="xs:boolean" minOccurs="0" />
              <xs:element name="Ratio" type="xs:double" minOccurs="0" />
            </xs:sequence>
            <xs:attribute name="Kind" type="xs:int" />
          </xs:complexType>
        </xs:element>
      </xs:choice></xs:complexType>
    </xs:element>
  </xs:schema>
  <My_x0020_Table Kind="7">
    <Id>9007199254740991</Id><Code>  ab &amp; c ` +
  `</Code><Amount>12.50</Amount><Key>6F9619FF-8B86-D011-B42D-00C04FC964FF</Key>
    <When>2020-02-29T13:14:15.1234567Z</When><Day>2020-03-01</Day><Flag>1</Flag><Ratio>-INF</Ratio>
  </My_x0020_Table>
  <My_x0020_Table>
    <Id>2</Id><Code/><Amount xsi:nil="true" ` +
  `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/><When>2020-01-01T00:00:00</When><Unknown>x</Unkno` +
  `wn>
  </My_x0020_Table>
  <Stray><A>1</A></Stray>
</Root>`;

describe('loadDataSetXml details', () => {
  it('handles restrictions, msdata:DataType, attributes, nil, empty elements, precision', () => {
    const warnings = new ReportWarnings();
    const ds = loadDataSetXml(SMALL_SCHEMA, { warnings });
    const t = ds.tables.get('My Table') as DataTable;
    expect(t.columns.map((c) => [c.name, c.type])).toEqual([
      ['Id', 'System.Int64'],
      ['Code', 'System.String'],
      ['Amount', 'System.Decimal'],
      ['Key', 'System.Guid'],
      ['When', 'System.DateTime'],
      ['Day', 'System.DateTime'],
      ['Flag', 'System.Boolean'],
      ['Ratio', 'System.Double'],
      ['Kind', 'System.Int32'],
    ]);
    const [r1, r2] = t.rows as [readonly unknown[], readonly unknown[]];
    expect(at(t, r1, 'Id')).toBe(9007199254740991);
    expect(at(t, r1, 'Code')).toBe('  ab & c ');
    expect(at(t, r1, 'Amount')).toBe(12.5);
    expect(r1[t.columns.find((c) => c.name === 'Amount')?.extra as number]).toBe('12.50');
    expect(at(t, r1, 'Key')).toBe('6F9619FF-8B86-D011-B42D-00C04FC964FF');
    expect((at(t, r1, 'When') as Date).toISOString()).toBe('2020-02-29T13:14:15.123Z');
    expect((at(t, r1, 'Day') as Date).toISOString()).toBe('2020-03-01T00:00:00.000Z');
    expect(at(t, r1, 'Flag')).toBe(true);
    expect(at(t, r1, 'Ratio')).toBe(-Infinity);
    expect(at(t, r1, 'Kind')).toBe(7);
    expect(at(t, r2, 'Code')).toBe('');
    expect(at(t, r2, 'Amount')).toBeNull();
    expect(r2[t.columns.find((c) => c.name === 'When')?.extra as number]).toBeNull();
    expect(at(t, r2, 'Kind')).toBeNull();
    expect(warnings.list.join('\n')).toMatch(/Unknown/);
    expect(warnings.list.join('\n')).toMatch(/Stray/);
  });

  it('infers string tables when there is no inline schema', () => {
    const ds = loadDataSetXml('<DS><T><A>1</A><B>x</B></T><T><B>y</B><C>z</C></T><U><A>2</A></U></DS>');
    const t = ds.tables.get('T') as DataTable;
    expect(t.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'A:System.String',
      'B:System.String',
      'C:System.String',
    ]);
    expect(t.rows.map((r) => [...r])).toEqual([
      ['1', 'x', null],
      [null, 'y', 'z'],
    ]);
    expect(ds.tables.get('U')?.rows.length).toBe(1);
  });

  it('reads DiffGram documents (current rows only)', () => {
    const xml =
      `<diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" ` +
      `xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1">
      <NewDataSet><T diffgr:id="T1" msdata:rowOrder="0"><A>new</A></T></NewDataSet>
      <diffgr:before><T diffgr:id="T1" msdata:rowOrder="0"><A>old</A></T></diffgr:before>
    </diffgr:diffgram>`;
    const ds = loadDataSetXml(xml);
    expect(ds.name).toBe('NewDataSet');
    expect(ds.tables.get('T')?.rows.map((r) => [...r])).toEqual([['new']]);
  });

  it('reads UTF-16 with a BOM and a declared single-byte encoding', () => {
    const xml = '<?xml version="1.0"?><D><T><A>Ünïcödé</A></T></D>';
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]);
    expect(loadDataSetXml(utf16).tables.get('T')?.rows[0]?.[0]).toBe('Ünïcödé');
    const latin = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><D><T><A>caf\xe9</A></T></D>', 'latin1');
    expect(loadDataSetXml(latin).tables.get('T')?.rows[0]?.[0]).toBe('café');
  });

  it('parses XSD date/time forms', () => {
    expect(parseDateTime('2013-08-04T00:00:00+04:00')).toEqual({
      date: new Date('2013-08-03T20:00:00Z'),
      offsetMinutes: 240,
    });
    expect(parseDateTime('2013-08-04T00:00:00-05:30')?.offsetMinutes).toBe(-330);
    expect(parseDateTime('2013-08-04T00:00:00')).toEqual({
      date: new Date('2013-08-04T00:00:00Z'),
      offsetMinutes: null,
    });
    expect(parseDateTime('0001-01-01T00:00:00')?.date.getUTCFullYear()).toBe(1);
    expect(parseDateTime('2013-02-30T00:00:00')).toBeUndefined();
    expect(parseDateTime('2013-08-04T25:00:00')).toBeUndefined();
    expect(parseDateTime('yesterday')).toBeUndefined();
  });
});

describe('loadDataSetXml on bad input', () => {
  const bad = (input: string | Buffer, opts = {}): TemplateError => {
    try {
      loadDataSetXml(input, opts);
    } catch (e) {
      expect(e).toBeInstanceOf(TemplateError);
      return e as TemplateError;
    }
    throw new Error('expected a TemplateError');
  };

  it('rejects malformed XML with a position', () => {
    expect(bad('<D><T><A>1</B></T></D>').message).toMatch(/malformed XML.*1:/);
    expect(bad('<D><T>').message).toMatch(/malformed XML/);
    expect(bad('').message).toMatch(/malformed XML/);
  });

  it('rejects DTDs and entities (billion laughs)', () => {
    const lol =
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 ` +
      `"&lol;&lol;&lol;&lol;">]><D><T><A>&lol2;</A></T></D>`;
    expect(bad(lol).message).toMatch(/DOCTYPE/);
    expect(bad('<D><T><A>&ext;</A></T></D>').message).toMatch(/entity/);
  });

  it('enforces the size limit before parsing', () => {
    const t0 = performance.now();
    expect(bad(Buffer.alloc(2048, 0x20), { maxBytes: 1024 }).message).toMatch(/too large/);
    expect(bad('x'.repeat(2048), { maxBytes: 1024 }).message).toMatch(/too large/);
    expect(performance.now() - t0).toBeLessThan(100);
  });

  it('rejects deep nesting quickly', () => {
    const deep = '<a>'.repeat(100_000) + '</a>'.repeat(100_000);
    const t0 = performance.now();
    expect(bad(deep).message).toMatch(/nested too deeply/);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('limits rows and columns', () => {
    const rows = `<D>${'<T><A>1</A></T>'.repeat(50)}</D>`;
    expect(bad(rows, { maxRows: 10 }).message).toMatch(/too many rows/);
    const cols = `<D><T>${Array.from({ length: 20 }, (_, i) => `<C${i}>1</C${i}>`).join('')}</T></D>`;
    expect(bad(cols, { maxColumns: 5 }).message).toMatch(/too many columns/);
  });

  it('names table, row and column for a bad typed value', () => {
    const xml = SMALL_SCHEMA.replace('<Id>2</Id>', '<Id>two</Id>');
    expect(bad(xml).message).toMatch(/table "My Table", row 2, column "Id".*not a valid System.Int64/);
    expect(bad(SMALL_SCHEMA.replace('<Flag>1</Flag>', '<Flag>maybe</Flag>')).message).toMatch(/System.Boolean/);
    expect(bad(SMALL_SCHEMA.replace('2020-03-01', '2020-13-01')).message).toMatch(/System.DateTime/);
  });

  it('rejects invalid UTF-8 and unsupported encodings', () => {
    expect(bad(Buffer.from([0x3c, 0x44, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x44, 0x3e])).message).toMatch(/not valid utf-8/);
    expect(bad(Buffer.from('<?xml version="1.0" encoding="x-made-up"?><D/>')).message).toMatch(
      /unsupported XML encoding/,
    );
  });

  it('rejects nested tables and rows before the schema', () => {
    const nested = SMALL_SCHEMA.replace(
      '<xs:element name="Ratio" type="xs:double" minOccurs="0" />',
      '<xs:element name="Child"><xs:complexType><xs:sequence><xs:element name="X" ' +
        'type="xs:int"/></xs:sequence></xs:complexType></xs:element>',
    );
    expect(bad(nested).message).toMatch(/nested tables/);
    const late = SMALL_SCHEMA.replace('<Root>', '<Root><Early><A>1</A></Early>');
    expect(bad(late).message).toMatch(/schema must come before/);
  });
});
