// The data layer's JSON-connection pieces merged and starter templates rely on: plain connection
// strings with raw JSON, a stored schema that reads back as itself, declared nested tables named
// as FastReport names them, and the starter's schema inference.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bindDictionary,
  formatJsonConnectionString,
  inferSchema,
  parseConnectionString,
  parseJsonConnectionString,
  resolveJsonSchema,
  schemaToStored,
} from '../../../src/report/data/index.js';
import { identifierFor } from '../../../src/report/template/index.js';
import { schemaText } from '../../../src/report/template/json-text.js';
import { starterSchema } from '../../../src/report/template/starter-schema.js';

describe('formatJsonConnectionString', () => {
  it('writes Json and JsonSchema as raw text in FastReport key order', () => {
    const json = `[{"a":"it's; \\"quoted\\""}]`;
    const cs = formatJsonConnectionString({ json, jsonSchema: '{"type":"array"}', simpleStructure: true });
    expect([...parseConnectionString(cs)]).toEqual([
      ['json', json],
      ['jsonschema', '{"type":"array"}'],
      ['encoding', 'utf-8'],
      ['simplestructure', 'true'],
    ]);
    expect(parseJsonConnectionString(cs)).toMatchObject({
      json,
      jsonSchema: '{"type":"array"}',
      encoding: 'utf-8',
      simpleStructure: true,
    });
    expect(formatJsonConnectionString({ json: '[1]', jsonSchema: '', encoding: 'utf-16' })).toBe(
      'Json=[1];JsonSchema=;Encoding=utf-16',
    );
  });

  it('round-trips any JSON text', () => {
    fc.assert(
      fc.property(fc.json({ stringUnit: 'binary' }), (text) => {
        const json = JSON.stringify([JSON.parse(text)]);
        expect(parseJsonConnectionString(formatJsonConnectionString({ json, jsonSchema: '' })).json).toBe(json);
      }),
    );
  });
});

describe('resolveJsonSchema', () => {
  it('gives the same schema back when its result is stored with the same data', () => {
    const stored = fc.option(
      fc.constantFrom(
        '{"type":"object","properties":{"id":{"type":"integer"}}}',
        '{"type":"array","items":{"type":"object"}}',
        '{"type":"object"}',
      ),
      { nil: '' },
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.array(fc.object({ maxDepth: 2 }), { maxLength: 4 }), fc.object({ maxDepth: 3 })),
        stored,
        (raw, s) => {
          const root = JSON.parse(JSON.stringify(raw)) as unknown;
          const once = resolveJsonSchema(s, root, {}, 'test');
          expect(once.type).toBe('array');
          expect(resolveJsonSchema(schemaText(once), root, {}, 'test')).toEqual(once);
        },
      ),
    );
  });

  it('keeps what the stored schema says and adds what the data has', () => {
    const s = resolveJsonSchema(
      '{"type":"object","properties":{"id":{"type":"integer"}}}',
      { id: 1, name: 'x' },
      {},
      'test',
    );
    expect(schemaToStored(s)).toEqual({
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
    });
  });
});

describe('declared nested tables', () => {
  it('use their Name as alias when no Alias is given, and read their PropName', () => {
    const json = { 'order lines': [{ sku: 'A' }, { sku: 'B' }] };
    const ctx = bindDictionary(
      {
        jsonConnections: [
          {
            name: 'Connection',
            tables: [
              {
                name: 'JSON',
                columns: [
                  {
                    name: 'item',
                    columns: [
                      {
                        name: 'order_lines',
                        propName: 'order lines',
                        table: true,
                        columns: [{ name: 'item', columns: [{ name: 'sku', dataType: 'System.String' }] }],
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      { json },
    );
    const lines = ctx.initSource('order_lines', 'JSON');
    const skus: unknown[] = [];
    for (; !lines.eof; lines.next()) skus.push(ctx.value('JSON.item.order_lines.item.sku').value);
    expect(skus).toEqual(['A', 'B']);
  });
});

describe('starterSchema', () => {
  it('is FastReport inference where values are all present', () => {
    const data = {
      rows: [
        { a: 1, b: 'x', c: true, d: [{ e: 1 }] },
        { a: 2, b: 'y', c: false, d: [{ e: 2 }, { e: 3 }] },
      ],
      one: { g: 'h' },
    };
    expect(starterSchema(data)).toEqual(inferSchema(data));
  });

  it('keeps a nested table whose array is empty in some rows (FastReport would drop its columns)', () => {
    const data = { rows: [{ d: [{ e: 1 }] }, { d: [] }] };
    expect(schemaToStored(inferSchema(data))).toMatchObject({
      properties: { rows: { items: { properties: { d: { type: 'array', items: { type: 'null' } } } } } },
    });
    expect(schemaToStored(starterSchema(data))).toMatchObject({
      properties: {
        rows: {
          items: {
            properties: { d: { type: 'array', items: { type: 'object', properties: { e: { type: 'number' } } } } },
          },
        },
      },
    });
  });

  it('keeps structure through nulls and makes nullable scalars System.Object', () => {
    const s = schemaToStored(
      starterSchema({
        rows: [
          { a: 1, d: null, o: null, n: null },
          { a: null, d: [{ e: 1 }], o: { p: 'q' } },
          { d: [{ e: 2, f: 'g' }], n: 5 },
        ],
      }),
    );
    expect(s).toEqual({
      type: 'object',
      properties: {
        rows: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              a: { type: 'null' },
              d: {
                type: 'array',
                items: { type: 'object', properties: { e: { type: 'number' }, f: { type: 'null' } } },
              },
              o: { type: 'object', properties: { p: { type: 'string' } } },
              n: { type: 'null' },
            },
          },
        },
      },
    });
    // Different kinds give System.Object, as in FastReport.
    expect(schemaToStored(starterSchema([{ x: 1 }, { x: 'a' }, { x: [1] }]))).toEqual({
      type: 'array',
      items: { type: 'object', properties: { x: { type: 'null' } } },
    });
  });
});

describe('identifierFor', () => {
  it('keeps identifiers and makes others into identifiers', () => {
    expect(['id', 'Größe', '_x', 'unit price', 'a.b', '1st', '', '[x]', 'x-y', '日付'].map(identifierFor)).toEqual([
      'id',
      'Größe',
      '_x',
      'unit_price',
      'a_b',
      '_1st',
      'field',
      '_x_',
      'x_y',
      '日付',
    ]);
  });
});
