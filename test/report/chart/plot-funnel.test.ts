import { describe, expect, it } from 'vitest';
import { plotFunnel } from '../../../src/report/chart/plot-funnel.js';
import type { PathShape, PlotSeries } from '../../../src/report/chart/plot-types.js';
import { boxesOverlap, bounded, byTag, context, insideRect, paths, series, texts, vertices } from './plot-fixtures.js';

const RECT = { x: 0, y: 0, width: 400, height: 300 };
const ctx = context(RECT);

interface Seg {
  top: number;
  bottom: number;
  topWidth: number;
  bottomWidth: number;
}

/** A segment's extent, read from its outline. */
function seg(shapes: ReturnType<typeof plotFunnel>, tag: string): Seg {
  const v = vertices((byTag(shapes, tag) as PathShape).d);
  const ys = v.map(([, y]) => y);
  const top = Math.min(...ys);
  const bottom = Math.max(...ys);
  const width = (y: number) => {
    const xs = v.filter(([, vy]) => Math.abs(vy - y) < 1e-6).map(([x]) => x);
    return Math.max(...xs) - Math.min(...xs);
  };
  return { top, bottom, topWidth: width(top), bottomWidth: width(bottom) };
}

const segsOf = (s: PlotSeries) => {
  const shapes = plotFunnel(ctx, s, [s]);
  return { shapes, segs: s.points.map((_, i) => (byTag(shapes, `S/${i}`) ? seg(shapes, `S/${i}`) : undefined)) };
};

describe('Funnel', () => {
  it('stacks segments from the top, each as tall as its share of Σ|Y|, widest at the top', () => {
    const ys = [5, 3, -2, 8, 1];
    const { segs } = segsOf(series('Funnel', ys));
    const total = ys.reduce((s, y) => s + Math.abs(y), 0);
    const all = segs as Seg[];
    const height = all.at(-1)!.bottom - all[0]!.top;
    // 1 % of the area is left on each side.
    expect(all[0]!.top).toBeCloseTo(RECT.height / 100, 2);
    expect(height).toBeCloseTo(RECT.height * 0.98, 2);
    all.forEach((g, i) => {
      expect(Math.abs(g.bottom - g.top - (height * Math.abs(ys[i]!)) / total)).toBeLessThan(0.01);
      if (i > 0) expect(g.top).toBeCloseTo(all[i - 1]!.bottom, 2);
      expect(g.topWidth).toBeGreaterThanOrEqual(g.bottomWidth - 1e-6);
    });
    expect(all[0]!.topWidth).toBeCloseTo(RECT.width * 0.98, 2);
    // The neck: 5 % of the area wide, at the bottom.
    expect(all.at(-1)!.bottomWidth).toBeCloseTo(RECT.width * 0.05, 2);
  });

  it('honours FunnelNeckWidth/Height and bends the segment that holds the neck’s top', () => {
    const s = series('Funnel', [1, 1, 1, 1], { custom: { FunnelNeckWidth: '20', FunnelNeckHeight: '30' } });
    const { shapes, segs } = segsOf(s);
    // The neck's top lies 30 % of the area above the bottom: in the third quarter, whose
    // segment bends there (six corners); the last quarter is all neck.
    expect(vertices((byTag(shapes, 'S/2') as PathShape).d)).toHaveLength(6);
    expect(segs[2]!.topWidth).toBeGreaterThan(RECT.width * 0.2);
    expect(segs[2]!.bottomWidth).toBeCloseTo(RECT.width * 0.2, 2);
    expect(segs[3]!.topWidth).toBeCloseTo(RECT.width * 0.2, 2);
    expect(segs[3]!.bottomWidth).toBeCloseTo(RECT.width * 0.2, 2);
  });

  it('leaves FunnelPointGap % of the height between segments', () => {
    const { segs } = segsOf(series('Funnel', [2, 2, 2], { custom: { FunnelPointGap: '5' } }));
    expect(segs[1]!.top - segs[0]!.bottom).toBeCloseTo(RECT.height * 0.05, 2);
    expect(segs[1]!.bottom - segs[1]!.top).toBeCloseTo(segs[0]!.bottom - segs[0]!.top, 2);
  });

  it('with FunnelStyle=YIsWidth gives the first point the top width only and widths by value', () => {
    const ys = [10, 6, 3];
    const { segs } = segsOf(series('Funnel', ys, { custom: { FunnelStyle: 'YIsWidth' } }));
    expect(segs[0]).toBeUndefined();
    const w = RECT.width * 0.98;
    expect(segs[1]!.topWidth).toBeCloseTo(w, 2);
    expect(segs[1]!.bottomWidth).toBeCloseTo((w * 6) / 10, 2);
    expect(segs[2]!.bottomWidth).toBeCloseTo((w * 3) / 10, 2);
    expect(segs[1]!.bottom - segs[1]!.top).toBeCloseTo(segs[2]!.bottom - segs[2]!.top, 2);
  });

  it('labels in a column on the right by default, with callouts, clear of the funnel and of each other', () => {
    const ys = [1, 2, 3, 4, 5, 0.1, 0.1, 0.1];
    const s = series('Funnel', ys, { label: (y, i) => `Stage ${i}: ${y}` });
    const { shapes, segs } = segsOf(s);
    const labels = texts(shapes);
    expect(labels).toHaveLength(ys.length);
    const right = Math.max(...(segs as Seg[]).map((g) => g.topWidth / 2)) + RECT.width / 2;
    for (const l of labels) {
      expect(insideRect(l, RECT)).toBe(true);
      const funnelRight = Math.max(
        ...paths(shapes)
          .filter((p) => !p.tag!.includes('callout'))
          .flatMap((p) => vertices(p.d).map(([x]) => x)),
      );
      expect(l.x).toBeGreaterThan(funnelRight);
      expect(byTag(shapes, l.tag!.replace('/label', '/callout'))).toBeDefined();
    }
    expect(right).toBeLessThan(RECT.width);
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) expect(boxesOverlap(labels[i]!, labels[j]!)).toBe(false);
    }
    // The segments leave room for the labels: the funnel's top is narrower than the area.
    expect(segs[0]!.topWidth).toBeLessThan(RECT.width * 0.98 - 60);
  });

  it('puts labels left with FunnelOutsideLabelPlacement=Left and inside with FunnelLabelStyle=Inside', () => {
    const left = series('Funnel', [1, 2, 3], {
      custom: { FunnelOutsideLabelPlacement: 'Left' },
      label: (y) => `value ${y}`,
    });
    const ls = plotFunnel(ctx, left, [left]);
    const funnelLeft = Math.min(
      ...paths(ls)
        .filter((p) => !p.tag!.includes('callout'))
        .flatMap((p) => vertices(p.d).map(([x]) => x)),
    );
    for (const l of texts(ls)) expect(l.x + l.width).toBeLessThan(funnelLeft);

    const inside = series('Funnel', [1, 2, 3], { custom: { FunnelLabelStyle: 'Inside' }, label: (y) => `v${y}` });
    const is = plotFunnel(ctx, inside, [inside]);
    for (const l of texts(is)) {
      const g = seg(is, l.tag!.replace('/label', ''));
      expect(l.x + l.width / 2).toBeCloseTo(RECT.width / 2, 2);
      expect(l.y + l.height / 2).toBeCloseTo((g.top + g.bottom) / 2, 2);
    }
    const off = series('Funnel', [1, 2], { custom: { FunnelLabelStyle: 'Disabled' }, label: () => 'x' });
    expect(texts(plotFunnel(ctx, off, [off]))).toHaveLength(0);
  });

  it('draws only the first Funnel series of the area', () => {
    const a = series('Funnel', [1, 2], { name: 'A' });
    const b = series('Funnel', [3, 4], { name: 'B' });
    expect(plotFunnel(ctx, a, [a, b]).length).toBeGreaterThan(0);
    expect(plotFunnel(ctx, b, [a, b])).toEqual([]);
  });

  it('skips empty points, draws nothing for a zero total, and stays bounded for hostile values', () => {
    const withEmpty = segsOf(series('Funnel', [1, 2, 3], {}, (i) => ({ empty: i === 1 })));
    expect(withEmpty.segs[1]).toBeUndefined();
    expect(plotFunnel(ctx, series('Funnel', [0, 0]), [])).toEqual([]);
    expect(plotFunnel(ctx, series('Funnel', []), [])).toEqual([]);
    for (const ys of [
      [1e308, 1e308],
      [Number.NaN, 2, Number.NEGATIVE_INFINITY, 3],
    ]) {
      const s = series('Funnel', ys, { label: (y) => String(y), custom: { FunnelPointGap: '1e300' } });
      const shapes = plotFunnel(ctx, s, [s]);
      expect(shapes.length).toBeGreaterThan(0);
      expect(bounded(shapes, RECT)).toBe(true);
    }
    const many = Array.from({ length: 5000 }, (_, i) => (i % 5) + 1);
    const s = series('Funnel', many, { label: (y) => String(y) });
    const t0 = Date.now();
    const shapes = plotFunnel(ctx, s, [s]);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(bounded(shapes, RECT)).toBe(true);
  });
});

describe('Pyramid', () => {
  it('stacks point 0 at the bottom, narrow at the top, heights by value', () => {
    const ys = [1, 3, 2, 4];
    const { segs } = segsOf(series('Pyramid', ys));
    const all = segs as Seg[];
    const total = ys.reduce((a, b) => a + b, 0);
    const height = all[0]!.bottom - all.at(-1)!.top;
    all.forEach((g, i) => {
      expect(Math.abs(g.bottom - g.top - (height * ys[i]!) / total)).toBeLessThan(0.01);
      if (i > 0) expect(g.bottom).toBeCloseTo(all[i - 1]!.top, 2);
    });
    expect(all.at(-1)!.topWidth).toBeCloseTo(0, 2);
    expect(all[0]!.bottomWidth).toBeCloseTo(RECT.width * 0.98, 2);
  });

  it('labels beside each segment with PyramidLabelStyle=Outside, in a column with callouts by default', () => {
    const outside = series('Pyramid', [1, 3, 2], { custom: { PyramidLabelStyle: 'Outside' }, label: (y) => `v${y}` });
    const shapes = plotFunnel(ctx, outside, [outside]);
    for (const l of texts(shapes)) {
      const g = seg(shapes, l.tag!.replace('/label', ''));
      // 12 px right of the segment's mean half-width, centred on its middle (the plot area,
      // and so the pyramid's axis, moved left to make room for the labels).
      const xs = vertices((byTag(shapes, l.tag!.replace('/label', '')) as PathShape).d).map(([x]) => x);
      const axis = (Math.min(...xs) + Math.max(...xs)) / 2;
      expect(axis).toBeLessThan(RECT.width / 2);
      expect(l.x).toBeCloseTo(axis + (g.topWidth + g.bottomWidth) / 4 + 12, 1);
      expect(insideRect(l, RECT)).toBe(true);
      expect(l.y + l.height / 2).toBeCloseTo((g.top + g.bottom) / 2, 2);
      expect(byTag(shapes, l.tag!.replace('/label', '/callout'))).toBeUndefined();
    }
    const column = series('Pyramid', [1, 3, 2], { label: (y) => `v${y}` });
    const cs = plotFunnel(ctx, column, [column]);
    const xs = texts(cs).map((l) => l.x);
    expect(new Set(xs.map((x) => x.toFixed(3))).size).toBe(1);
    for (const l of texts(cs)) {
      const callout = vertices((byTag(cs, l.tag!.replace('/label', '/callout')) as PathShape).d);
      expect(callout.at(-1)![0]).toBeCloseTo(l.x, 2);
    }
  });

  it('with PyramidValueType=Surface sizes segments by MS Chart’s surface rule', () => {
    // MS Chart: a point's height is its value times the height (from the apex) of the triangle
    // whose area is the sum of the values up to it.
    const ys = [4, 1, 1];
    const { segs } = segsOf(series('Pyramid', ys, { custom: { PyramidValueType: 'Surface' } }));
    let cum = 0;
    const expected = ys.map((y) => {
      cum += y;
      return y * Math.sqrt(cum);
    });
    const sum = expected.reduce((a, b) => a + b, 0);
    const heights = (segs as Seg[]).map((g) => g.bottom - g.top);
    const total = heights.reduce((a, b) => a + b, 0);
    heights.forEach((h, i) => {
      expect(h / total).toBeCloseTo(expected[i]! / sum, 4);
    });
  });
});
