// Titles and legends: docked to a side of the chart, each takes its room off the rectangle left
// for the chart areas (titles first, then legends, as MS Chart lays out). A legend lists its
// series (a colour swatch and the name), or the points of a pie-like series.

import type { Color, FontSpec } from '../frx/model.js';
import type { ChartLegend, ChartTitle, Docking } from './model.js';
import type { ChartShape, Rect } from './plot-types.js';
import type { Measure } from './cartesian-axes.js';
import { rectPath } from './geometry.js';

export interface LegendItem {
  text: string;
  color: Color;
}

const GAP = 4;

function cut(r: Rect, side: Docking, size: number): Rect {
  const s = Math.max(0, Math.min(size, side === 'Top' || side === 'Bottom' ? r.height : r.width));
  switch (side) {
    case 'Top':
      return { x: r.x, y: r.y, width: r.width, height: s };
    case 'Bottom':
      return { x: r.x, y: r.y + r.height - s, width: r.width, height: s };
    case 'Left':
      return { x: r.x, y: r.y, width: s, height: r.height };
    default:
      return { x: r.x + r.width - s, y: r.y, width: s, height: r.height };
  }
}

function rest(r: Rect, side: Docking, size: number): Rect {
  const s = Math.max(0, Math.min(size, side === 'Top' || side === 'Bottom' ? r.height : r.width));
  switch (side) {
    case 'Top':
      return { ...r, y: r.y + s, height: r.height - s };
    case 'Bottom':
      return { ...r, height: r.height - s };
    case 'Left':
      return { ...r, x: r.x + s, width: r.width - s };
    default:
      return { ...r, width: r.width - s };
  }
}

/** The titles' shapes and the rectangle they leave. */
export function placeTitles(r: Rect, titles: readonly ChartTitle[], measure: Measure, shapes: ChartShape[]): Rect {
  let left = r;
  titles.forEach((t, i) => {
    if (!t.visible || t.text === '') return;
    const m = measure(t.text, t.font);
    const side: Docking = t.docking === 'Bottom' ? 'Bottom' : 'Top';
    const box = cut(left, side, m.height + GAP);
    shapes.push({
      kind: 'text',
      tag: `title/${i}`,
      text: t.text,
      ...box,
      font: t.font,
      color: t.foreColor,
      horzAlign: t.alignment === 'Near' ? 'Left' : t.alignment === 'Far' ? 'Right' : 'Center',
      vertAlign: 'Center',
    });
    left = rest(left, side, m.height + GAP);
  });
  return left;
}

/** A legend's shapes and the rectangle it leaves. */
export function placeLegend(
  r: Rect,
  legend: ChartLegend,
  items: readonly LegendItem[],
  measure: Measure,
  shapes: ChartShape[],
  index: number,
): Rect {
  if (!legend.enabled || items.length === 0) return r;
  const font: FontSpec = legend.font;
  const lh = measure('Ag', font).height;
  const swatch = Math.round(lh * 1.2);
  const itemWidth = (it: LegendItem): number => swatch + GAP + measure(it.text, font).width + 2 * GAP;
  const vertical = legend.docking === 'Left' || legend.docking === 'Right';
  // Rows of items: one per row when docked left/right, wrapped to the width when top/bottom.
  const rows: LegendItem[][] = [];
  if (vertical) for (const it of items) rows.push([it]);
  else {
    let row: LegendItem[] = [];
    let w = 0;
    for (const it of items) {
      const iw = itemWidth(it);
      if (row.length > 0 && w + iw > r.width) {
        rows.push(row);
        row = [];
        w = 0;
      }
      row.push(it);
      w += iw;
    }
    if (row.length > 0) rows.push(row);
  }
  const rowH = lh + 2;
  const width = vertical ? Math.min(r.width / 2, Math.max(...items.map(itemWidth)) + GAP) : r.width;
  const height = Math.min(vertical ? r.height : r.height / 2, rows.length * rowH + GAP);
  const box = cut(r, legend.docking, vertical ? width : height);
  if (legend.backColor.a > 0)
    shapes.push({ kind: 'path', tag: `legend/${index}/back`, d: rectPath(box), closed: true, fill: legend.backColor });
  const contentH = rows.length * rowH;
  const align = (space: number, used: number): number =>
    legend.alignment === 'Near' ? 0 : legend.alignment === 'Far' ? space - used : (space - used) / 2;
  let y = box.y + (vertical ? align(box.height, contentH) : (box.height - contentH) / 2);
  let n = 0;
  for (const row of rows) {
    if (y + rowH > box.y + box.height + 0.5) break;
    const rowW = row.reduce((a, it) => a + itemWidth(it), 0);
    let x = box.x + (vertical ? GAP : align(box.width, rowW));
    for (const it of row) {
      const sy = y + (rowH - swatch * 0.6) / 2;
      shapes.push({
        kind: 'path',
        tag: `legend/${index}/${n}/swatch`,
        d: rectPath({ x: x + GAP, y: sy, width: swatch, height: swatch * 0.6 }),
        closed: true,
        fill: it.color,
      });
      const tw = measure(it.text, font).width + 2;
      shapes.push({
        kind: 'text',
        tag: `legend/${index}/${n}`,
        text: it.text,
        x: x + GAP + swatch + GAP,
        y,
        width: tw,
        height: rowH,
        font,
        color: legend.foreColor,
        horzAlign: 'Left',
        vertAlign: 'Center',
      });
      x += itemWidth(it);
      n++;
    }
    y += rowH;
  }
  return rest(r, legend.docking, (vertical ? width : height) + 2);
}
