// ZipCodeObject (FastReport's ZipCodeObject.Draw): the code's digits as strokes on a 5 × 10 grid,
// each segment over a grid of dots, after a start marker; its size follows from the segments
// (FastReport sets Width and Height when it draws). Everything in the border's colour, the
// strokes the border's width with round ends. Sizes scale with SegmentWidth/Height from FastReport's
// 0.5 × 1 cm segment.

import type { ZipCodeObjectModel } from '../frx/model.js';
import { PathBuilder } from '../path-data.js';
import { boundText, type ObjectType } from './object-type.js';
import type { LaidItem } from './runtime.js';

const MM = 3.78;

// Each digit's stroke through the 5 × 10 mm grid (FastReport's FDigits).
const DIGITS: readonly (readonly [number, number][])[] = [
  [
    [0, 0],
    [5, 0],
    [5, 10],
    [0, 10],
    [0, 0],
  ],
  [
    [0, 5],
    [5, 0],
    [5, 10],
  ],
  [
    [0, 0],
    [5, 0],
    [5, 5],
    [0, 10],
    [5, 10],
  ],
  [
    [0, 0],
    [5, 0],
    [0, 5],
    [5, 5],
    [0, 10],
  ],
  [
    [0, 0],
    [0, 5],
    [5, 5],
    [5, 0],
    [5, 10],
  ],
  [
    [5, 0],
    [0, 0],
    [0, 5],
    [5, 5],
    [5, 10],
    [0, 10],
  ],
  [
    [5, 0],
    [0, 5],
    [0, 10],
    [5, 10],
    [5, 5],
    [0, 5],
  ],
  [
    [0, 0],
    [5, 0],
    [0, 5],
    [0, 10],
  ],
  [
    [0, 5],
    [0, 0],
    [5, 0],
    [5, 10],
    [0, 10],
    [0, 5],
    [5, 5],
  ],
  [
    [5, 5],
    [0, 5],
    [0, 0],
    [5, 0],
    [5, 5],
    [0, 10],
  ],
];

// The dots under a segment: rows of the grid, read from the lowest decimal digit (1 = a dot).
const GRID = [111111, 110001, 101001, 100101, 100011, 111111, 110001, 101001, 100101, 100011, 111111];

export const zipCodeObject: ObjectType<ZipCodeObjectModel> = {
  getData(e, o, rt) {
    rt.text = boundText(e, o) ?? o.text;
    const lineWidth = rt.border.leftLine.width;
    rt.width = ((o.showMarkers ? 1 : 0) + o.segmentCount) * o.spacing;
    rt.height = (o.showMarkers ? o.segmentHeight + 4 * MM : o.segmentHeight) + lineWidth;
  },
  item(_e, o, rt) {
    const line = rt.border.leftLine;
    const kx = o.segmentWidth / (0.5 * 37.8);
    const ky = o.segmentHeight / 37.8;
    const filled = new PathBuilder();
    const strokes = new PathBuilder();
    const segment = (symbol: number, at: number): void => {
      let dx = at;
      let dy = 0;
      if (o.showMarkers) {
        filled.rect(dx, 0, 7 * MM, 2 * MM);
        if (at === 0) {
          filled.rect(0, 3 * MM, 7 * MM, MM);
          return;
        }
        dx += MM;
        dy = 4 * MM;
      } else {
        dx += line.width / 2;
        dy += line.width / 2;
      }
      if (o.showGrid) {
        const r = (0.25 * MM) / 2;
        GRID.forEach((row, j) => {
          for (let v = row, i = 0; v > 0; v = Math.trunc(v / 10), i++)
            if (v % 10 === 1) filled.ellipse(dx + i * MM * kx, dy + j * MM * ky, r, r);
        });
      }
      const digit = DIGITS[symbol];
      if (digit) strokes.polyline(digit.map(([x, y]) => [dx + x * MM * kx, dy + y * MM * ky] as const));
    };
    let at = 0;
    if (o.showMarkers) {
      segment(-1, 0);
      at += o.spacing;
    }
    const text = (rt.text ?? o.text).padStart(o.segmentCount, '0').slice(0, o.segmentCount);
    for (const ch of text) {
      segment(ch >= '0' && ch <= '9' ? ch.charCodeAt(0) - 48 : -1, at);
      at += o.spacing;
    }
    const base = { name: o.name, x: rt.left, y: rt.top, width: rt.width, height: rt.height, dashPattern: [] };
    const none = { r: 0, g: 0, b: 0, a: 0 };
    const out: LaidItem[] = [];
    if (!filled.empty)
      out.push({
        item: {
          kind: 'path',
          ...base,
          d: filled.toString(),
          closed: true,
          fill: { kind: 'Solid', color: line.color },
          color: none,
          lineWidth: 0,
          style: 'Solid',
        },
        canBreak: false,
      });
    if (!strokes.empty)
      out.push({
        item: {
          kind: 'path',
          ...base,
          d: strokes.toString(),
          closed: false,
          fill: { kind: 'Solid', color: none },
          color: line.color,
          lineWidth: line.width,
          style: 'Solid',
          round: true,
        },
        canBreak: false,
      });
    return out;
  },
};
