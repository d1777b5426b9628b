// The dark modules of a 2-D symbol as figures. Square modules are merged into one rectangle per
// horizontal run (fewer figures, no hairline seams between neighbours); QR's decorative shapes
// (FastReport's BarcodeQR.Shape) draw each module as its figure, except in the finder patterns,
// which stay square so readers find them.

import type { PathBuilder } from '../path-data.js';
import type { MatrixSymbol } from './types.js';

type Cell = { w: number; h: number };

function inFinder(s: MatrixSymbol, x: number, y: number): boolean {
  return (s.finders ?? []).some(([fx, fy]) => x >= fx && x < fx + 7 && y >= fy && y < fy + 7);
}

const isDark = (s: MatrixSymbol, x: number, y: number): boolean =>
  x >= 0 && y >= 0 && x < s.columns && y < s.rows && s.dark[y * s.columns + x] === 1;

/** The symbol's height in module rows (stacked DataBar's rows are of several heights). */
export function moduleRows(s: MatrixSymbol): number {
  return s.rowHeights ? s.rowHeights.reduce((a, b) => a + b, 0) : s.rows;
}

/** Square modules, one rectangle per horizontal run of dark ones (`skip` leaves modules out). */
function runs(s: MatrixSymbol, cell: Cell, p: PathBuilder, skip?: (x: number, y: number) => boolean): void {
  let top = 0;
  for (let y = 0; y < s.rows; y++) {
    const h = (s.rowHeights?.[y] ?? 1) * cell.h;
    let x = 0;
    while (x < s.columns) {
      if (!isDark(s, x, y) || skip?.(x, y)) {
        x++;
        continue;
      }
      const start = x;
      while (x < s.columns && isDark(s, x, y) && !skip?.(x, y)) x++;
      p.rect(start * cell.w, top, (x - start) * cell.w, h);
    }
    top += h;
  }
}

/** A regular polygon (or star, with `inner` the inner radius ratio) in the cell's ellipse. */
function star(
  p: PathBuilder,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  points: number,
  inner: number,
  angle: number,
) {
  const pts: [number, number][] = [];
  const n = inner < 1 ? points * 2 : points;
  for (let i = 0; i < n; i++) {
    const r = inner < 1 && i % 2 === 1 ? inner : 1;
    const a = ((angle - 90) * Math.PI) / 180 + (2 * Math.PI * i) / n;
    pts.push([cx + Math.cos(a) * rx * r, cy + Math.sin(a) * ry * r]);
  }
  p.polygon(pts);
}

/** Three bars through the centre at 60° to each other: a six-armed snowflake. */
function snowflake(p: PathBuilder, cx: number, cy: number, rx: number, ry: number, angle: number): void {
  const t = 0.22;
  for (let k = 0; k < 3; k++) {
    const a = ((angle + 90 + k * 60) * Math.PI) / 180;
    const ux = Math.cos(a);
    const uy = Math.sin(a);
    const vx = -uy;
    const vy = ux;
    p.polygon([
      [cx + (ux - vx * t) * rx, cy + (uy - vy * t) * ry],
      [cx + (ux + vx * t) * rx, cy + (uy + vy * t) * ry],
      [cx + (-ux + vx * t) * rx, cy + (-uy + vy * t) * ry],
      [cx + (-ux - vx * t) * rx, cy + (-uy - vy * t) * ry],
    ]);
  }
}

function shapeModule(s: MatrixSymbol, p: PathBuilder, x: number, y: number, cell: Cell): void {
  const inset = s.thin ? 0.1 : 0;
  const w = cell.w * (1 - 2 * inset);
  const h = cell.h * (1 - 2 * inset);
  const left = (x + inset) * cell.w;
  const top = (y + inset) * cell.h;
  const cx = left + w / 2;
  const cy = top + h / 2;
  const angle = s.shapeAngle ?? 0;
  switch (s.shape) {
    case 'Circle':
      p.ellipse(cx, cy, w / 2, h / 2);
      return;
    case 'Diamond':
      p.polygon([
        [cx, top],
        [left + w, cy],
        [cx, top + h],
        [left, cy],
      ]);
      return;
    case 'RoundedSquare':
      p.roundRect(left, top, w, h, Math.min(w, h) / 4);
      return;
    case 'Plus': {
      const t = 1 / 3;
      p.rect(left + (w * (1 - t)) / 2, top, w * t, h);
      p.rect(left, top + (h * (1 - t)) / 2, w, h * t);
      return;
    }
    case 'Hexagon':
      star(p, cx, cy, w / 2, h / 2, 6, 1, angle);
      return;
    case 'Star':
      star(p, cx, cy, w / 2, h / 2, 5, 0.45, angle);
      return;
    case 'Snowflake':
      snowflake(p, cx, cy, w / 2, h / 2, angle);
      return;
    default:
      p.rect(left, top, w, h);
      return;
  }
}

/** Pills: each run of dark modules along a row (or column) as one rounded bar. */
function pills(s: MatrixSymbol, cell: Cell, p: PathBuilder, vertical: boolean): void {
  const inset = s.thin ? 0.1 : 0;
  const outer = vertical ? s.columns : s.rows;
  const inner = vertical ? s.rows : s.columns;
  const at = (i: number, j: number): boolean =>
    vertical ? isDark(s, i, j) && !inFinder(s, i, j) : isDark(s, j, i) && !inFinder(s, j, i);
  for (let i = 0; i < outer; i++) {
    let j = 0;
    while (j < inner) {
      if (!at(i, j)) {
        j++;
        continue;
      }
      const start = j;
      while (j < inner && at(i, j)) j++;
      if (vertical) {
        const w = cell.w * (1 - 2 * inset);
        const h = (j - start - 2 * inset) * cell.h;
        p.roundRect((i + inset) * cell.w, (start + inset) * cell.h, w, h, w / 2);
      } else {
        const h = cell.h * (1 - 2 * inset);
        const w = (j - start - 2 * inset) * cell.w;
        p.roundRect((start + inset) * cell.w, (i + inset) * cell.h, w, h, h / 2);
      }
    }
  }
}

export function drawModules(s: MatrixSymbol, cell: Cell, p: PathBuilder): void {
  const shape = s.shape ?? 'Rectangle';
  if (shape === 'Rectangle' && !s.thin) runs(s, cell, p);
  if (shape === 'Rectangle' && !s.thin) return;
  // The finder patterns keep square modules.
  if (s.finders) runs(s, cell, p, (x, y) => !inFinder(s, x, y));
  if (shape === 'PillHorizontal' || shape === 'PillVertical') pills(s, cell, p, shape === 'PillVertical');
  if (shape === 'PillHorizontal' || shape === 'PillVertical') return;
  for (let y = 0; y < s.rows; y++)
    for (let x = 0; x < s.columns; x++) if (isDark(s, x, y) && !inFinder(s, x, y)) shapeModule(s, p, x, y, cell);
}
