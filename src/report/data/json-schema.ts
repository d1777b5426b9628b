// The schema FastReport's JSON connection infers from data, and the columns it builds from it.
//
// Inference (as FastReport does it): an object's properties in order; an array's item schema is
// the union of its elements' schemas; a string is "string" (System.String), every number is
// "number" (System.Double), true/false "boolean", null "null". A union of two different types
// becomes "null" (System.Object) and forgets their properties/items; objects merge their
// properties (one missing in some elements does not change its type); an empty array's items have
// no type (System.Object). A stored JsonSchema may also say "integer" (System.Int32).
// Extension for values a caller passes as JS (never produced by JSON text): Date → "datetime"
// (System.DateTime), Uint8Array → "bytes" (System.Byte[]).

import { TemplateError } from '../errors.js';
import { JSON_TYPE, OBJECT_TYPE, type DotNetType } from './table.js';
import { describe } from './values.js';

export interface JsonSchemaNode {
  type: string | undefined;
  properties?: Map<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
}

export interface JsonLimits {
  /** Deepest nesting of arrays/objects (default 128). */
  maxDepth?: number;
  /** Most values (objects, arrays, scalars) in one document (default 5,000,000). */
  maxNodes?: number;
}

export function schemaDataType(node: JsonSchemaNode | undefined): DotNetType {
  switch (node?.type) {
    case 'object':
    case 'array':
      return JSON_TYPE;
    case 'integer':
      return 'System.Int32';
    case 'number':
      return 'System.Double';
    case 'string':
      return 'System.String';
    case 'boolean':
      return 'System.Boolean';
    case 'datetime':
      return 'System.DateTime';
    case 'bytes':
      return 'System.Byte[]';
    default:
      return OBJECT_TYPE;
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Infers the schema of a JSON value (parsed JSON or plain JS data), checking limits, cycles
 *  and value kinds on the way. */
export function inferSchema(value: unknown, limits: JsonLimits = {}, where = 'JSON'): JsonSchemaNode {
  const maxDepth = limits.maxDepth ?? 128;
  const maxNodes = limits.maxNodes ?? 5_000_000;
  let nodes = 0;
  const ancestors = new Set<object>();

  const walk = (v: unknown, depth: number): JsonSchemaNode => {
    if (++nodes > maxNodes) throw new TemplateError(`JSON data has too many values (more than ${maxNodes})`, where);
    if (v === null || v === undefined) return { type: 'null' };
    switch (typeof v) {
      case 'string':
        return { type: 'string' };
      case 'number':
      case 'bigint':
        return { type: 'number' };
      case 'boolean':
        return { type: 'boolean' };
      case 'object':
        break;
      default:
        throw new TemplateError(`JSON data cannot hold a ${typeof v}`, where);
    }
    if (v instanceof Date) return { type: 'datetime' };
    if (v instanceof Uint8Array) return { type: 'bytes' };
    if (depth >= maxDepth)
      throw new TemplateError(`JSON data is nested too deeply (more than ${maxDepth} levels)`, where);
    if (ancestors.has(v)) throw new TemplateError('JSON data contains a cycle', where);
    ancestors.add(v);
    let result: JsonSchemaNode;
    if (Array.isArray(v)) {
      let items: JsonSchemaNode | undefined;
      for (const el of v as unknown[]) {
        if (items === undefined) items = walk(el, depth + 1);
        else walkInto(items, el, depth + 1);
      }
      result = { type: 'array', items: items ?? { type: undefined } };
    } else if (isPlainObject(v)) {
      const properties = new Map<string, JsonSchemaNode>();
      for (const key of Object.keys(v)) {
        const pv = v[key];
        if (pv === undefined) continue; // as JSON.stringify would drop it
        properties.set(key, walk(pv, depth + 1));
      }
      result = { type: 'object', properties };
    } else {
      throw new TemplateError(`JSON data cannot hold a ${describe(v)}`, where);
    }
    ancestors.delete(v);
    return result;
  };

  // union(target, walk(v, depth)) without building v's schema where that is plain to see: a
  // scalar of the target's type changes nothing, and an object merges into an object property
  // by property. The same checks run in the same order as in walk. (Most of a large document
  // is rows of the same shape, each of which walk would turn into a schema only to merge it.)
  const walkInto = (target: JsonSchemaNode, v: unknown, depth: number): void => {
    const type = target.type;
    if (type === 'object' && isPlainObject(v)) {
      if (++nodes > maxNodes) throw new TemplateError(`JSON data has too many values (more than ${maxNodes})`, where);
      if (depth >= maxDepth)
        throw new TemplateError(`JSON data is nested too deeply (more than ${maxDepth} levels)`, where);
      if (ancestors.has(v)) throw new TemplateError('JSON data contains a cycle', where);
      ancestors.add(v);
      const properties = (target.properties ??= new Map());
      for (const key of Object.keys(v)) {
        const pv = v[key];
        if (pv === undefined) continue;
        const mine = properties.get(key);
        if (mine) walkInto(mine, pv, depth + 1);
        else properties.set(key, walk(pv, depth + 1));
      }
      ancestors.delete(v);
      return;
    }
    if (
      (type === 'string' && typeof v === 'string') ||
      (type === 'number' && (typeof v === 'number' || typeof v === 'bigint')) ||
      (type === 'boolean' && typeof v === 'boolean')
    ) {
      if (++nodes > maxNodes) throw new TemplateError(`JSON data has too many values (more than ${maxNodes})`, where);
      return;
    }
    union(target, walk(v, depth));
  };
  return walk(value, 0);
}

/** Merges `other` into `target` the way FastReport unions element schemas. */
export function union(target: JsonSchemaNode, other: JsonSchemaNode): void {
  if (target.type !== other.type) {
    target.type = 'null';
    delete target.properties;
    delete target.items;
    return;
  }
  if (target.type === 'object') {
    target.properties ??= new Map();
    for (const [k, v] of other.properties ?? []) {
      const mine = target.properties.get(k);
      if (mine) union(mine, v);
      else target.properties.set(k, v);
    }
  } else if (target.type === 'array') {
    if (target.items === undefined) target.items = other.items;
    else if (other.items !== undefined) union(target.items, other.items);
    else union(target.items, { type: undefined });
  }
}

/** Reads a stored JsonSchema text's object ({"type":…,"properties":{…},"items":{…}}). */
export function schemaFromStored(obj: unknown, depth = 0): JsonSchemaNode {
  if (depth > 128) throw new TemplateError('JsonSchema is nested too deeply', 'JsonSchema');
  if (!isPlainObject(obj)) return { type: undefined };
  const type = typeof obj.type === 'string' ? obj.type : undefined;
  const node: JsonSchemaNode = { type };
  if (type === 'object') {
    node.properties = new Map();
    const props = obj.properties;
    if (isPlainObject(props)) {
      for (const k of Object.keys(props)) node.properties.set(k, schemaFromStored(props[k], depth + 1));
    }
  } else if (type === 'array') {
    node.items = schemaFromStored(obj.items, depth + 1);
  }
  return node;
}

/** Adds to `base` what `extra` has and `base` lacks (properties, items); `base` wins where both
 *  say something. Used to extend a stored schema with what the actual data holds. */
export function extendSchema(base: JsonSchemaNode, extra: JsonSchemaNode): void {
  if (base.type === undefined) {
    base.type = extra.type;
    if (extra.properties) base.properties = extra.properties;
    if (extra.items) base.items = extra.items;
    return;
  }
  if (base.type !== extra.type) return;
  if (base.type === 'object' && extra.properties) {
    base.properties ??= new Map();
    for (const [k, v] of extra.properties) {
      const mine = base.properties.get(k);
      if (mine) extendSchema(mine, v);
      else base.properties.set(k, v);
    }
  } else if (base.type === 'array' && extra.items) {
    if (base.items) extendSchema(base.items, extra.items);
    else base.items = extra.items;
  }
}

/** Writes a schema node as FastReport stores it in a connection string's JsonSchema. */
export function schemaToStored(node: JsonSchemaNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (node.type !== undefined) out.type = node.type;
  if (node.items) out.items = schemaToStored(node.items);
  if (node.properties && node.properties.size > 0) {
    const props: Record<string, unknown> = {};
    for (const [k, v] of node.properties)
      Object.defineProperty(props, k, {
        value: schemaToStored(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    out.properties = props;
  }
  return out;
}
