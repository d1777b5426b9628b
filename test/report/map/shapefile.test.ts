// The ESRI shapefile and dBASE readers: files written by the test from the format's
// specification (test/support/shapefile-writer.ts), then broken in the ways a hostile template's
// folder could break them.

import { describe, expect, it } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import { readDbf, readShapefile } from '../../../src/report/map/shapefile.js';
import { MAX_MAP_POINTS } from '../../../src/report/map/shapes.js';
import { writeDbf, writeShp } from '../../support/shapefile-writer.js';

const square: [number, number][] = [
  [0, 0],
  [0, 10],
  [10, 10],
  [10, 0],
  [0, 0],
];
const hole: [number, number][] = [
  [2, 2],
  [8, 2],
  [8, 8],
  [2, 8],
  [2, 2],
];

const columns = [
  { name: 'NAME', length: 20 },
  { name: 'ABBREV', length: 2 },
];

describe('readShapefile', () => {
  it('reads polygons with their parts and their .dbf rows in order', () => {
    const shp = writeShp([
      { type: 5, parts: [square, hole] },
      {
        type: 5,
        parts: [
          [
            [20, 20],
            [20, 30],
            [30, 30],
            [20, 20],
          ],
        ],
      },
    ]);
    const dbf = writeDbf(columns, [
      { NAME: 'Square', ABBREV: 'SQ' },
      { NAME: 'Triangle', ABBREV: 'TR' },
    ]);
    const shapes = readShapefile(shp, dbf, 'test.shp');
    expect(shapes).toHaveLength(2);
    expect(shapes[0]?.kind).toBe('polygon');
    expect(shapes[0]?.parts.map((p) => Array.from(p))).toEqual([square.flat(), hole.flat()]);
    expect(shapes[0]?.box).toEqual({ minX: 0, minY: 0, maxX: 10, maxY: 10 });
    expect(shapes[1]?.data.get('NAME')).toBe('Triangle');
    expect(shapes[1]?.data.get('ABBREV')).toBe('TR');
  });

  it('reads polylines and points', () => {
    const lines = readShapefile(
      writeShp([
        {
          type: 3,
          parts: [
            [
              [1, 2],
              [3, 4],
              [5, 6],
            ],
          ],
        },
      ]),
      undefined,
      'l.shp',
    );
    expect(lines[0]?.kind).toBe('polyline');
    expect(Array.from(lines[0]?.parts[0] ?? [])).toEqual([1, 2, 3, 4, 5, 6]);
    const points = readShapefile(writeShp([{ type: 1, parts: [[[-71.5, 42.25]]] }]), undefined, 'p.shp');
    expect(points[0]?.kind).toBe('point');
    expect(Array.from(points[0]?.parts[0] ?? [])).toEqual([-71.5, 42.25]);
  });

  it('refuses a file that is not a shapefile, or cut short', () => {
    const shp = writeShp([{ type: 5, parts: [square] }]);
    expect(() => readShapefile(Buffer.from('not a shapefile at all'), undefined, 'x.shp')).toThrow(TemplateError);
    const garbage = Buffer.alloc(200, 0x41);
    expect(() => readShapefile(garbage, undefined, 'x.shp')).toThrow(/file code 9994/);
    const cut = shp.subarray(0, shp.length - 20);
    expect(() => readShapefile(cut, undefined, 'cut.shp')).toThrow(/cut\.shp|ends before/);
  });

  it('refuses counts larger than the record, without allocating them', () => {
    const shp = Buffer.from(writeShp([{ type: 5, parts: [square] }]));
    // The record's content starts at 108: numParts at +36, numPoints at +40.
    shp.writeInt32LE(1_000_000_000, 108 + 40);
    expect(() => readShapefile(shp, undefined, 'huge.shp')).toThrow(/claims 1 parts and 1000000000 points/);
    const negative = Buffer.from(writeShp([{ type: 5, parts: [square] }]));
    negative.writeInt32LE(-1, 108 + 36);
    expect(() => readShapefile(negative, undefined, 'neg.shp')).toThrow(TemplateError);
    const disorder = Buffer.from(writeShp([{ type: 5, parts: [square, hole] }]));
    disorder.writeInt32LE(99, 108 + 48); // the second part starts past the points
    expect(() => readShapefile(disorder, undefined, 'order.shp')).toThrow(/out of order/);
  });

  it('stops at the map point limit', () => {
    const many: [number, number][] = Array.from({ length: 1000 }, (_, i) => [i, i]);
    const shp = writeShp([{ type: 3, parts: [many] }]);
    expect(() => readShapefile(shp, undefined, 'many.shp', { pointsBefore: MAX_MAP_POINTS - 10 })).toThrow(
      /more than 2000000 points/,
    );
  });
});

describe('readDbf', () => {
  it('reads character columns, trimmed', () => {
    const rows = readDbf(writeDbf(columns, [{ NAME: 'New York', ABBREV: 'NY' }]), 't.dbf');
    expect(rows.map((r) => Object.fromEntries(r))).toEqual([{ NAME: 'New York', ABBREV: 'NY' }]);
  });

  it('refuses a table whose rows do not fit its bytes', () => {
    const dbf = Buffer.from(writeDbf(columns, [{ NAME: 'A', ABBREV: 'AA' }]));
    dbf.writeUInt32LE(4_000_000_000, 4);
    expect(() => readDbf(dbf, 'big.dbf')).toThrow(/4000000000 rows/);
    expect(() => readDbf(Buffer.alloc(10), 'short.dbf')).toThrow(/shorter than its header/);
    const badHeader = Buffer.from(writeDbf(columns, []));
    badHeader.writeUInt16LE(60000, 8);
    expect(() => readDbf(badHeader, 'h.dbf')).toThrow(/header length/);
  });
});
