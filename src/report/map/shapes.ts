// The geometry of a map layer's shapes (FastReport's ShapePolygon, ShapePolyLine, ShapePoint):
// longitude/latitude points in parts, with the shape's attribute values (its .dbf row, which
// FastReport calls SpatialData). Shapes come from a shapefile (shapefile.ts) or from the
// template itself (ShapeData blobs, decoded here).

import { TemplateError } from '../errors.js';
import type { MapBox } from '../frx/model-map.js';

export type { MapBox, MapShape } from '../frx/model-map.js';

/** The most points one map (all its layers) may hold; more is a TemplateError. */
export const MAX_MAP_POINTS = 2_000_000;
/** The most shapes one layer may hold. */
export const MAX_LAYER_SHAPES = 100_000;

/** The bounding box of points. */
export function boxOf(parts: readonly Float64Array[]): MapBox {
  const b = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const p of parts) {
    for (let i = 0; i + 1 < p.length; i += 2) {
      const x = p[i] as number;
      const y = p[i + 1] as number;
      if (x < b.minX) b.minX = x;
      if (x > b.maxX) b.maxX = x;
      if (y < b.minY) b.minY = y;
      if (y > b.maxY) b.maxY = y;
    }
  }
  return b;
}

/** Decodes a ShapePolygon/ShapePolyLine `ShapeData` blob (little-endian: the box as 4 doubles,
 *  int32 numParts, int32 numPoints, numParts int32 part starts, numPoints × (double x, double
 *  y)). Counts that do not fit the blob are a TemplateError. */
export function decodeShapeBlob(bytes: Uint8Array, where: string): { parts: Float64Array[]; box: MapBox } {
  const fail = (m: string): TemplateError => new TemplateError(`ShapeData: ${m}`, where);
  if (bytes.length < 40) throw fail(`${bytes.length} bytes is shorter than its header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const numParts = view.getInt32(32, true);
  const numPoints = view.getInt32(36, true);
  if (numParts < 0 || numPoints < 0) throw fail('negative part or point count');
  const need = 40 + numParts * 4 + numPoints * 16;
  if (need > bytes.length)
    throw fail(`${numParts} parts and ${numPoints} points need ${need} bytes; it has ${bytes.length}`);
  const starts: number[] = [];
  for (let i = 0; i < numParts; i++) starts.push(view.getInt32(40 + i * 4, true));
  starts.push(numPoints);
  const pointsAt = 40 + numParts * 4;
  const parts: Float64Array[] = [];
  for (let i = 0; i < numParts; i++) {
    const from = starts[i] as number;
    const to = starts[i + 1] as number;
    if (from < 0 || to < from || to > numPoints) throw fail(`part ${i + 1} starts at point ${from}, out of order`);
    const part = new Float64Array((to - from) * 2);
    for (let k = 0; k < part.length; k++) part[k] = view.getFloat64(pointsAt + (from * 2 + k) * 8, true);
    parts.push(part);
  }
  const box = {
    minX: view.getFloat64(0, true),
    minY: view.getFloat64(8, true),
    maxX: view.getFloat64(16, true),
    maxY: view.getFloat64(24, true),
  };
  return { parts, box: [box.minX, box.minY, box.maxX, box.maxY].every(Number.isFinite) ? box : boxOf(parts) };
}

/** Encodes parts as a ShapeData blob (the inverse of decodeShapeBlob; for tests and for writing
 *  templates). */
export function encodeShapeBlob(parts: readonly Float64Array[]): Uint8Array {
  const numPoints = parts.reduce((n, p) => n + p.length / 2, 0);
  const out = new Uint8Array(40 + parts.length * 4 + numPoints * 16);
  const view = new DataView(out.buffer);
  const box = boxOf(parts);
  for (const [i, v] of [box.minX, box.minY, box.maxX, box.maxY].entries()) view.setFloat64(i * 8, v, true);
  view.setInt32(32, parts.length, true);
  view.setInt32(36, numPoints, true);
  let start = 0;
  parts.forEach((p, i) => {
    view.setInt32(40 + i * 4, start, true);
    start += p.length / 2;
  });
  let at = 40 + parts.length * 4;
  for (const p of parts) {
    for (const v of p) {
      view.setFloat64(at, v, true);
      at += 8;
    }
  }
  return out;
}

/** SpatialData as written in a template: "KEY=value" lines separated by CRLF (a line with more
 *  or fewer than one '=' is skipped, as FastReport does). */
export function parseSpatialData(text: string): Map<string, string> {
  const out = new Map<string, string>();
  if (text === '') return out;
  for (const line of text.split('\r\n')) {
    const kv = line.split('=');
    if (kv.length === 2) out.set(kv[0] as string, kv[1] as string);
  }
  return out;
}

/** Drops points closer than `accuracy` (in the points' units) to the previous point kept; a
 *  polygon part left with fewer than 3 points is dropped (FastReport's Simplify). */
export function simplifyParts(parts: readonly Float64Array[], accuracy: number, polygon: boolean): Float64Array[] {
  if (!(accuracy > 0)) return [...parts];
  const out: Float64Array[] = [];
  for (const p of parts) {
    const kept: number[] = [];
    for (let i = 0; i + 1 < p.length; i += 2) {
      const x = p[i] as number;
      const y = p[i + 1] as number;
      const n = kept.length;
      if (n > 0 && Math.hypot(x - (kept[n - 2] as number), y - (kept[n - 1] as number)) < accuracy) continue;
      kept.push(x, y);
    }
    if (kept.length / 2 > (polygon ? 2 : 1)) out.push(Float64Array.from(kept));
  }
  return out;
}
