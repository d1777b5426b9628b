// inferSchema merges the elements of an array into the schema of the elements before them as it
// walks them (rows of one shape build no schema of their own). These tests hold it to the plain
// definition: every element's own schema, folded with `union` — same types, same properties in
// the same order — and to the same limit, depth and cycle errors.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import { inferSchema, union, type JsonSchemaNode } from '../../../src/report/data/json-schema.js';

/** The schema by definition: each element's own schema, folded with union. */
function bySpec(v: unknown): JsonSchemaNode {
  if (v === null || v === undefined) return { type: 'null' };
  if (typeof v === 'string') return { type: 'string' };
  if (typeof v === 'number' || typeof v === 'bigint') return { type: 'number' };
  if (typeof v === 'boolean') return { type: 'boolean' };
  if (v instanceof Date) return { type: 'datetime' };
  if (v instanceof Uint8Array) return { type: 'bytes' };
  if (Array.isArray(v)) {
    let items: JsonSchemaNode | undefined;
    for (const el of v) {
      const sub = bySpec(el);
      if (items === undefined) items = sub;
      else union(items, sub);
    }
    return { type: 'array', items: items ?? { type: undefined } };
  }
  const properties = new Map<string, JsonSchemaNode>();
  for (const [k, pv] of Object.entries(v as Record<string, unknown>))
    if (pv !== undefined) properties.set(k, bySpec(pv));
  return { type: 'object', properties };
}

/** A schema as nested arrays, so property order counts in comparisons. */
function shape(n: JsonSchemaNode | undefined): unknown {
  if (!n) return null;
  return [
    n.type ?? '(none)',
    n.properties ? [...n.properties].map(([k, s]) => [k, shape(s)]) : null,
    n.items ? shape(n.items) : null,
  ];
}

// Few keys, so elements overlap and differ; the values mix types so unions collapse to "null".
const KEYS = ['a', 'b', 'c', '1', 'x y'];
const { value: jsonArb } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.string({ maxLength: 3 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(undefined),
    fc.date({ noInvalidDate: true }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }),
  ),
}));
const rowsArb = fc.array(fc.dictionary(fc.constantFrom(...KEYS), jsonArb, { maxKeys: 5 }), { maxLength: 6 });

function countValues(v: unknown): number {
  if (Array.isArray(v)) return 1 + v.reduce((n: number, el) => n + countValues(el), 0);
  if (typeof v === 'object' && v !== null && !(v instanceof Date) && !(v instanceof Uint8Array)) {
    return 1 + Object.values(v).reduce((n: number, pv) => n + (pv === undefined ? 0 : countValues(pv)), 0);
  }
  return 1;
}

function deepestContainer(v: unknown, depth = 0): number {
  if (Array.isArray(v)) return Math.max(depth, ...v.map((el) => deepestContainer(el, depth + 1)));
  if (typeof v === 'object' && v !== null && !(v instanceof Date) && !(v instanceof Uint8Array)) {
    return Math.max(
      depth,
      ...Object.values(v)
        .filter((pv) => pv !== undefined)
        .map((pv) => deepestContainer(pv, depth + 1)),
    );
  }
  return -1;
}

describe('inferSchema', () => {
  it('gives the union of the elements’ own schemas, properties in order', () => {
    fc.assert(
      fc.property(
        fc.oneof(rowsArb, jsonArb, fc.record({ rows: rowsArb, more: fc.array(rowsArb, { maxLength: 3 }) })),
        (data) => {
          expect(shape(inferSchema(data))).toEqual(shape(bySpec(data)));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('rows of one shape, with later rows adding properties and changing a type', () => {
    const rows = [
      { id: 1, name: 'a', tags: ['x'] },
      { id: 2, name: null, extra: { k: true } },
      { id: 3, name: 'c', extra: { k: false, j: 'new' }, tags: [] },
    ];
    expect(shape(inferSchema(rows))).toEqual(shape(bySpec(rows)));
    const props = inferSchema(rows).items?.properties;
    expect([...(props?.keys() ?? [])]).toEqual(['id', 'name', 'tags', 'extra']);
    expect(props?.get('name')?.type).toBe('null');
    expect([...(props?.get('extra')?.properties?.keys() ?? [])]).toEqual(['k', 'j']);
  });

  it('counts every value against maxNodes, also in merged rows', () => {
    fc.assert(
      fc.property(rowsArb, (data) => {
        const n = countValues(data);
        expect(() => inferSchema(data, { maxNodes: n })).not.toThrow();
        expect(() => inferSchema(data, { maxNodes: n - 1 })).toThrow(/too many values/);
      }),
      { numRuns: 300 },
    );
  });

  it('checks the depth of every row, also in merged rows', () => {
    fc.assert(
      fc.property(rowsArb, fc.integer({ min: 1, max: 6 }), (data, maxDepth) => {
        const tooDeep = deepestContainer(data) >= maxDepth;
        if (tooDeep) expect(() => inferSchema(data, { maxDepth })).toThrow(/nested too deeply/);
        else expect(() => inferSchema(data, { maxDepth })).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it('finds a cycle in a later row, and lets rows share an object', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => inferSchema([{ a: 2, self: { a: 3 } }, cyclic])).toThrow(TemplateError);
    expect(() => inferSchema([{ a: 2, self: { a: 3 } }, cyclic])).toThrow(/cycle/);
    const shared = { q: 1 };
    expect(shape(inferSchema([{ p: shared }, { p: shared }]))).toEqual(shape(bySpec([{ p: shared }, { p: shared }])));
  });
});
