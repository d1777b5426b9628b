// Writes ESRI shapefiles (.shp polygons/polylines/points and the .dbf attribute table) from the
// format's specification (ESRI Shapefile Technical Description, 1998; dBASE III table), for
// tests and for the substitute US states map of the demos.

export interface ShapeRecord {
  /** 1 point, 3 polyline, 5 polygon. */
  type: 1 | 3 | 5;
  /** Parts of [x, y] points (a point: one part of one point). */
  parts: [number, number][][];
}

const box = (pts: [number, number][]): [number, number, number, number] => {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of pts) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return [x0, y0, x1, y1];
};

function recordContent(r: ShapeRecord): Buffer {
  if (r.type === 1) {
    const b = Buffer.alloc(20);
    const [x, y] = r.parts[0]?.[0] ?? [0, 0];
    b.writeInt32LE(1, 0);
    b.writeDoubleLE(x, 4);
    b.writeDoubleLE(y, 12);
    return b;
  }
  const pts = r.parts.flat();
  const b = Buffer.alloc(44 + r.parts.length * 4 + pts.length * 16);
  b.writeInt32LE(r.type, 0);
  for (const [i, v] of box(pts).entries()) b.writeDoubleLE(v, 4 + i * 8);
  b.writeInt32LE(r.parts.length, 36);
  b.writeInt32LE(pts.length, 40);
  let start = 0;
  r.parts.forEach((p, i) => {
    b.writeInt32LE(start, 44 + i * 4);
    start += p.length;
  });
  let at = 44 + r.parts.length * 4;
  for (const [x, y] of pts) {
    b.writeDoubleLE(x, at);
    b.writeDoubleLE(y, at + 8);
    at += 16;
  }
  return b;
}

/** The .shp file of the records (all of one shape type). */
export function writeShp(records: readonly ShapeRecord[]): Buffer {
  const contents = records.map(recordContent);
  const length = 100 + contents.reduce((n, c) => n + 8 + c.length, 0);
  const header = Buffer.alloc(100);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE(length / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE(records[0]?.type ?? 5, 32);
  for (const [i, v] of box(records.flatMap((r) => r.parts.flat())).entries()) header.writeDoubleLE(v, 36 + i * 8);
  const parts: Buffer[] = [header];
  contents.forEach((c, i) => {
    const h = Buffer.alloc(8);
    h.writeInt32BE(i + 1, 0);
    h.writeInt32BE(c.length / 2, 4);
    parts.push(h, c);
  });
  return Buffer.concat(parts);
}

/** A dBASE III table of character columns. */
export function writeDbf(
  columns: readonly { name: string; length: number }[],
  rows: readonly Record<string, string>[],
): Buffer {
  const recordLength = 1 + columns.reduce((n, c) => n + c.length, 0);
  const headerLength = 32 + columns.length * 32 + 1;
  const b = Buffer.alloc(headerLength + rows.length * recordLength + 1, 0x20);
  b.fill(0, 0, headerLength);
  b[0] = 0x03;
  b[1] = 124;
  b[2] = 1;
  b[3] = 1;
  b.writeUInt32LE(rows.length, 4);
  b.writeUInt16LE(headerLength, 8);
  b.writeUInt16LE(recordLength, 10);
  columns.forEach((c, i) => {
    const at = 32 + i * 32;
    b.write(c.name.slice(0, 10), at, 'latin1');
    b[at + 11] = 'C'.charCodeAt(0);
    b[at + 16] = c.length;
  });
  b[headerLength - 1] = 0x0d;
  rows.forEach((row, r) => {
    let at = headerLength + r * recordLength;
    b[at++] = 0x20;
    for (const c of columns) {
      b.write((row[c.name] ?? '').slice(0, c.length).padEnd(c.length, ' '), at, 'latin1');
      at += c.length;
    }
  });
  b[b.length - 1] = 0x1a;
  return b;
}
