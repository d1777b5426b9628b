// Shapes embedded in a template: the ShapeData blob (little-endian box, part and point counts,
// part starts, points), SpatialData, and FastReport's Simplify.

import { describe, expect, it } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import { decodeShapeBlob, encodeShapeBlob, parseSpatialData, simplifyParts } from '../../../src/report/map/shapes.js';

/** A blob written byte by byte from the format. */
function blob(parts: number[][]): Buffer {
  const points = parts.reduce((n, p) => n + p.length / 2, 0);
  const b = Buffer.alloc(40 + parts.length * 4 + points * 16);
  const all = parts.flat();
  const xs = all.filter((_, i) => i % 2 === 0);
  const ys = all.filter((_, i) => i % 2 === 1);
  b.writeDoubleLE(Math.min(...xs), 0);
  b.writeDoubleLE(Math.min(...ys), 8);
  b.writeDoubleLE(Math.max(...xs), 16);
  b.writeDoubleLE(Math.max(...ys), 24);
  b.writeInt32LE(parts.length, 32);
  b.writeInt32LE(points, 36);
  let start = 0;
  parts.forEach((p, i) => {
    b.writeInt32LE(start, 40 + i * 4);
    start += p.length / 2;
  });
  all.forEach((v, i) => {
    b.writeDoubleLE(v, 40 + parts.length * 4 + i * 8);
  });
  return b;
}

describe('ShapeData blobs', () => {
  it('decodes parts and box', () => {
    const parts = [
      [-100, 40, -90, 40, -90, 45],
      [-80, 30, -79, 31, -78, 30],
    ];
    const d = decodeShapeBlob(blob(parts), 'ShapePolygon');
    expect(d.parts.map((p) => Array.from(p))).toEqual(parts);
    expect(d.box).toEqual({ minX: -100, minY: 30, maxX: -78, maxY: 45 });
    expect(Buffer.from(encodeShapeBlob(d.parts)).equals(blob(parts))).toBe(true);
  });

  it('refuses counts the blob does not hold', () => {
    const b = blob([[0, 0, 1, 1, 2, 0]]);
    b.writeInt32LE(500_000_000, 36);
    expect(() => decodeShapeBlob(b, 'ShapePolygon "P1"')).toThrow(TemplateError);
    expect(() => decodeShapeBlob(b, 'ShapePolygon "P1"')).toThrow(/500000000 points/);
    expect(() => decodeShapeBlob(Buffer.alloc(12), 'x')).toThrow(/shorter than its header/);
  });

  it('reads SpatialData lines', () => {
    const d = parseSpatialData('NAME=Texas\r\nABBREV=TX\r\nbroken\r\nA=B=C');
    expect(Object.fromEntries(d)).toEqual({ NAME: 'Texas', ABBREV: 'TX' });
  });

  it('simplifies: a point nearer than the accuracy to the last kept one is dropped', () => {
    const part = Float64Array.from([0, 0, 0.01, 0, 1, 0, 1, 1, 1.02, 1.02, 0, 1]);
    expect(Array.from(simplifyParts([part], 0.03, true)[0] ?? [])).toEqual([0, 0, 1, 0, 1, 1, 0, 1]);
    const tiny = Float64Array.from([0, 0, 0.01, 0.01, 0.02, 0]);
    expect(simplifyParts([tiny], 0.03, true)).toEqual([]);
  });
});
