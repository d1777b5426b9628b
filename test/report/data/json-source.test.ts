import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDictionary } from './frx-dictionary.js';
import { TemplateError } from '../../../src/report/errors.js';
import {
  JSON_TYPE,
  bindDictionary,
  bindJson,
  encryptConnectionString,
  formatConnectionString,
  inferSchema,
  parseConnectionString,
  parseJsonConnectionString,
  parseJsonText,
  schemaToStored,
  type ColumnDef,
  type DataContext,
} from '../../../src/report/data/index.js';

const shape = (cols: readonly ColumnDef[]): unknown =>
  cols.map((c) => {
    const base = `${c.alias}:${c.type}${c.nested ? `=>${c.nested.name}` : ''}`;
    return c.columns ? { [base]: shape(c.columns) } : base;
  });
const v = (ctx: DataContext, ref: string): unknown => ctx.value(ref).value;

describe('JSON connection: tables and columns', () => {
  it('an array root: index, item (with properties), array', () => {
    const data = [
      { name: 'a', n: 1, ok: true },
      { name: 'b', extra: null },
    ];
    const ctx = bindJson(data);
    const json = ctx.source('JSON');
    expect(shape(json.columns)).toEqual([
      'index:System.Int32',
      { [`item:${JSON_TYPE}`]: ['name:System.String', 'n:System.Double', 'ok:System.Boolean', 'extra:System.Object'] },
      `array:${JSON_TYPE}`,
    ]);
    expect(json.count).toBe(2);
    expect(v(ctx, 'JSON.item.name')).toBe('a');
    expect(ctx.value('JSON.item.n')).toEqual({ value: 1, type: 'System.Double' });
    expect(v(ctx, 'JSON.index')).toBe(0);
    expect(v(ctx, 'JSON.array')).toBe(data);
    expect(v(ctx, 'JSON.item')).toBe(data[0]);
    json.next();
    expect(v(ctx, 'JSON.item.name')).toBe('b');
    expect(ctx.value('JSON.item.n')).toEqual({ value: null, type: 'System.Double' }); // missing property
    expect(v(ctx, 'JSON.item.extra')).toBeNull();
    expect(v(ctx, 'JSON.index')).toBe(1);
    json.next();
    expect(json.eof).toBe(true);
    expect(ctx.value('JSON.item.name')).toEqual({ value: null, type: 'System.String' });
  });

  it('a single-object root is wrapped in an array (SRS: command → rows, dtsingle → object)', () => {
    const root = {
      orders: [
        { id: 1, total: 5 },
        { id: 2, total: 7.5 },
      ],
      head: { title: 'T', count: 2 },
    };
    const ctx = bindJson(root);
    expect(ctx.source('JSON').count).toBe(1);
    expect(v(ctx, 'JSON.item.head.title')).toBe('T');
    expect(ctx.value('JSON.item.head.count')).toEqual({ value: 2, type: 'System.Double' });
    expect(v(ctx, 'JSON.item.orders.item.total')).toBe(5);
    const orders = ctx.source('orders');
    expect(orders.alias).toBe('orders');
    expect(orders.count).toBe(2);
    orders.next();
    expect(v(ctx, 'JSON.item.orders.item.total')).toBe(7.5);
    expect(v(ctx, 'JSON.item.orders.index')).toBe(1);
    expect(v(ctx, 'orders.item.id')).toBe(2);
    expect(ctx.value('JSON.item.orders').type).toBe(JSON_TYPE);
  });

  it('nested tables read their rows from the parent current row (master-detail without relations)', () => {
    const data = [
      {
        name: 'c1',
        orders: [
          { total: 1, lines: [{ q: 1 }, { q: 2 }] },
          { total: 2, lines: [] },
        ],
      },
      { name: 'c2', orders: [{ total: 3, lines: [{ q: 3 }] }] },
      { name: 'c3' },
    ];
    const ctx = bindJson(data);
    const json = ctx.source('JSON');
    const orders = ctx.source('orders');
    const lines = ctx.source('lines');
    const seen: string[] = [];
    for (json.first(); !json.eof; json.next()) {
      for (orders.first(); !orders.eof; orders.next()) {
        const qs: unknown[] = [];
        for (lines.first(); !lines.eof; lines.next()) qs.push(v(ctx, 'JSON.item.orders.item.lines.item.q'));
        seen.push(`${String(v(ctx, 'JSON.item.name'))}/${String(v(ctx, 'orders.item.total'))}:${qs.join(',')}`);
      }
    }
    expect(seen).toEqual(['c1/1:1,2', 'c1/2:', 'c2/3:3']);
    // A filtered/sorted list set by the engine holds while the parent row stays.
    json.first();
    orders.setRows([...orders.allRows()].reverse());
    expect(v(ctx, 'orders.item.total')).toBe(2);
    expect(v(ctx, 'orders.index')).toBe(1); // index is the position in the JSON array
    json.next();
    expect(orders.count).toBe(1);
    expect(v(ctx, 'orders.item.total')).toBe(3);
  });

  it('nested table names are unique among data sources; aliases are property names', () => {
    const ctx = bindDictionary(
      {
        dataSources: [{ name: 'items' }],
        jsonConnections: [{ name: 'Conn' }],
      },
      { tables: { items: [{ x: 1 }] }, json: { a: [{ items: [{ p: 1 }] }], b: [{ items: [{ p: 2 }] }] } },
    );
    expect(ctx.sources.map((s) => `${s.name}/${s.alias}`)).toEqual([
      'items/items',
      'JSON/JSON',
      'a/a',
      'b/b',
      'items1/items',
      'items2/items',
    ]);
    expect(v(ctx, 'JSON.item.b.item.items.item.p')).toBe(2);
    expect(v(ctx, 'JSON.item.a.item.items.item.p')).toBe(1);
    expect(v(ctx, 'items.x')).toBe(1);
  });

  it('arrays of scalars and arrays of arrays', () => {
    const ctx = bindJson([[1, 2], [3]]);
    expect(shape(ctx.source('JSON').columns)).toEqual([
      'index:System.Int32',
      { [`item:${JSON_TYPE}=>item`]: ['index:System.Int32', 'item:System.Double', `array:${JSON_TYPE}`] },
      `array:${JSON_TYPE}`,
    ]);
    expect(v(ctx, 'JSON.item.item')).toBe(1);
    ctx.source('item').next();
    expect(v(ctx, 'JSON.item.item')).toBe(2);
    expect(bindJson({ tags: ['x', 'y'] }).value('JSON.item.tags.item')).toEqual({ value: 'x', type: 'System.String' });
  });

  it('an empty root or no data gives a table without rows', () => {
    expect(bindJson([]).source('JSON').count).toBe(0);
    expect(bindJson(null).source('JSON').count).toBe(0);
    expect(bindJson(undefined).source('JSON').count).toBe(0);
    expect(bindJson([]).value('JSON.item')).toEqual({ value: null, type: 'System.Object' });
  });
});

describe('JSON schema inference (FastReport rules)', () => {
  const types = (data: unknown): unknown => schemaToStored(inferSchema(data));

  it('strings, numbers (always double), booleans, null, objects, arrays', () => {
    expect(types([{ s: 'x', i: 1, f: 1.5, b: false, z: null, o: { k: 1 }, a: [1] }])).toEqual({
      type: 'array',
      items: {
        type: 'object',
        properties: {
          s: { type: 'string' },
          i: { type: 'number' },
          f: { type: 'number' },
          b: { type: 'boolean' },
          z: { type: 'null' },
          o: { type: 'object', properties: { k: { type: 'number' } } },
          a: { type: 'array', items: { type: 'number' } },
        },
      },
    });
  });

  it('unions element schemas: properties merge, different types become null (System.Object)', () => {
    const s = inferSchema([{ a: 1, b: 'x' }, { a: 'one', c: true }, { b: 'y' }]);
    expect(schemaToStored(s)).toEqual({
      type: 'array',
      items: { type: 'object', properties: { a: { type: 'null' }, b: { type: 'string' }, c: { type: 'boolean' } } },
    });
    // A null element makes the item type null and forgets the properties, as in FastReport.
    expect(schemaToStored(inferSchema([{ a: 1 }, null]))).toEqual({ type: 'array', items: { type: 'null' } });
    // An empty array has items without a type.
    expect(schemaToStored(inferSchema([]))).toEqual({ type: 'array', items: {} });
  });

  it('an untyped column still reads the values it holds', () => {
    // A null where other rows hold an array: the property is no nested table, just System.Object.
    const untyped = bindJson([{ o: [{ t: 1 }] }, { o: null }]);
    expect(untyped.findSource('o')).toBeUndefined();
    expect(untyped.value('JSON.item.o').type).toBe('System.Object');
    expect(untyped.value('JSON.item.o').value).toEqual([{ t: 1 }]);
    // An empty array in some row leaves the nested table's item untyped (no known properties).
    const ctx = bindJson([{ o: [{ t: 1 }] }, { o: [] }]);
    const o = ctx.source('o');
    expect(o.columns.find((c) => c.alias === 'item')?.type).toBe('System.Object');
    expect(ctx.value('JSON.item.o.item.t')).toEqual({ value: 1, type: 'System.Double' });
    ctx.source('JSON').next();
    expect(o.count).toBe(0);
    expect(v(ctx, 'JSON.item.o.item.t')).toBeNull();
    expect(ctx.resolve('JSON.item.nothere')).toBeNull();
  });

  it('a stored JsonSchema wins over inference (integer → System.Int32) and is extended by the data', () => {
    const schema = JSON.stringify({
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
    });
    const cs = formatConnectionString([
      ['Json', JSON.stringify([{ id: 1, name: 'n', more: true }])],
      ['JsonSchema', schema],
    ]);
    const ctx = bindDictionary({ jsonConnections: [{ name: 'C', connectionString: cs }] });
    const item = ctx.source('JSON').columns[1] as ColumnDef;
    expect(item.columns?.map((c) => `${c.name}:${c.type}`)).toEqual([
      'id:System.Int32',
      'name:System.String',
      'more:System.Boolean',
    ]);
    expect(v(ctx, 'JSON.item.id')).toBe(1);
  });

  it('declared .frx columns keep their Names, types and columns the data lacks', () => {
    const ctx = bindDictionary(
      {
        jsonConnections: [
          {
            name: 'Connection',
            tables: [
              {
                name: 'JSON',
                columns: [
                  { name: 'index', dataType: 'System.Int32' },
                  {
                    name: 'item',
                    dataType: 'FastReport.JsonBase',
                    columns: [
                      { name: 'title', dataType: 'System.String' },
                      { name: 'gone', dataType: 'System.Decimal' },
                      {
                        name: 'orders2',
                        alias: 'orders',
                        propName: 'orders',
                        table: true,
                        columns: [{ name: 'item', columns: [{ name: 'total', dataType: 'System.Decimal' }] }],
                      },
                    ],
                  },
                  { name: 'array' },
                ],
              },
            ],
          },
        ],
      },
      { json: { title: 'x', orders: [] } },
    );
    expect(ctx.source('orders2').alias).toBe('orders');
    expect(ctx.value('JSON.item.gone')).toEqual({ value: null, type: 'System.Decimal' });
    expect(ctx.value('JSON.item.orders.item.total')).toEqual({ value: null, type: 'System.Decimal' });
    expect(ctx.source('orders').count).toBe(0);
  });

  it('SimpleStructure=true: a table of objects has their properties as columns', () => {
    const cs = formatConnectionString([
      [
        'Json',
        JSON.stringify([
          { a: 1, kids: [{ k: 'x' }] },
          { a: 2, kids: [{ k: 'y' }, { k: 'z' }] },
        ]),
      ],
      ['SimpleStructure', 'true'],
    ]);
    const ctx = bindDictionary({ jsonConnections: [{ name: 'C', connectionString: cs }] });
    expect(shape(ctx.source('JSON').columns)).toEqual([
      'a:System.Double',
      { [`kids:${JSON_TYPE}=>kids`]: ['k:System.String'] },
    ]);
    expect(v(ctx, 'JSON.a')).toBe(1);
    expect(v(ctx, 'JSON.kids.k')).toBe('x');
    ctx.source('JSON').next();
    expect(v(ctx, 'JSON.a')).toBe(2);
    expect(ctx.source('kids').count).toBe(2);
    expect(v(ctx, 'kids.k')).toBe('y');
  });
});

describe('JSON connection strings', () => {
  it('parses Json, JsonSchema and Encoding, raw or base64, quoted as DbConnectionStringBuilder writes', () => {
    const json = '[{"a":"it\'s; ok"}]';
    const cs = formatConnectionString([
      ['Json', json],
      ['JsonSchema', ''],
      ['Encoding', 'utf-8'],
    ]);
    expect(cs).toBe(`Json="[{""a"":""it's; ok""}]";JsonSchema=;Encoding=utf-8`);
    expect(parseJsonConnectionString(cs)).toMatchObject({
      json,
      jsonSchema: '',
      encoding: 'utf-8',
      simpleStructure: false,
    });
    const b64 = Buffer.from('{"x":1}').toString('base64');
    expect(parseJsonConnectionString(`Json=${b64};Encoding=utf-8`).json).toBe('{"x":1}');
    expect(parseJsonConnectionString(`json='{"x":1}'; ENCODING = utf-8 ;`)).toMatchObject({
      json: '{"x":1}',
      encoding: 'utf-8',
    });
    const headers = parseJsonConnectionString(
      `Json=[];Header0=Authorization:${Buffer.from('Bearer a:b').toString('base64')};Header1=X:1`,
    ).headers;
    expect({ ...headers }).toEqual({ Authorization: 'Bearer a:b', X: '1' });
  });

  it('parse(format(pairs)) gives the pairs back', () => {
    const key = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 =]{0,8}[A-Za-z0-9]$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(key, fc.string({ maxLength: 30 })), {
          selector: (p) => p[0].toLowerCase(),
          maxLength: 5,
        }),
        (pairs) => {
          const parsed = parseConnectionString(formatConnectionString(pairs));
          expect([...parsed]).toEqual(pairs.map(([k, val]) => [k.toLowerCase(), val]));
        },
      ),
    );
  });

  it('rejects broken connection strings and URL sources clearly', () => {
    expect(() => parseConnectionString('Json')).toThrow(TemplateError);
    expect(() => parseConnectionString('Json="[1]')).toThrow(/unterminated/);
    expect(() => parseConnectionString('Json="[1]"x;')).toThrow(/unexpected text/);
    expect(() =>
      bindDictionary({ jsonConnections: [{ name: 'C', connectionString: 'Json=https://example.test/data.json' }] }),
    ).toThrow(/URL/);
  });

  it('reads an encrypted (rij) connection string', () => {
    const data = [{ city: 'Zürich', n: 3 }];
    const cs = encryptConnectionString(
      formatConnectionString([
        ['Json', Buffer.from(JSON.stringify(data)).toString('base64')],
        ['Encoding', 'utf-8'],
      ]),
    );
    expect(cs.startsWith('rijcmlq')).toBe(true);
    const ctx = bindDictionary({ jsonConnections: [{ name: 'C', connectionString: cs }] });
    expect(v(ctx, 'JSON.item.city')).toBe('Zürich');
    expect(() =>
      bindDictionary({ jsonConnections: [{ name: 'C', connectionString: cs }] }, {}, { password: 'other' }),
    ).toThrow(TemplateError);
  });

  it('binds a Dictionary as FastReport serializes a JSON connection', () => {
    const json = JSON.stringify({ title: 'Q3', orders: [{ total: 10 }, { total: 12.5 }] });
    const cs = encryptConnectionString(
      formatConnectionString([
        ['Json', Buffer.from(json).toString('base64')],
        ['JsonSchema', ''],
        ['Encoding', 'utf-8'],
      ]),
    );
    const frx =
      `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp"><Dictionary>
  <JsonDataSourceConnection Name="Connection" ConnectionString="${cs}">
    <JsonTableDataSource Name="JSON" DataType="FastReport.JsonBase" Enabled="true" TableName="JSON">
      <Column Name="index" DataType="System.Int32"/>
      <Column Name="item" DataType="FastReport.JsonBase">
        <Column Name="title" DataType="System.String"/>
        <JsonTableDataSource Name="orders" DataType="FastReport.JsonBase" Enabled="true" ` +
      `TableName="orders" PropName="orders">
          <Column Name="index" DataType="System.Int32"/>
          <Column Name="item" DataType="FastReport.JsonBase"><Column Name="total" DataType="System.Double"/></Column>
          <Column Name="array" DataType="FastReport.JsonBase"/>
        </JsonTableDataSource>
      </Column>
      <Column Name="array" DataType="FastReport.JsonBase"/>
    </JsonTableDataSource>
  </JsonDataSourceConnection>
</Dictionary></Report>`;
    const ctx = bindDictionary(parseDictionary(frx));
    expect(v(ctx, 'JSON.item.title')).toBe('Q3');
    const orders = ctx.initSource('orders', 'JSON');
    const totals: unknown[] = [];
    for (; !orders.eof; orders.next()) totals.push(v(ctx, 'JSON.item.orders.item.total'));
    expect(totals).toEqual([10, 12.5]);
    // The SRS supplies fresh data to the same template.
    const fresh = bindDictionary(parseDictionary(frx), { json: { title: 'Q4', orders: [] } });
    expect(v(fresh, 'JSON.item.title')).toBe('Q4');
    expect(fresh.value('JSON.item.orders.item.total')).toEqual({ value: null, type: 'System.Double' });
  });

  it('supplied data wins over the connection string', () => {
    const cs = formatConnectionString([['Json', '[{"a":1}]']]);
    const ctx = bindDictionary({ jsonConnections: [{ name: 'C', connectionString: cs }] }, { json: '[{"a":2}]' });
    expect(v(ctx, 'JSON.item.a')).toBe(2);
  });
});

describe('JSON on hostile input', () => {
  const err = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(TemplateError);
      return (e as Error).message;
    }
    throw new Error('expected a TemplateError');
  };

  it('malformed text, scalar roots', () => {
    expect(err(() => parseJsonText('[1,2'))).toMatch(/malformed JSON/);
    expect(err(() => parseJsonText('{"a":}'))).toMatch(/malformed JSON/);
    expect(err(() => parseJsonText('42'))).toMatch(/object or an array/);
    expect(err(() => bindJson(42))).toMatch(/object or an array/);
    expect(err(() => bindJson('not json'))).toMatch(/malformed JSON/);
  });

  it('deep nesting fails fast, in text and in JS values', () => {
    const t0 = performance.now();
    expect(err(() => parseJsonText('['.repeat(1_000_000) + ']'.repeat(1_000_000)))).toMatch(/nested too deeply/);
    let deep: unknown = [];
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(err(() => bindJson(deep))).toMatch(/nested too deeply/);
    expect(performance.now() - t0).toBeLessThan(2000);
    // Brackets inside strings do not count.
    expect(parseJsonText(`["${'['.repeat(1000)}"]`)).toHaveLength(1);
  });

  it('size and value-count limits', () => {
    expect(err(() => parseJsonText(`[${'1,'.repeat(1000)}1]`, { maxBytes: 100 }))).toMatch(/too large/);
    expect(err(() => bindJson(new Array(1000).fill(1), { jsonLimits: { maxNodes: 100 } }))).toMatch(/too many values/);
  });

  it('cycles and non-JSON values in supplied data', () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = a;
    expect(err(() => bindJson([a]))).toMatch(/cycle/);
    expect(err(() => bindJson([{ f: () => 1 }]))).toMatch(/function/);
    expect(err(() => bindJson([{ m: new Map() }]))).toMatch(/Map/);
  });

  it('__proto__ and constructor keys are plain data', () => {
    const ctx = bindJson(parseJsonText('[{"__proto__":{"polluted":1},"constructor":"c"}]'));
    expect(v(ctx, 'JSON.item.__proto__.polluted')).toBe(1);
    expect(v(ctx, 'JSON.item.constructor')).toBe('c');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const plain = bindJson([{ a: 1 }]);
    expect(plain.resolve('JSON.item.constructor')).toBeNull();
    expect(plain.resolve('JSON.item.toString')).toBeNull();
    // Untyped (System.Object) columns are read by any property name, own properties only.
    const open = bindJson([{ o: null }, { o: { a: 1 } }]);
    expect(v(open, 'JSON.item.o.toString')).toBeNull();
    open.source('JSON').next();
    expect(open.value('JSON.item.o.a')).toEqual({ value: 1, type: 'System.Double' });
    expect(v(open, 'JSON.item.o.constructor')).toBeNull();
  });
});
