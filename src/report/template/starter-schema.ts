// The schema a starter template stores for its sample: FastReport's inference (json-schema.ts),
// except where that would hide a value of the sample.
//
// - A null or missing value does not hide structure: an array or object property that is null
//   (or absent) in some rows keeps its nested table or columns (FastReport would make it
//   System.Object and drop them).
// - A scalar property that is null or absent in some rows is System.Object, so a null shows
//   empty (a typed column would show 0 or False through ConvertNulls). FastReport makes null +
//   number System.Object too; it keeps the type for absent properties.
// - Different scalar types, or a scalar mixed with an array or object, give System.Object, as in
//   FastReport.

import { isPlainObject, type JsonSchemaNode } from '../data/index.js';

type Kind = 'none' | 'null' | 'mixed' | 'string' | 'number' | 'boolean' | 'object' | 'array';

interface Shape {
  kind: Kind;
  /** Scalars: a null or a missing value was seen (the column must show empty). */
  nullable?: boolean;
  properties?: Map<string, Shape>;
  /** Arrays: their elements' shape ('none' when every sample array is empty). */
  items?: Shape;
}

const isScalar = (k: Kind): boolean => k === 'string' || k === 'number' || k === 'boolean';

function shapeOf(v: unknown): Shape {
  if (v === null || v === undefined) return { kind: 'null' };
  if (typeof v === 'string') return { kind: 'string' };
  if (typeof v === 'number' || typeof v === 'bigint') return { kind: 'number' };
  if (typeof v === 'boolean') return { kind: 'boolean' };
  if (Array.isArray(v))
    return {
      kind: 'array',
      items: (v as unknown[]).reduce<Shape>((acc, el) => merge(acc, shapeOf(el)), { kind: 'none' }),
    };
  if (isPlainObject(v)) {
    const properties = new Map<string, Shape>();
    for (const [k, x] of Object.entries(v)) if (x !== undefined) properties.set(k, shapeOf(x));
    return { kind: 'object', properties };
  }
  return { kind: 'mixed' }; // not produced for JSON data
}

/** A shape seen absent in some elements. */
function missing(s: Shape): Shape {
  return isScalar(s.kind) ? { ...s, nullable: true } : s;
}

function merge(a: Shape, b: Shape): Shape {
  if (a.kind === 'none') return b;
  if (b.kind === 'none') return a;
  if (a.kind === 'null') return b.kind === 'null' ? a : isScalar(b.kind) ? { ...b, nullable: true } : b;
  if (b.kind === 'null') return isScalar(a.kind) ? { ...a, nullable: true } : a;
  if (a.kind !== b.kind || a.kind === 'mixed') return { kind: 'mixed' };
  if (a.kind === 'object') {
    const properties = new Map<string, Shape>();
    const other = b.properties ?? new Map<string, Shape>();
    for (const [k, s] of a.properties ?? []) {
      const o = other.get(k);
      properties.set(k, o ? merge(s, o) : missing(s));
    }
    for (const [k, o] of other) if (!properties.has(k)) properties.set(k, missing(o));
    return { kind: 'object', properties };
  }
  if (a.kind === 'array')
    return { kind: 'array', items: merge(a.items ?? { kind: 'none' }, b.items ?? { kind: 'none' }) };
  return { kind: a.kind, nullable: Boolean(a.nullable || b.nullable) };
}

function toSchema(s: Shape): JsonSchemaNode {
  switch (s.kind) {
    case 'none':
      return { type: undefined };
    case 'null':
    case 'mixed':
      return { type: 'null' };
    case 'object':
      return { type: 'object', properties: new Map([...(s.properties ?? [])].map(([k, x]) => [k, toSchema(x)])) };
    case 'array':
      return { type: 'array', items: toSchema(s.items ?? { kind: 'none' }) };
    default:
      return { type: s.nullable ? 'null' : s.kind };
  }
}

/** The schema of a sample (plain JSON data) as a starter template stores it. */
export function starterSchema(sample: unknown): JsonSchemaNode {
  return toSchema(shapeOf(sample));
}
