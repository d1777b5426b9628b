// DataSourceCursor.valueAt resolves each column path once and then only follows it per row. These
// tests hold it to the direct reading of the path on every call (the resolution rules of
// cursor.ts written out plainly below), for string and array paths, cache hits, path arrays
// changed after use, and nested tables linked after paths were read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DataSourceCursor,
  JSON_TYPE,
  OBJECT_TYPE,
  column,
  findByAlias,
  type CellValue,
  type ColumnDef,
  type ColumnValue,
  type Row,
} from '../../../src/report/data/index.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof Uint8Array);
const isOpen = (c: ColumnDef): boolean =>
  (c.columns === undefined || c.columns.length === 0) &&
  (c.type === JSON_TYPE || c.type === OBJECT_TYPE || c.type.startsWith('FastReport.'));
function dynamicType(v: unknown): string {
  if (typeof v === 'string') return 'System.String';
  if (typeof v === 'number') return 'System.Double';
  if (typeof v === 'boolean') return 'System.Boolean';
  if (v instanceof Date) return 'System.DateTime';
  if (v instanceof Uint8Array) return 'System.Byte[]';
  return v === null || v === undefined ? OBJECT_TYPE : JSON_TYPE;
}

/** The path read directly, segment by segment, on every call. */
function readDirectly(
  cursor: DataSourceCursor,
  row: Row | null,
  path: string | readonly string[],
): ColumnValue | undefined {
  const segs = typeof path === 'string' ? path.split('.') : path;
  if (segs.length === 0) return undefined;
  let top: ColumnDef | undefined;
  let used = 1;
  if (segs.length > 1) {
    top = findByAlias(cursor.columns, segs.join('.'));
    if (top) used = segs.length;
  }
  top ??= findByAlias(cursor.columns, segs[0] as string);
  if (!top) return undefined;
  let def = top;
  let value: unknown = row ? cursor.cell(row, cursor.columns.indexOf(top)) : null;
  if (used === segs.length && def.extra !== undefined) {
    const extra = row ? (row[def.extra] ?? null) : null;
    if (def.type === 'System.Decimal')
      return typeof extra === 'string'
        ? { value: value as CellValue, type: def.type, decimalText: extra }
        : { value: value as CellValue, type: def.type };
    return { value: value as CellValue, type: def.type, offsetMinutes: typeof extra === 'number' ? extra : null };
  }
  let dynamic = false;
  for (let i = used; i < segs.length; i++) {
    const seg = segs[i] as string;
    if (def.nested) {
      const inner = cursor.nestedCursor(def);
      if (inner) return readDirectly(inner, inner.current, segs.slice(i));
    }
    const child = !dynamic && def.columns ? findByAlias(def.columns, seg) : undefined;
    if (child) {
      value = isObject(value) && Object.hasOwn(value, child.name) ? value[child.name] : null;
      def = child;
      continue;
    }
    if (!dynamic && !isOpen(def)) return undefined;
    dynamic = true;
    value = isObject(value) && Object.hasOwn(value, seg) ? value[seg] : null;
  }
  const v = (value === undefined ? null : value) as CellValue;
  return { value: v, type: dynamic ? dynamicType(v) : def.type };
}

// Columns: plain, Decimal and DateTime with sidecars (slots 7 and 8), a name with a dot, a JSON
// object with known and open children, an open System.Object, a nested table column.
const lineColumns = [column('qty', 'System.Int32'), column('sku', 'System.String')];
const nestedColumn: ColumnDef = {
  name: 'lines',
  alias: 'Lines',
  type: JSON_TYPE,
  columns: lineColumns,
  nested: { name: 'lines', alias: 'Lines' },
};
const columns: ColumnDef[] = [
  column('Id', 'System.Int32'),
  column('Price', 'System.Decimal', { extra: 7 }),
  column('When', 'System.DateTime', { extra: 8 }),
  column('A.B', 'System.String'),
  column('A', JSON_TYPE, {
    columns: [column('B', 'System.String'), column('C', JSON_TYPE), column('d', 'System.Double', { alias: 'D' })],
  }),
  column('obj', OBJECT_TYPE),
  nestedColumn,
];

function rows(n: number): Row[] {
  return Array.from(
    { length: n },
    (_, i): Row => [
      i,
      i % 3 === 0 ? null : i * 1.25,
      new Date(Date.UTC(2020, 0, i + 1)),
      `dot${i}`,
      i % 4 === 3 ? null : { B: `b${i}`, C: { x: i, y: { z: `deep${i}` } }, d: i / 2, extra: true },
      i % 2 ? { k: i, list: [1, 2] } : `text${i}`,
      [{ qty: i, sku: `s${i}` }],
      i % 3 === 0 ? null : `${i * 1.25}0`,
      i % 2 ? 120 : null,
    ],
  );
}

const SEGMENTS = [
  'Id',
  'id',
  'Price',
  'When',
  'A',
  'a',
  'B',
  'b',
  'C',
  'D',
  'd',
  'x',
  'y',
  'z',
  'obj',
  'k',
  'list',
  'Lines',
  'qty',
  'sku',
  'nope',
  '',
];
const pathArb = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 0, maxLength: 5 });

function tableWithLines(): { cursor: DataSourceCursor; lines: DataSourceCursor } {
  const data = rows(12);
  const cursor = new DataSourceCursor({ name: 'T', columns }, data);
  const lines = new DataSourceCursor({ name: 'lines', alias: 'Lines', columns: lineColumns }, [
    [7, 'first'],
    [8, 'second'],
  ]);
  cursor.linkNested(nestedColumn, lines);
  return { cursor, lines };
}

describe('DataSourceCursor.valueAt with resolved paths', () => {
  it('reads every path as reading it directly does: strings, arrays, repeated reads, null rows', () => {
    const { cursor } = tableWithLines();
    const all = cursor.allRows();
    fc.assert(
      fc.property(pathArb, fc.integer({ min: -1, max: all.length - 1 }), (segs, r) => {
        const row = r < 0 ? null : (all[r] as Row);
        const expected = readDirectly(cursor, row, segs);
        const text = segs.join('.');
        for (let k = 0; k < 2; k++) {
          expect(cursor.valueAt(row, segs)).toEqual(expected);
          if (!segs.some((s) => s.includes('.')))
            expect(cursor.valueAt(row, text)).toEqual(readDirectly(cursor, row, text));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('whole-rest column names win, then aliases case-insensitively', () => {
    const { cursor } = tableWithLines();
    const row = cursor.allRows()[1] as Row;
    expect(cursor.valueAt(row, 'A.B')).toEqual({ value: 'dot1', type: 'System.String' });
    expect(cursor.valueAt(row, ['A', 'B'])).toEqual({ value: 'dot1', type: 'System.String' });
    expect(cursor.valueAt(row, ['a', 'b'])).toEqual({ value: 'dot1', type: 'System.String' });
    expect(cursor.valueAt(row, ['A', 'D'])).toEqual({ value: 0.5, type: 'System.Double' });
    expect(cursor.valueAt(row, 'A.C.y.z')).toEqual({ value: 'deep1', type: 'System.String' });
    expect(cursor.valueAt(row, 'A.nope')).toBeUndefined();
    expect(cursor.valueAt(row, 'Price')).toEqual({ value: 1.25, type: 'System.Decimal', decimalText: '1.250' });
    expect(cursor.valueAt(row, 'When')).toEqual({
      value: new Date(Date.UTC(2020, 0, 2)),
      type: 'System.DateTime',
      offsetMinutes: 120,
    });
    expect(cursor.valueAt(row, 'Lines.sku')).toEqual({ value: 'first', type: 'System.String' });
  });

  it('a path array changed after it was read is read as it is now', () => {
    const { cursor } = tableWithLines();
    const row = cursor.allRows()[2] as Row;
    const path = ['A', 'B'];
    expect(cursor.valueAt(row, path)).toEqual({ value: 'dot2', type: 'System.String' });
    path[1] = 'D';
    expect(cursor.valueAt(row, path)).toEqual({ value: 1, type: 'System.Double' });
    path.push('x');
    expect(cursor.valueAt(row, path)).toBeUndefined();
    path.length = 1;
    expect(cursor.valueAt(row, path)).toEqual(readDirectly(cursor, row, ['A']));
  });

  it('a nested table linked after a path was read takes the path over', () => {
    const data = rows(3);
    const cursor = new DataSourceCursor({ name: 'T', columns }, data);
    const path = ['Lines', 'sku'];
    const before = cursor.valueAt(data[0] as Row, path);
    expect(before).toEqual(readDirectly(cursor, data[0] as Row, path));
    expect(cursor.valueAt(data[0] as Row, 'Lines.qty')).toEqual(readDirectly(cursor, data[0] as Row, 'Lines.qty'));
    const lines = new DataSourceCursor({ name: 'lines', alias: 'Lines', columns: lineColumns }, [
      [7, 'first'],
      [8, 'second'],
    ]);
    cursor.linkNested(nestedColumn, lines);
    lines.next();
    expect(cursor.valueAt(data[0] as Row, path)).toEqual({ value: 'second', type: 'System.String' });
    expect(cursor.valueAt(data[0] as Row, 'Lines.qty')).toEqual({ value: 8, type: 'System.Int32' });
  });

  it('follows the nested table as it moves', () => {
    const { cursor, lines } = tableWithLines();
    const path = ['Lines', 'qty'];
    const seen: unknown[] = [];
    for (lines.first(); !lines.eof; lines.next()) seen.push(cursor.valueAt(null, path)?.value);
    expect(seen).toEqual([7, 8]);
  });

  it('columnIndex answers as before for names, aliases and case variants, repeatedly', () => {
    const { cursor } = tableWithLines();
    for (let k = 0; k < 2; k++) {
      expect(cursor.columnIndex('Id')).toBe(0);
      expect(cursor.columnIndex('id')).toBe(0);
      expect(cursor.columnIndex('A.B')).toBe(3);
      expect(cursor.columnIndex('lines')).toBe(6);
      expect(cursor.columnIndex('LINES')).toBe(6);
      expect(cursor.columnIndex('nope')).toBe(-1);
    }
  });
});
