import { describe, expect, it } from 'vitest';
import { plotRadar } from '../../../src/report/chart/plot-radar.js';
import type { ChartShape, PathShape, PlotSeries, TextShape } from '../../../src/report/chart/plot-types.js';
import { PALETTE, bounded, byTag, context, insideRect, readPath, series, texts, vertices } from './plot-fixtures.js';

const RECT = { x: 0, y: 0, width: 360, height: 300 };
const ctx = context(RECT);

/** Draws every series of the area as the chart layout does, one plotter call each. */
const draw = (all: PlotSeries[], c = ctx): ChartShape[] => all.flatMap((s) => plotRadar(c, s, all));

/** The centre (spokes start there) and the outer radius (the last ring). */
function frame(shapes: readonly ChartShape[]) {
  const spokes = readPath((byTag(shapes, 'radar/spokes') as PathShape).d);
  const [cx, cy] = spokes[0]!.n as [number, number];
  const rings = shapes.filter((s) => s.tag?.startsWith('radar/ring/')) as PathShape[];
  const outer = readPath(rings.at(-1)!.d)[0]!.n;
  return { cx, cy, radius: Math.hypot(outer[0]! - cx, outer[1]! - cy), rings, spokes };
}

/** Angle from 12 o'clock, clockwise, in degrees. */
const clock = (x: number, y: number, cx: number, cy: number): number =>
  ((Math.atan2(x - cx, -(y - cy)) * 180) / Math.PI + 360) % 360;

describe('Radar', () => {
  it('puts point k on spoke k (12 o’clock, clockwise) at a distance proportional to its value', () => {
    const ys = [1, 2, 3, 4, 5, 6];
    const shapes = draw([series('Radar', ys)]);
    const { cx, cy, radius } = frame(shapes);
    const v = vertices((byTag(shapes, 'S/area') as PathShape).d);
    expect(v).toHaveLength(ys.length);
    // The value labels name the rings: the last one is the scale's maximum.
    const values = texts(shapes).filter((t) => t.tag?.startsWith('radar/value/'));
    const max = Number(values.at(-1)!.text);
    expect(max).toBeGreaterThan(Math.max(...ys));
    v.forEach(([x, y], k) => {
      expect(Math.abs(Math.hypot(x - cx, y - cy) - (radius * ys[k]!) / max)).toBeLessThan(0.01);
      expect(clock(x, y, cx, cy)).toBeCloseTo((360 * k) / ys.length, 2);
    });
  });

  it('draws rings at the scale’s values, spaced evenly from the centre', () => {
    const shapes = draw([series('Radar', [3, 17, 9])]);
    const { cx, radius, rings } = frame(shapes);
    const values = texts(shapes)
      .filter((t) => t.tag?.startsWith('radar/value/'))
      .map((t) => Number(t.text));
    expect(values[0]).toBe(0);
    const step = values[1]! - values[0]!;
    values.forEach((v, i) => {
      expect(v).toBeCloseTo(i * step, 9);
    });
    // One ring per value above zero, its radius in proportion.
    expect(rings).toHaveLength(values.length - 1);
    rings.forEach((ring, i) => {
      const [x] = readPath(ring.d)[0]!.n as [number];
      expect((x - cx) / radius).toBeCloseTo(values[i + 1]! / values.at(-1)!, 4);
    });
  });

  it('draws the rings once below all series and the spokes once above them', () => {
    const all = [
      series('Radar', [110, 120, 90, 50], { name: 'A' }),
      series('Radar', [70, 120, 100, 130], { name: 'B' }),
    ];
    const first = plotRadar(ctx, all[0]!, all);
    const second = plotRadar(ctx, all[1]!, all);
    expect(first.some((s) => s.tag?.startsWith('radar/ring/'))).toBe(true);
    expect(second.some((s) => s.tag?.startsWith('radar/ring/'))).toBe(false);
    expect(byTag(first, 'radar/spokes')).toBeUndefined();
    expect(byTag(second, 'radar/spokes')).toBeDefined();
    // Both series are drawn on the same scale: the largest value of either sets it.
    const shapes = [...first, ...second];
    const { cx, cy, radius } = frame(shapes);
    const max = Number(
      texts(shapes)
        .filter((t) => t.tag?.startsWith('radar/value/'))
        .at(-1)!.text,
    );
    const b = vertices((byTag(shapes, 'B/area') as PathShape).d);
    expect(Math.hypot(b[3]![0] - cx, b[3]![1] - cy)).toBeCloseTo((radius * 130) / max, 2);
  });

  it('labels the spokes with the categories outside the outer ring, inside the area', () => {
    const all = [
      series('Radar', [1, 2, 3, 4], {}, (i) => ({ axisLabel: ['January', 'February', 'March', 'April'][i]! })),
    ];
    const shapes = draw(all);
    const { cx, cy, radius } = frame(shapes);
    const cats = texts(shapes).filter((t) => t.tag?.startsWith('radar/category/'));
    expect(cats.map((t) => t.text)).toEqual(['January', 'February', 'March', 'April']);
    for (const t of cats) {
      expect(insideRect(t, RECT)).toBe(true);
      const nearest = Math.hypot(
        Math.max(t.x - cx, 0, cx - (t.x + t.width)),
        Math.max(t.y - cy, 0, cy - (t.y + t.height)),
      );
      expect(nearest).toBeGreaterThan(radius);
    }
  });

  it('draws polygon rings with AreaDrawingStyle=Polygon, and lines or markers by RadarDrawingStyle', () => {
    const poly = draw([series('Radar', [1, 2, 3, 4, 5], { custom: { AreaDrawingStyle: 'Polygon' } })]);
    const ring = frame(poly).rings[0]!;
    expect(readPath(ring.d).some((k) => k.c === 'C')).toBe(false);
    expect(vertices(ring.d)).toHaveLength(5);

    const line = draw([series('Radar', [1, 2, 3], { custom: { RadarDrawingStyle: 'Line' } })]);
    const l = byTag(line, 'S/line') as PathShape;
    expect(l.fill).toBeUndefined();
    expect(l.stroke).toBeDefined();
    expect(byTag(line, 'S/area')).toBeUndefined();

    const markers = draw([series('Radar', [1, 2, 3], { custom: { RadarDrawingStyle: 'Marker' } })]);
    expect([0, 1, 2].every((i) => byTag(markers, `S/${i}`) !== undefined)).toBe(true);
    expect(byTag(markers, 'S/area')).toBeUndefined();

    // Points of their own colours: a sector each (centre, point, next point).
    const colours = draw([series('Radar', [1, 2, 3], {}, (i) => ({ color: PALETTE[i]! }))]);
    const sector = byTag(colours, 'S/1/sector') as PathShape;
    expect(sector.fill).toEqual(PALETTE[1]);
    expect(vertices(sector.d)).toHaveLength(3);
  });

  it('prints point labels above their vertices', () => {
    const shapes = draw([series('Radar', [2, 4, 6], { label: (y) => `#${y}` })]);
    const v = vertices((byTag(shapes, 'S/area') as PathShape).d);
    const label = byTag(shapes, 'S/1/label') as TextShape;
    expect(label.text).toBe('#4');
    expect(label.x + label.width / 2).toBeCloseTo(v[1]![0], 2);
    expect(label.y + label.height).toBeLessThanOrEqual(v[1]![1]);
  });

  it('fills an empty point with its neighbours’ mean and handles negative values', () => {
    const shapes = draw([series('Radar', [2, 0, 6, 4], {}, (i) => ({ empty: i === 1 }))]);
    const { cx, cy, radius } = frame(shapes);
    const max = Number(
      texts(shapes)
        .filter((t) => t.tag?.startsWith('radar/value/'))
        .at(-1)!.text,
    );
    const v = vertices((byTag(shapes, 'S/area') as PathShape).d);
    expect(Math.hypot(v[1]![0] - cx, v[1]![1] - cy)).toBeCloseTo((radius * 4) / max, 2);

    const neg = draw([series('Radar', [-5, 10, 3])]);
    const f = frame(neg);
    const ticks = texts(neg)
      .filter((t) => t.tag?.startsWith('radar/value/'))
      .map((t) => Number(t.text));
    const min = ticks[0]!;
    const top = ticks.at(-1)!;
    expect(min).toBeLessThan(-5 + 1e-9);
    const nv = vertices((byTag(neg, 'S/area') as PathShape).d);
    [-5, 10, 3].forEach((y, k) => {
      expect(Math.hypot(nv[k]![0] - f.cx, nv[k]![1] - f.cy)).toBeCloseTo((f.radius * (y - min)) / (top - min), 2);
    });
  });

  it('stays finite and bounded for hostile input', () => {
    for (const ys of [[1e300, 1e300, 5], [Number.NaN, Number.POSITIVE_INFINITY, 1], [0, 0, 0], []]) {
      const shapes = draw([series('Radar', ys, { label: (y) => String(y) })]);
      expect(bounded(shapes, RECT, 1)).toBe(true);
    }
    const many = Array.from({ length: 20_000 }, (_, i) => i % 13);
    const t0 = Date.now();
    const shapes = draw([series('Radar', many)]);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(texts(shapes).filter((t) => t.tag?.startsWith('radar/category/')).length).toBeLessThanOrEqual(1000);
    expect(bounded(shapes, RECT, 1)).toBe(true);
    expect(draw([series('Radar', [1, 2])], context({ x: 0, y: 0, width: 0, height: 10 }))).toEqual([]);
  });
});

describe('Polar', () => {
  it('places a point at its X angle and labels 12 sectors of 30°', () => {
    const s = series('Polar', [4, 8, 8], {}, (i) => ({ x: [0, 45, 200][i]! }));
    const shapes = draw([s]);
    const { cx, cy } = frame(shapes);
    const line = byTag(shapes, 'S/line') as PathShape;
    const v = vertices(line.d);
    expect(v.map(([x, y]) => clock(x, y, cx, cy))).toEqual([
      expect.closeTo(0, 2),
      expect.closeTo(45, 2),
      expect.closeTo(200, 2),
    ]);
    // Not joined back to the first point.
    expect(readPath(line.d).some((k) => k.c === 'Z')).toBe(false);
    expect(
      texts(shapes)
        .filter((t) => t.tag?.startsWith('radar/category/'))
        .map((t) => t.text),
    ).toEqual(Array.from({ length: 12 }, (_, k) => String(k * 30)));
  });
});
