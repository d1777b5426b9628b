// Where MS Chart puts the outside labels of a pie or doughnut (PieLabelStyle=Outside), and how
// far the pie shrinks so that they fit. Facts from MS Chart's PieChart (MIT):
// - a leader line runs radially from the slice edge (r, or 1.2·r for an exploded slice) to
//   2·r·shift (shift = 0.5 + LabelsRadialLineSize/10, default 1.2·r), then horizontally by
//   LabelsHorizontalLineSize·r/5 towards the side the slice faces; the text starts there;
// - the pie starts at 95 % of the square it may fill and shrinks by 5 % steps, down to
//   MinimumRelativePieSize (30 %), until every label fits in the area;
// - when labels of one side would overlap (each claims 1.8 text lines), they are set in a
//   column at the side's outermost leader end, spread vertically over the area, and the pie
//   shrinks again until the columns fit.

import type { Pt } from './bezier-arc.js';
import { polar } from './bezier-arc.js';
import type { Rect } from './plot-types.js';

export interface OutsideLabel {
  /** Mid-angle of the slice, degrees in [0, 360). */
  mid: number;
  exploded: boolean;
  width: number;
  height: number;
  radial: number;
  horizontal: number;
}

export interface PlacedLabel {
  /** The leader line: slice edge → elbow → text. */
  line: [Pt, Pt, Pt];
  box: { x: number; y: number; width: number; height: number };
  left: boolean;
}

const faces = (mid: number): 'left' | 'right' => (mid > 90 && mid < 270 ? 'left' : 'right');

interface Raw {
  p1: Pt;
  p2: Pt;
  x3: number;
  xColumn: number;
  left: boolean;
}

function raw(center: Pt, r: number, l: OutsideLabel): Raw {
  const e = l.exploded ? 1.2 : 1;
  const shift = 0.5 + l.radial * 0.1;
  const p1 = polar(center.x, center.y, r * e, l.mid);
  const p2 = polar(center.x, center.y, 2 * r * shift * e, l.mid);
  const left = faces(l.mid) === 'left';
  const h = ((2 * r) / 10) * l.horizontal;
  const x3 = left ? p2.x - h : p2.x + h;
  const xColumn = left ? center.x - 2 * r * shift * e - h : center.x + 2 * r * shift * e + h;
  return { p1, p2, x3, xColumn, left };
}

/** Whether every label fits in the area at pie radius r (MS Chart's EstimateLabels). */
function fits(center: Pt, r: number, labels: readonly OutsideLabel[], area: Rect, columns: boolean): boolean {
  for (const l of labels) {
    const g = raw(center, r, l);
    const x = columns ? g.xColumn : g.x3;
    if (g.left ? x - l.width < area.x : x + l.width > area.x + area.width) return false;
    if (columns) continue;
    const y3 = g.p2.y;
    if (l.mid > 180 && l.mid < 360 ? y3 - l.height / 2 < area.y : y3 + l.height / 2 > area.y + area.height) {
      return false;
    }
  }
  return true;
}

/** Same-side labels whose 1.8-line bands meet. */
function crowded(center: Pt, r: number, labels: readonly OutsideLabel[]): boolean {
  for (const side of [true, false]) {
    const bands = labels
      .map((l) => ({ l, g: raw(center, r, l) }))
      .filter(({ g }) => g.left === side)
      .map(({ l, g }) => [g.p2.y - 0.9 * l.height, g.p2.y + 0.9 * l.height] as const)
      .sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < bands.length; i++) if (bands[i]![0] < bands[i - 1]![1]) return true;
  }
  return false;
}

/** The size correction (fraction of the square) after the shrinking loop. */
function correction(
  center: Pt,
  side: number,
  labels: readonly OutsideLabel[],
  area: Rect,
  minimum: number,
  columns: boolean,
  from: number,
): number {
  let c = from;
  // 0.95 → 0.30 is at most 14 steps; the epsilon absorbs the float drift of repeated - 0.05.
  for (; c >= minimum - 1e-6; c -= 0.05) {
    if (fits(center, (side * c) / 2, labels, area, columns)) return c;
  }
  return Math.max(minimum, c + 0.05);
}

/** Spreads sorted bands (top, height) over [top, bottom] so that none overlaps another. */
function spread(bands: { y: number; h: number }[], top: number, bottom: number): void {
  const total = bands.reduce((s, b) => s + b.h, 0);
  const room = bottom - top;
  if (total > room && total > 0) {
    // Not even the bands stacked fit: every band gets its share.
    const k = room / total;
    let y = top;
    for (const b of bands) {
      b.h *= k;
      b.y = y;
      y += b.h;
    }
    return;
  }
  for (let i = 1; i < bands.length; i++) bands[i]!.y = Math.max(bands[i]!.y, bands[i - 1]!.y + bands[i - 1]!.h);
  const last = bands[bands.length - 1];
  if (last && last.y + last.h > bottom) {
    last.y = bottom - last.h;
    for (let i = bands.length - 2; i >= 0; i--) bands[i]!.y = Math.min(bands[i]!.y, bands[i + 1]!.y - bands[i]!.h);
  }
  const first = bands[0];
  if (first && first.y < top) {
    first.y = top;
    for (let i = 1; i < bands.length; i++) bands[i]!.y = Math.max(bands[i]!.y, bands[i - 1]!.y + bands[i - 1]!.h);
  }
}

export interface PieFit {
  /** Fraction of the square the pie fills. */
  correction: number;
  placed: PlacedLabel[];
}

/** Shrinks the pie for its outside labels and places them. `center` is the square's centre,
 *  `side` its side; an exploded slice caps the pie at 80 %. */
export function fitOutsideLabels(
  center: Pt,
  side: number,
  labels: readonly OutsideLabel[],
  area: Rect,
  minimum: number,
  anyExploded: boolean,
): PieFit {
  const cap = (c: number): number => (anyExploded ? Math.min(c, 0.8) : c);
  let c = cap(labels.length > 0 ? correction(center, side, labels, area, minimum, false, 0.95) : 0.95);
  const columns = labels.length > 1 && crowded(center, (side * c) / 2, labels);
  if (columns) c = cap(correction(center, side, labels, area, minimum, true, c));
  const r = (side * c) / 2;
  const geo = labels.map((l) => raw(center, r, l));
  const ys = labels.map((l, i) => ({ y: geo[i]!.p2.y - 0.9 * l.height, h: 1.8 * l.height, i }));
  if (columns) {
    for (const side of [true, false]) {
      const bands = ys.filter((b) => geo[b.i]!.left === side).sort((a, b) => a.y + a.h / 2 - (b.y + b.h / 2));
      spread(bands, area.y, area.y + area.height);
    }
  }
  const placed = labels.map((l, i): PlacedLabel => {
    const g = geo[i]!;
    const band = ys[i]!;
    const y = columns ? band.y + band.h / 2 : g.p2.y;
    const x = columns ? g.xColumn : g.x3;
    const box = { x: g.left ? x - l.width : x, y: y - l.height / 2, width: l.width, height: l.height };
    return { line: [g.p1, g.p2, { x, y }], box, left: g.left };
  });
  return { correction: c, placed };
}
