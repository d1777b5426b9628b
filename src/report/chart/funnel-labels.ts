// Where MS Chart's FunnelChart (MIT; facts only) puts a funnel's or pyramid's point labels:
// - FunnelLabelStyle / PyramidLabelStyle: OutsideInColumn (default: a column beside the plot
//   area, 12 px away, with a callout line from the segment), Outside (beside the segment),
//   Inside (centred in the segment; …InsideLabelAlignment Top/Center/Bottom), Disabled;
// - …OutsideLabelPlacement Right (default) or Left;
// - with YIsHeight a label sits at its segment's middle; with YIsWidth at the segment's top edge
//   (the last point's at the bottom edge);
// - a label that meets an earlier one moves by 3 px steps (down in a funnel, up in a pyramid);
// - the plot area leaves 1 % of the area on each side, and more where labels need it.

import { customWord, measureLabel, overlaps } from './plot-custom.js';
import { drawsFirst, type FunnelSpec, prop, type Segment } from './funnel-segments.js';
import type { PlotContext, PlotSeries, Rect } from './plot-types.js';

type Style = 'OutsideInColumn' | 'Outside' | 'Inside' | 'Disabled';

export interface FunnelLabel {
  index: number;
  text: string;
  style: Style;
  right: boolean;
  align: 'Top' | 'Center' | 'Bottom';
  width: number;
  height: number;
}

export interface PlacedFunnelLabel {
  label: FunnelLabel;
  box: { x: number; y: number; width: number; height: number };
  /** The callout line (OutsideInColumn only). */
  callout?: [[number, number], [number, number]];
}

const SPACING = 3;
/** Comparisons allowed when moving overlapping labels apart: bounds hostile point counts. */
const OVERLAP_BUDGET = 4_000_000;

export function funnelLabels(ctx: PlotContext, series: PlotSeries, pyramid: boolean): FunnelLabel[] {
  const out: FunnelLabel[] = [];
  series.points.forEach((p, index) => {
    if (p.empty || p.label === '') return;
    const c = p.custom;
    const style = customWord<Style>(
      c,
      prop(pyramid, 'LabelStyle'),
      ['OutsideInColumn', 'Outside', 'Inside', 'Disabled'],
      'OutsideInColumn',
    );
    if (style === 'Disabled') return;
    const right = customWord(c, prop(pyramid, 'OutsideLabelPlacement'), ['Right', 'Left'], 'Right') === 'Right';
    const align = customWord(c, prop(pyramid, 'InsideLabelAlignment'), ['Top', 'Center', 'Bottom'], 'Center');
    out.push({ index, text: p.label, style, right, align, ...measureLabel(ctx, p.label, series.font) });
  });
  return out;
}

/** Places the labels next to the segments drawn in `plot`. */
export function placeLabels(
  s: FunnelSpec,
  plot: Rect,
  segs: readonly Segment[],
  labels: readonly FunnelLabel[],
): PlacedFunnelLabel[] {
  const cx = plot.x + plot.width / 2;
  const neck = Math.min(s.neck.width, plot.width / 2);
  const byIndex = new Map(segs.map((g) => [g.index, g]));
  const lastIndex = segs.length > 0 ? segs[segs.length - 1]!.index : -1;
  const placed: PlacedFunnelLabel[] = [];
  let budget = OVERLAP_BUDGET;
  for (const l of labels) {
    // With YIsWidth a label belongs to the segment below its point's width line.
    let seg = drawsFirst(s) ? byIndex.get(l.index) : byIndex.get(l.index + 1);
    const last = !drawsFirst(s) && seg === undefined && l.index === lastIndex;
    if (last) seg = byIndex.get(lastIndex);
    if (!seg) continue;
    let x: number;
    let y: number;
    let callout: PlacedFunnelLabel['callout'];
    const edgeY = s.yIsWidth ? seg.top + (last ? seg.height : 0) : seg.top + seg.height / 2;
    let half: number;
    if (s.yIsWidth) half = (last ? seg.bottomWidth : seg.topWidth) / 2;
    else if (s.pyramid) half = (seg.topWidth + seg.bottomWidth) / 4;
    else {
      const top = Math.max(seg.topWidth, neck);
      const bottom = seg.topWidth >= neck && seg.bottomWidth < neck ? seg.bottomWidth : Math.max(seg.bottomWidth, neck);
      half = Math.max(neck / 2, (top + bottom) / 4);
    }
    if (l.style === 'Inside') {
      x = cx - l.width / 2;
      y = edgeY - l.height / 2;
      if (s.yIsWidth) {
        if (l.align === 'Top') y -= l.height / 2 + SPACING;
        if (l.align === 'Bottom') y += l.height / 2 + SPACING;
      } else {
        if (l.align === 'Top') y -= seg.height / 2 - l.height / 2 - SPACING;
        if (l.align === 'Bottom') y += seg.height / 2 - l.height / 2 - SPACING;
      }
    } else {
      y = edgeY - l.height / 2;
      if (l.style === 'OutsideInColumn') {
        x = l.right ? plot.x + plot.width + 4 * SPACING : plot.x - l.width - 4 * SPACING;
        const from = l.right ? cx + half + 2 : cx - half - 2;
        callout = [
          [from, edgeY],
          [l.right ? x : x + l.width, edgeY],
        ];
      } else {
        x = l.right ? cx + half + 4 * SPACING : cx - l.width - half - 4 * SPACING;
      }
    }
    const box = { x, y, width: l.width, height: l.height };
    const step = s.pyramid ? -SPACING : SPACING;
    for (let moves = 0; moves < 1000 && budget > 0; moves++) {
      const probe = { x: box.x - 1, y: box.y - 1, width: box.width + 2, height: box.height + 2 };
      budget -= placed.length;
      if (!placed.some((q) => overlaps(q.box, probe))) break;
      box.y += step;
      if (callout) callout[1][1] += step;
    }
    placed.push({ label: l, box, callout });
  }
  return placed;
}

/** The plot area: the area less 1 % on each side, and less the room the labels need beyond
 *  that (MS Chart's FitPointLabels, at most 5 rounds). */
export function fitPlotArea(
  s: FunnelSpec,
  area: Rect,
  labels: readonly FunnelLabel[],
  layout: (plot: Rect) => { segs: Segment[] },
): Rect {
  const base = { l: area.width / 100, t: area.height / 100, r: area.width / 100, b: area.height / 100 };
  const plotOf = (sp: typeof base): Rect => {
    const t = Math.min(sp.t, area.height / 2);
    const b = Math.min(sp.b, area.height / 2);
    return {
      x: area.x + sp.l,
      y: area.y + t,
      width: Math.max(0, area.width - sp.l - sp.r),
      height: Math.max(0, area.height - t - b),
    };
  };
  let plot = plotOf(base);
  if (labels.length === 0) return plot;
  for (let round = 0; round < 5; round++) {
    const placed = placeLabels(s, plot, layout(plot).segs, labels);
    const need = { ...base };
    const inner = { x: plot.x + 4, y: plot.y + 4, r: plot.x + plot.width - 4, b: plot.y + plot.height - 4 };
    for (const p of placed) {
      let { x, width } = p.box;
      if (p.label.style !== 'Inside') {
        width += 10;
        if (!p.label.right) x -= 10;
        need.l = Math.max(need.l, inner.x - x);
        need.r = Math.max(need.r, x + width - inner.r);
      }
      need.t = Math.max(need.t, inner.y - p.box.y);
      need.b = Math.max(need.b, p.box.y + p.box.height - inner.b);
    }
    const next = plotOf(need);
    const same = Math.abs(next.x - plot.x) + Math.abs(next.y - plot.y) + Math.abs(next.width - plot.width) < 0.01;
    plot = next;
    if (same) break;
  }
  return plot;
}
