// Merged .frx: a template with the run's data embedded in its JSON connection as raw JSON text.
// It must load again and render the same HTML without a data file, keep the rest of the template
// byte for byte, and carry any data exactly (XML and connection-string escaping).

import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encryptConnectionString,
  formatConnectionString,
  inferSchema,
  parseConnectionString,
  parseJsonConnectionString,
  schemaToStored,
} from '../../../src/report/data/index.js';
import { loadFrx } from '../../../src/report/frx/index.js';
import { renderReport, TemplateError } from '../../../src/report/index.js';
import { mergeDataIntoTemplate, starterTemplate } from '../../../src/report/template/index.js';

const NOW = new Date(Date.UTC(2024, 4, 17, 9, 30));
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function html(template: Buffer | string, json?: unknown): string {
  return String(
    renderReport({ template, format: 'html', now: NOW, ...(json !== undefined ? { data: { json } } : {}) }).output,
  );
}

/** The template's first JSON connection string, as loaded. */
function connectionString(frx: Buffer | string): string {
  return (
    loadFrx(frx).report.dictionary.connections.find((c) => c.type === 'JsonDataSourceConnection')?.connectionString ??
    ''
  );
}

/** The text with every ConnectionString attribute value replaced by a marker. */
const withoutConnectionStrings = (s: string): string => s.replace(/ConnectionString="[^"]*"/g, 'ConnectionString="…"');

// An invoice list as FastReport's designer writes it: BOM, CRLF, base64 Json and JsonSchema
// (with an "integer" the data alone would not give), declared columns, a nested table, totals,
// formats, a title from a single object and a page footer.
const INVOICE_SAMPLE = {
  header: { title: 'Sample', issued: '2020-01-01' },
  invoices: [{ id: 1, customer: 'Old', total: 1, lines: [{ sku: 'S', qty: 1, price: 1 }] }],
};
const INVOICE_SCHEMA = {
  type: 'object',
  properties: {
    header: { type: 'object', properties: { title: { type: 'string' }, issued: { type: 'string' } } },
    invoices: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          customer: { type: 'string' },
          total: { type: 'number' },
          lines: {
            type: 'array',
            items: {
              type: 'object',
              properties: { sku: { type: 'string' }, qty: { type: 'number' }, price: { type: 'number' } },
            },
          },
        },
      },
    },
  },
};
const INVOICE_TEMPLATE = [
  '<?xml version="1.0" encoding="utf-8"?>',
  '<Report ScriptLanguage="CSharp" ReportInfo.Name="Invoices" ReportInfo.Author="Tests" ' +
    'ReportInfo.Created="01/17/2024 03:05:57" ReportInfo.Modified="04/24/2024 16:32:19" ' +
    'ReportInfo.CreatorVersion="2024.2.0.0">',
  '  <Dictionary>',
  `    <JsonDataSourceConnection Name="Connection" ` +
    `ConnectionString="Json=${b64(JSON.stringify(INVOICE_SAMPLE))};JsonSchema` +
    `=${b64(JSON.stringify(INVOICE_SCHEMA))};Encoding=utf-8">`,
  '      <JsonTableDataSource Name="JSON" DataType="FastReport.JsonBase" Enabled="true" TableName="JSON">',
  '        <Column Name="index" DataType="System.Int32"/>',
  '        <Column Name="item" DataType="FastReport.JsonBase">',
  '          <Column Name="header" DataType="FastReport.JsonBase">',
  '            <Column Name="title" DataType="System.String"/>',
  '            <Column Name="issued" DataType="System.String"/>',
  '          </Column>',
  '          <JsonTableDataSource Name="invoices" DataType="FastReport.JsonBase" Enabled="true">',
  '            <Column Name="index" DataType="System.Int32"/>',
  '            <Column Name="item" DataType="FastReport.JsonBase">',
  '              <Column Name="id" DataType="System.Int32"/>',
  '              <Column Name="customer" DataType="System.String"/>',
  '              <Column Name="total" DataType="System.Double"/>',
  '              <JsonTableDataSource Name="lines" DataType="FastReport.JsonBase" Enabled="true">',
  '                <Column Name="index" DataType="System.Int32"/>',
  '                <Column Name="item" DataType="FastReport.JsonBase">',
  '                  <Column Name="sku" DataType="System.String"/>',
  '                  <Column Name="qty" DataType="System.Double"/>',
  '                  <Column Name="price" DataType="System.Double"/>',
  '                </Column>',
  '                <Column Name="array" DataType="FastReport.JsonBase"/>',
  '              </JsonTableDataSource>',
  '            </Column>',
  '            <Column Name="array" DataType="FastReport.JsonBase"/>',
  '          </JsonTableDataSource>',
  '        </Column>',
  '        <Column Name="array" DataType="FastReport.JsonBase"/>',
  '      </JsonTableDataSource>',
  '    </JsonDataSourceConnection>',
  '    <Total Name="GrandTotal" Expression="[JSON.item.invoices.item.total]" Evaluator="Data1"/>',
  '    <Total Name="InvoiceCount" TotalType="Count" Evaluator="Data1"/>',
  '  </Dictionary>',
  '  <ReportPage Name="Page1" Watermark.Font="Arial, 60pt">',
  '    <ReportTitleBand Name="ReportTitle1" Width="718.2" Height="37.8">',
  '      <TextObject Name="Text1" Width="500" Height="28.35" Text="[JSON.item.header.title] ' +
    '([JSON.item.header.issued])" Font="Tahoma, 14pt, style=Bold"/>',
  '    </ReportTitleBand>',
  '    <DataBand Name="Data1" Top="41.8" Width="718.2" Height="18.9" Fill.Color="WhiteSmoke" ' +
    'DataSource="invoices" PrintIfDetailEmpty="true">',
  '      <TextObject Name="Text2" Width="94.5" Height="18.9" Text="[JSON.item.invoices.item.id]" Font="Tahoma, 8pt"/>',
  '      <TextObject Name="Text3" Left="94.5" Width="300" Height="18.9" CanGrow="true" ' +
    'Text="[JSON.item.invoices.item.customer]" Font="Tahoma, 8pt"/>',
  '      <TextObject Name="Text4" Left="500" Width="120" Height="18.9" ' +
    'Text="[JSON.item.invoices.item.total]" Format="Currency" Format.UseLocale="true" HorzAlign="Right" ' +
    'Font="Tahoma, 8pt"/>',
  '      <DataBand Name="Data2" Top="64.7" Width="718.2" Height="18.9" DataSource="lines">',
  '        <TextObject Name="Text5" Left="37.8" Width="200" Height="18.9" ' +
    'Text="[JSON.item.invoices.item.lines.item.sku]" Font="Tahoma, 8pt"/>',
  '        <TextObject Name="Text6" Left="250" Width="100" Height="18.9" ' +
    'Text="[JSON.item.invoices.item.lines.item.qty] × [JSON.item.invoices.item.lines.item.price]" ' +
    'Font="Tahoma, 8pt"/>',
  '        <TextObject Name="Text7" Left="400" Width="120" Height="18.9" ' +
    'Text="[[JSON.item.invoices.item.lines.item.qty] * [JSON.item.invoices.item.lines.item.price]]" ' +
    'Format="Number" Format.UseLocale="true" Format.DecimalDigits="2" HorzAlign="Right" Font="Tahoma, 8pt"/>',
  '      </DataBand>',
  '    </DataBand>',
  '    <ReportSummaryBand Name="ReportSummary1" Top="87.6" Width="718.2" Height="18.9">',
  '      <TextObject Name="Text8" Width="500" Height="18.9" Text="[InvoiceCount] invoices, total ' +
    '[FormatCurrency([GrandTotal])]" Font="Tahoma, 8pt, style=Bold"/>',
  '    </ReportSummaryBand>',
  '    <PageFooterBand Name="PageFooter1" Top="110.5" Width="718.2" Height="18.9">',
  '      <TextObject Name="Text9" Left="600" Width="118.2" Height="18.9" Text="[PageN]" HorzAlign="Right" ' +
    'Font="Tahoma, 8pt"/>',
  '    </PageFooterBand>',
  '  </ReportPage>',
  '</Report>',
  '',
].join('\r\n');
const INVOICE_BYTES = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(INVOICE_TEMPLATE, 'utf8')]);

const INVOICE_RUN = {
  header: { title: 'Invoices "Q3" & <more>', issued: '2024-09-30' },
  invoices: [
    {
      id: 101,
      customer: 'O\'Brien; Söhne = "Partner"',
      total: 1234.5,
      lines: [
        { sku: 'A-1', qty: 2, price: 10.25 },
        { sku: 'B-2', qty: 1, price: 0.1 },
      ],
    },
    { id: 102, customer: '日本語 🎉\nzweite Zeile', total: 0, lines: [] },
    { id: 103, customer: null, total: 99.99, lines: [{ sku: ']]>', qty: 3, price: 33.33 }], extra: true },
  ],
};

// A list with an encrypted (rij) connection string as older FastReport versions store it, with
// a URL header (credentials) and a ConnectionStringExpression, and no declared columns.
const ORDERS_SAMPLE = [{ city: 'Old', n: 0 }];
const ORDERS_PLAIN = formatConnectionString([
  ['Json', b64(JSON.stringify(ORDERS_SAMPLE))],
  ['JsonSchema', ''],
  ['Encoding', 'utf-16'],
  ['Header0', `Authorization:${b64('Bearer s3cret:token')}`],
]);
const ORDERS_TEMPLATE =
  `<?xml version="1.0" encoding="utf-8"?>
<Report ScriptLanguage="CSharp" ReportInfo.Name="Cities">
  <Dictionary>
    <JsonDataSourceConnection Name="Connection" ` +
  `ConnectionString="${encryptConnectionString(ORDERS_PLAIN)}" ` +
  `ConnectionStringExpression="[ConnectionFromParameter]">
      <JsonTableDataSource Name="JSON" DataType="FastReport.JsonBase" Enabled="true" TableName="JSON"/>
    </JsonDataSourceConnection>
    <Parameter Name="ConnectionFromParameter" DataType="System.String"/>
  </Dictionary>
  <ReportPage Name="Page1">
    <DataBand Name="Data1" Width="718.2" Height="18.9" DataSource="JSON">
      <TextObject Name="Text1" Width="300" Height="18.9" Text="[JSON.item.city]"/>
      <TextObject Name="Text2" Left="300" Width="100" Height="18.9" Text="[JSON.item.n]" ` +
  `Format="Number" Format.UseLocale="true"/>
      <TextObject Name="Text3" Left="400" Width="200" Height="18.9" Text="[IIf([JSON.item.note] == ` +
  `null, &quot;-&quot;, [JSON.item.note])]"/>
    </DataBand>
  </ReportPage>
</Report>
`;
const ORDERS_RUN = [
  { city: 'Zürich', n: 1234.5678, note: 'fragile' },
  { city: 'Αθήνα', n: -2, note: null },
  { city: 'Москва', n: 1e21 },
];

describe('mergeDataIntoTemplate: a FastReport-style template with a plain connection string', () => {
  const merged = mergeDataIntoTemplate(INVOICE_BYTES, INVOICE_RUN);

  it('renders the same HTML without the data file as the template with it', () => {
    const expected = html(INVOICE_BYTES, INVOICE_RUN);
    expect(expected).not.toBe(html(INVOICE_BYTES)); // the template's own sample differs
    expect(html(merged)).toBe(expected);
    expect(expected).toContain('O\'Brien; Söhne = "Partner"');
    expect(expected).toContain('3 invoices, total $1,334.49');
  });

  it('embeds the data as raw JSON text, neither base64 nor encrypted', () => {
    const cs = connectionString(merged);
    const pairs = parseConnectionString(cs);
    expect(pairs.get('json')).toBe(JSON.stringify(INVOICE_RUN));
    expect(JSON.parse(pairs.get('json') ?? '')).toEqual(INVOICE_RUN);
    expect(pairs.get('encoding')).toBe('utf-8');
    expect([...pairs.keys()]).toEqual(['json', 'jsonschema', 'encoding']);
    expect(cs.startsWith('Json=')).toBe(true);
  });

  it('keeps the stored schema (integer stays) and adds what the data has', () => {
    const schema = JSON.parse(
      parseJsonConnectionString(connectionString(merged)).jsonSchema,
    ) as typeof INVOICE_SCHEMA & { properties: { invoices: { items: { properties: Record<string, unknown> } } } };
    expect(schema.type).toBe('object');
    expect(schema.properties.invoices.items.properties.id).toEqual({ type: 'integer' });
    expect(schema.properties.invoices.items.properties.extra).toEqual({ type: 'boolean' });
  });

  it('keeps everything else byte for byte: BOM, CRLF, attributes, other elements', () => {
    expect(merged.charCodeAt(0)).toBe(0xfeff);
    expect(withoutConnectionStrings(merged)).toBe(withoutConnectionStrings(`\ufeff${INVOICE_TEMPLATE}`));
    expect(merged.split('\r\n')).toHaveLength(INVOICE_TEMPLATE.split('\r\n').length);
  });

  it('merging again with other data replaces the data', () => {
    const again = mergeDataIntoTemplate(merged, INVOICE_SAMPLE);
    expect(html(again)).toBe(html(INVOICE_BYTES, INVOICE_SAMPLE));
    expect(withoutConnectionStrings(again)).toBe(withoutConnectionStrings(merged));
  });
});

describe('mergeDataIntoTemplate: an encrypted (rij) connection string', () => {
  const merged = mergeDataIntoTemplate(ORDERS_TEMPLATE, ORDERS_RUN);

  it('renders the same HTML without the data file', () => {
    expect(html(merged)).toBe(html(ORDERS_TEMPLATE, ORDERS_RUN));
    expect(html(merged)).toContain('Москва');
  });

  it('replaces the rij string by a plain one and drops headers and the expression', () => {
    const cs = connectionString(merged);
    expect(cs.startsWith('rij')).toBe(false);
    const pairs = parseConnectionString(cs);
    expect([...pairs.keys()]).toEqual(['json', 'jsonschema', 'encoding']);
    expect(pairs.get('encoding')).toBe('utf-16'); // the template's choice is kept
    expect(cs).not.toContain('s3cret');
    expect(merged).not.toContain('ConnectionStringExpression');
    expect(JSON.parse(pairs.get('jsonschema') ?? '')).toEqual(
      schemaToStored(inferSchema(JSON.parse(JSON.stringify(ORDERS_RUN)))),
    );
    const withoutAttrs = (s: string): string =>
      withoutConnectionStrings(s).replace(' ConnectionStringExpression="[ConnectionFromParameter]"', '');
    expect(withoutAttrs(merged)).toBe(withoutAttrs(ORDERS_TEMPLATE));
  });

  it('needs the right password for a template encrypted with another one', () => {
    const other = ORDERS_TEMPLATE.replace(
      /ConnectionString="[^"]*"/,
      `ConnectionString="${encryptConnectionString(ORDERS_PLAIN, 'app password')}"`,
    );
    expect(() => mergeDataIntoTemplate(other, ORDERS_RUN)).toThrow(TemplateError);
    const merged2 = mergeDataIntoTemplate(other, ORDERS_RUN, { password: 'app password' });
    expect(html(merged2)).toBe(html(ORDERS_TEMPLATE, ORDERS_RUN));
  });

  it('keeps SimpleStructure', () => {
    const simple = ORDERS_TEMPLATE.replace(
      /ConnectionString="[^"]*"/,
      `ConnectionString="${esc(
        formatConnectionString([
          ['Json', '[]'],
          ['SimpleStructure', 'true'],
        ]),
      )}"`,
    ).replaceAll('JSON.item.', 'JSON.');
    const m = mergeDataIntoTemplate(simple, ORDERS_RUN);
    expect(parseConnectionString(connectionString(m)).get('simplestructure')).toBe('true');
    expect(html(m)).toBe(html(simple, ORDERS_RUN));
    expect(html(m)).toContain('Αθήνα');
  });
});

describe('mergeDataIntoTemplate: several JSON connections', () => {
  it('embeds the data in each (as our engine feeds each the run data)', () => {
    const template =
      `<Report>
  <Dictionary>
    <JsonDataSourceConnection Name="A" ConnectionString="Json=[{&quot;x&quot;:&quot;a&quot;}]">
      <JsonTableDataSource Name="JSON" DataType="FastReport.JsonBase" Enabled="true" TableName="JSON"/>
    </JsonDataSourceConnection>
    <JsonDataSourceConnection Name="B" ConnectionString="${encryptConnectionString('Json=[{"x":"b"}]')}">
      <JsonTableDataSource Name="Other" DataType="FastReport.JsonBase" Enabled="true" TableName="JSON"/>
    </JsonDataSourceConnection>
  </Dictionary>
  <ReportPage Name="Page1">
    <DataBand Name="Data1" Width="718.2" Height="18.9" DataSource="JSON"><TextObject Name="Text1" ` +
      `Width="300" Height="18.9" Text="A: [JSON.item.x]"/></DataBand>
    <DataBand Name="Data2" Width="718.2" Height="18.9" DataSource="Other"><TextObject Name="Text2" ` +
      `Width="300" Height="18.9" Text="B: [Other.item.x]"/></DataBand>
  </ReportPage>
</Report>`;
    const data = [{ x: 'one' }, { x: 'two' }];
    const merged = mergeDataIntoTemplate(template, data);
    const strings = loadFrx(merged).report.dictionary.connections.map(
      (c) => parseJsonConnectionString(c.connectionString).json,
    );
    expect(strings).toEqual([JSON.stringify(data), JSON.stringify(data)]);
    expect(html(merged)).toBe(html(template, data));
    expect(html(merged)).toContain('B: two');
  });
});

describe('mergeDataIntoTemplate: a template without a JSON connection', () => {
  const page =
    `<ReportPage Name="Page1">
    <ReportTitleBand Name="ReportTitle1" Width="718.2" Height="18.9"><TextObject Name="Text1" ` +
    `Width="300" Height="18.9" Text="[JSON.item.customer.name]"/></ReportTitleBand>
    <DataBand Name="Data1" Width="718.2" Height="18.9" DataSource="orders"><TextObject Name="Text2" ` +
    `Width="300" Height="18.9" Text="[JSON.item.orders.item.total]"/></DataBand>
  </ReportPage>`;
  const data = { customer: { name: 'Ada & Co', 'unit price': 3 }, orders: [{ total: 1.5 }, { total: 2 }] };
  const variants: Record<string, string> = {
    'no Dictionary': `<Report ScriptLanguage="CSharp">\n  ${page}\n</Report>`,
    'an empty <Dictionary/>': `<Report>\n  <Dictionary/>\n  ${page}\n</Report>`,
    'a Dictionary with a parameter and a data source':
      `<Report>\n  <Dictionary>\n    <Parameter Name="P" DataType="System.String"/>\n    <TableDataSource ` +
      `Name="Other" ReferenceName="Data.Other" DataType="System.Int32" Enabled="true"/>\n  ` +
      `</Dictionary>\n  ${page}\n</Report>`,
    'styles before the page':
      `<Report>\n  <Styles>\n    <Style Name="S1" ` + `Font="Arial, 12pt"/>\n  ` + `</Styles>\n  ${page}\n</Report>`,
  };

  it.each(Object.keys(variants))('adds a JSON connection (%s) and renders the same', (name) => {
    const template = variants[name] as string;
    const merged = mergeDataIntoTemplate(template, data);
    expect(html(merged)).toBe(html(template, data));
    expect(html(merged)).toContain('Ada &amp; Co');
    const { report, warnings } = loadFrx(merged);
    expect(warnings.filter((w) => !w.includes('Other'))).toEqual([]);
    const conn = report.dictionary.connections[0];
    expect(conn).toMatchObject({ type: 'JsonDataSourceConnection', name: 'Connection' });
    expect(conn?.dataSources[0]).toMatchObject({ name: 'JSON', tableName: 'JSON' });
    // Columns as FastReport's designer would create them: JSON names as they are.
    expect(merged).toContain('<Column Name="unit price" DataType="System.Double"/>');
    expect(merged).toContain('<JsonTableDataSource Name="orders" DataType="FastReport.JsonBase" Enabled="true">');
    // Only an insertion: removing it gives the template back.
    expect(
      merged
        .replace(/\n?[ \t]*<JsonDataSourceConnection[\s\S]*?<\/JsonDataSourceConnection>/, '')
        .replace(/\n?[ \t]*<Dictionary>\n?[ \t]*<\/Dictionary>/, ''),
    ).toBe(template.replace('\n  <Dictionary/>', ''));
  });
});

describe('mergeDataIntoTemplate: inputs and escaping', () => {
  it('carries any JSON data exactly (XML and connection-string escaping)', () => {
    const obj = fc.dictionary(
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }),
      { maxKeys: 5 },
    );
    fc.assert(
      fc.property(fc.oneof(obj, fc.array(obj, { maxLength: 3 })), (data) => {
        const merged = mergeDataIntoTemplate(ORDERS_TEMPLATE, data);
        const fields = parseJsonConnectionString(connectionString(merged));
        expect(JSON.parse(fields.json)).toEqual(JSON.parse(JSON.stringify(data)));
        expect(merged.includes('\ufffe') || merged.includes('\uffff')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('writes JS values as JSON does (dates, bytes, NaN), and accepts JSON text', () => {
    const merged = mergeDataIntoTemplate(ORDERS_TEMPLATE, [
      {
        city: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
        n: Number.NaN,
        bytes: new Uint8Array([1, 2, 255]),
        skip: undefined,
      },
    ]);
    expect(JSON.parse(parseJsonConnectionString(connectionString(merged)).json)).toEqual([
      { city: '2024-01-02T03:04:05.000Z', n: null, bytes: 'AQL/' },
    ]);
    const fromText = mergeDataIntoTemplate(ORDERS_TEMPLATE, ' [ {"city": "A"} ] ');
    expect(parseJsonConnectionString(connectionString(fromText)).json).toBe('[{"city":"A"}]');
  });

  it('reads UTF-16 and gzip templates and writes UTF-8 text', () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(ORDERS_TEMPLATE.replace('encoding="utf-8"', 'encoding="utf-16"'), 'utf16le'),
    ]);
    const m16 = mergeDataIntoTemplate(utf16, ORDERS_RUN);
    expect(m16.startsWith('\ufeff<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    expect(html(m16)).toBe(html(ORDERS_TEMPLATE, ORDERS_RUN));
    const mz = mergeDataIntoTemplate(gzipSync(Buffer.from(ORDERS_TEMPLATE)), ORDERS_RUN);
    expect(mz).toBe(mergeDataIntoTemplate(ORDERS_TEMPLATE, ORDERS_RUN));
    expect(withoutConnectionStrings(mz)).toBe(
      withoutConnectionStrings(ORDERS_TEMPLATE).replace(' ConnectionStringExpression="[ConnectionFromParameter]"', ''),
    );
  });

  it('refuses what it cannot merge with a TemplateError', () => {
    expect(() => mergeDataIntoTemplate(ORDERS_TEMPLATE, undefined)).toThrow(/no JSON data/);
    expect(() => mergeDataIntoTemplate(ORDERS_TEMPLATE, 42)).toThrow(/object or an array/);
    expect(() => mergeDataIntoTemplate(ORDERS_TEMPLATE, '{"a":')).toThrow(/malformed JSON/);
    const cyclic: unknown[] = [];
    cyclic.push({ self: cyclic });
    expect(() => mergeDataIntoTemplate(ORDERS_TEMPLATE, cyclic)).toThrow(/cycle/);
    expect(() => mergeDataIntoTemplate('<Report><Dictionary>', [])).toThrow(TemplateError);
    expect(() => mergeDataIntoTemplate('<!DOCTYPE x [<!ENTITY a "b">]><Report/>', [])).toThrow(TemplateError);
    expect(() => mergeDataIntoTemplate(ORDERS_TEMPLATE, [{ when: new (class Thing {})() }])).toThrow(TemplateError);
  });
});

/** The HTML, or the TemplateError's message. */
function outcome(f: () => string): { html: string } | { error: string } {
  try {
    return { html: f() };
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    return { error: e.message };
  }
}

describe('mergeDataIntoTemplate on random data', () => {
  const name = fc.constantFrom('a', 'b', 'rows', 'unit price', 'x.y', 'lines');
  const scalar = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  );
  const row = fc.dictionary(
    name,
    fc.oneof(
      { weight: 5, arbitrary: scalar },
      { weight: 1, arbitrary: fc.array(fc.dictionary(name, scalar, { maxKeys: 3 }), { maxLength: 3 }) },
    ),
    { maxKeys: 4 },
  );
  const srs = fc.dictionary(name, fc.oneof(fc.array(row, { maxLength: 4 }), row, scalar), { minKeys: 1, maxKeys: 3 });

  it('renders the same without the data file, whatever the stored schema says', () => {
    let rendered = 0;
    fc.assert(
      fc.property(srs, srs, (sample, run) => {
        // A starter stores a schema for one sample; the run brings other data.
        // Data the template's declared types cannot take fails the same way in both.
        const template = starterTemplate(sample);
        const data = JSON.parse(JSON.stringify(run)) as unknown;
        const viaStarter = outcome(() => html(template, data));
        if ('html' in viaStarter) rendered++;
        expect(outcome(() => html(mergeDataIntoTemplate(template, data)))).toEqual(viaStarter);
        expect(outcome(() => html(mergeDataIntoTemplate(INVOICE_BYTES, data)))).toEqual(
          outcome(() => html(INVOICE_BYTES, data)),
        );
        const list = Object.values(data as Record<string, unknown>).find(Array.isArray) ?? [];
        expect(outcome(() => html(mergeDataIntoTemplate(INVOICE_BYTES, list)))).toEqual(
          outcome(() => html(INVOICE_BYTES, list)),
        );
      }),
      { numRuns: 40 },
    );
    expect(rendered).toBeGreaterThan(20); // most runs render, so the comparison is not of errors only
  }, 120_000);
});
