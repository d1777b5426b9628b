// ESRI shapefiles (the format of the ESRI Shapefile Technical Description, 1998): the .shp file's
// polygons, polylines and points, and the .dbf file's attribute table (dBASE III: one row per
// shape, in the same order). Every count in the files is checked against the bytes there are
// and against the map's limits: a truncated, garbage or huge file is a TemplateError naming it,
// never a hang.

import { TemplateError } from '../errors.js';
import { boxOf, MAX_LAYER_SHAPES, MAX_MAP_POINTS, type MapShape } from './shapes.js';

const FILE_CODE = 9994;
const HEADER = 100;
/** Shape types by their number: the XY layout of Point, PolyLine, Polygon, and their Z and M
 *  variants (whose X/Y come first, read the same way; Z and M are ignored). */
const KINDS: Record<number, MapShape['kind']> = {
  1: 'point',
  11: 'point',
  21: 'point',
  3: 'polyline',
  13: 'polyline',
  23: 'polyline',
  5: 'polygon',
  15: 'polygon',
  25: 'polygon',
};

export interface ShapefileOptions {
  /** Points already in the map (its earlier layers), counted against MAX_MAP_POINTS. */
  pointsBefore?: number;
}

/** The shapes of a .shp file (null shapes and multipoints skipped), each with its .dbf row. */
export function readShapefile(
  shp: Uint8Array,
  dbf: Uint8Array | undefined,
  where: string,
  opts: ShapefileOptions = {},
): MapShape[] {
  const rows = dbf ? readDbf(dbf, where.replace(/\.shp\b/i, '.dbf')) : [];
  const fail = (m: string): TemplateError => new TemplateError(`not a readable shapefile: ${m}`, where);
  if (shp.length < HEADER) throw fail(`${shp.length} bytes is shorter than its header`);
  const view = new DataView(shp.buffer, shp.byteOffset, shp.byteLength);
  if (view.getInt32(0, false) !== FILE_CODE) throw fail('it does not start with the file code 9994');
  const declared = view.getInt32(24, false) * 2;
  const end = Math.min(shp.length, declared > HEADER ? declared : shp.length);
  const out: MapShape[] = [];
  let points = opts.pointsBefore ?? 0;
  let at = HEADER;
  let index = 0;
  const empty = new Map<string, string>();
  while (at + 8 <= end) {
    const length = view.getInt32(at + 4, false) * 2;
    const content = at + 8;
    if (length < 4 || content + length > shp.length)
      throw fail(`record ${index + 1} (at byte ${at}) claims ${length} bytes; the file ends before that`);
    const type = view.getInt32(content, true);
    const kind = KINDS[type];
    const data = rows[index] ?? empty;
    if (kind === 'point') {
      if (length < 20) throw fail(`point record ${index + 1} is too short`);
      const part = Float64Array.of(view.getFloat64(content + 4, true), view.getFloat64(content + 12, true));
      points += 1;
      out.push({ kind, parts: [part], box: boxOf([part]), data });
    } else if (kind) {
      const parts = readParts(view, content, length, index, fail);
      points += parts.reduce((n, p) => n + p.length / 2, 0);
      out.push({ kind, parts, box: boxOf(parts), data });
    }
    if (points > MAX_MAP_POINTS) throw fail(`more than ${MAX_MAP_POINTS} points (the limit of one map)`);
    if (out.length > MAX_LAYER_SHAPES) throw fail(`more than ${MAX_LAYER_SHAPES} shapes (the limit of one layer)`);
    at = content + length;
    index++;
  }
  return out;
}

function readParts(
  view: DataView,
  content: number,
  length: number,
  index: number,
  fail: (m: string) => TemplateError,
): Float64Array[] {
  if (length < 44) throw fail(`record ${index + 1} is too short for its shape`);
  const numParts = view.getInt32(content + 36, true);
  const numPoints = view.getInt32(content + 40, true);
  const need = 44 + numParts * 4 + numPoints * 16;
  if (numParts < 0 || numPoints < 0 || need > length)
    throw fail(`record ${index + 1} claims ${numParts} parts and ${numPoints} points, more than its ${length} bytes`);
  const starts: number[] = [];
  for (let i = 0; i < numParts; i++) starts.push(view.getInt32(content + 44 + i * 4, true));
  starts.push(numPoints);
  const pointsAt = content + 44 + numParts * 4;
  const parts: Float64Array[] = [];
  for (let i = 0; i < numParts; i++) {
    const from = starts[i] as number;
    const to = starts[i + 1] as number;
    if (from < 0 || to < from || to > numPoints) throw fail(`record ${index + 1}: part ${i + 1} is out of order`);
    const part = new Float64Array((to - from) * 2);
    for (let k = 0; k < part.length; k++) part[k] = view.getFloat64(pointsAt + (from * 2 + k) * 8, true);
    parts.push(part);
  }
  return parts;
}

/** The most columns a .dbf may declare (dBASE's own limit). */
const MAX_DBF_FIELDS = 255;

/** The rows of a dBASE table, each a map of column name → trimmed text (deleted rows stay, to
 *  keep their place beside the shapes; memo and binary fields read as text as they are). */
export function readDbf(dbf: Uint8Array, where: string): Map<string, string>[] {
  const fail = (m: string): TemplateError => new TemplateError(`not a readable .dbf table: ${m}`, where);
  if (dbf.length < 33) throw fail(`${dbf.length} bytes is shorter than its header`);
  const view = new DataView(dbf.buffer, dbf.byteOffset, dbf.byteLength);
  const count = view.getUint32(4, true);
  const headerLength = view.getUint16(8, true);
  const recordLength = view.getUint16(10, true);
  if (headerLength < 33 || headerLength > dbf.length) throw fail(`its header length ${headerLength} does not fit`);
  const fields: { name: string; offset: number; length: number }[] = [];
  let offset = 1;
  for (let at = 32; at + 32 <= headerLength && dbf[at] !== 0x0d; at += 32) {
    if (fields.length >= MAX_DBF_FIELDS) throw fail(`more than ${MAX_DBF_FIELDS} columns`);
    const nameBytes = dbf.subarray(at, at + 11);
    const zero = nameBytes.indexOf(0);
    const name = decodeText(zero < 0 ? nameBytes : nameBytes.subarray(0, zero)).trim();
    const length = dbf[at + 16] as number;
    fields.push({ name, offset, length });
    offset += length;
  }
  if (offset > recordLength) throw fail(`its columns need ${offset} bytes a row; a row has ${recordLength}`);
  if (headerLength + count * recordLength > dbf.length)
    throw fail(`${count} rows of ${recordLength} bytes do not fit in its ${dbf.length} bytes`);
  if (count > MAX_LAYER_SHAPES) throw fail(`more than ${MAX_LAYER_SHAPES} rows`);
  const rows: Map<string, string>[] = [];
  for (let r = 0; r < count; r++) {
    const start = headerLength + r * recordLength;
    const row = new Map<string, string>();
    for (const f of fields)
      row.set(f.name, decodeText(dbf.subarray(start + f.offset, start + f.offset + f.length)).trim());
    rows.push(row);
  }
  return rows;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** dBASE text: UTF-8 when it is valid UTF-8, else Windows-1252 (the code page most .dbf files of
 *  this kind are written in). */
function decodeText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}
