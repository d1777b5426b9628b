// What a series prints at its points besides its figures: markers (circle, square, diamond,
// triangle, cross) and data labels placed beside the point, both tagged by series and point.

import type { SeriesContext } from './cartesian-axes.js';
import { ellipsePath, polylinePath, rectPath, type Pt } from './geometry.js';
import type { ChartShape, PlotSeries } from './plot-types.js';

/** The data label of point i beside `anchor` (none when the point has no label). */
export function label(
  s: PlotSeries,
  i: number,
  anchor: Pt,
  c: SeriesContext,
  side: 'above' | 'right' | 'left' | 'below',
): ChartShape[] {
  const p = s.points[i];
  if (!p || p.label === '') return [];
  const m = c.measure(p.label, s.font);
  const w = m.width + 2;
  const h = m.height;
  const [x, y] = anchor;
  const box =
    side === 'above'
      ? { x: x - w / 2, y: y - h - 2, width: w, height: h }
      : side === 'below'
        ? { x: x - w / 2, y: y + 2, width: w, height: h }
        : side === 'right'
          ? { x: x + 2, y: y - h / 2, width: w, height: h }
          : { x: x - w - 2, y: y - h / 2, width: w, height: h };
  return [
    {
      kind: 'text',
      tag: `${s.name}/${i}/label`,
      text: p.label,
      ...box,
      font: s.font,
      color: s.labelColor,
      horzAlign: 'Center',
      vertAlign: 'Center',
    },
  ];
}

export function markerShape(s: PlotSeries, i: number, at: Pt, style: string): ChartShape[] {
  const size = Math.max(1, s.markerSize);
  const r = size / 2;
  const [x, y] = at;
  const fill = s.markerColor ?? s.points[i]?.color ?? s.color;
  let d: string;
  switch (style) {
    case 'Square':
      d = rectPath({ x: x - r, y: y - r, width: size, height: size });
      break;
    case 'Diamond':
      d = polylinePath(
        [
          [x, y - r],
          [x + r, y],
          [x, y + r],
          [x - r, y],
        ],
        true,
      );
      break;
    case 'Triangle':
      d = polylinePath(
        [
          [x, y - r],
          [x + r, y + r],
          [x - r, y + r],
        ],
        true,
      );
      break;
    case 'Cross': {
      const t = r / 3;
      d = polylinePath(
        [
          [x - t, y - r],
          [x + t, y - r],
          [x + t, y - t],
          [x + r, y - t],
          [x + r, y + t],
          [x + t, y + t],
          [x + t, y + r],
          [x - t, y + r],
          [x - t, y + t],
          [x - r, y + t],
          [x - r, y - t],
          [x - t, y - t],
        ],
        true,
      );
      break;
    }
    default:
      d = ellipsePath(x, y, r, r);
  }
  return [{ kind: 'path', tag: `${s.name}/${i}/marker`, d, closed: true, fill }];
}
