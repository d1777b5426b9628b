import { describe, expect, it } from 'vitest';
import { plotDoughnut, plotPie } from '../../../src/report/chart/plot-pie.js';
import type { PathShape, PlotSeries } from '../../../src/report/chart/plot-types.js';
import { boxesOverlap, bounded, byTag, context, coords, insideRect, readPath, series, texts } from './plot-fixtures.js';

const RECT = { x: 10, y: 20, width: 400, height: 300 };
const CENTER = { x: 210, y: 170 };
const deg = (x: number, y: number, c = CENTER): number => ((Math.atan2(y - c.y, x - c.x) * 180) / Math.PI + 360) % 360;

/** A slice's start angle, sweep and outer radius, read from its path (M outer start, C… along the
 *  outer arc, then L to the centre or the hole). */
function slice(shape: PathShape, c = CENTER) {
  const cmds = readPath(shape.d);
  const [mx, my] = cmds[0]!.n as [number, number];
  const arc = cmds.filter((k) => k.c === 'C');
  const outer = arc.slice(0, arc.findIndex((k, i) => i > 0 && cmds[cmds.indexOf(k) - 1]!.c === 'L') >>> 0);
  const last = (outer.length ? outer : arc).at(-1)!.n;
  const start = deg(mx, my, c);
  const end = deg(last[4]!, last[5]!, c);
  const sweep = (end - start + 360) % 360;
  return { start, sweep, radius: Math.hypot(mx - c.x, my - c.y), cmds };
}

const ctx = context(RECT);

describe('Pie', () => {
  it('draws slices proportional to |Y|, clockwise from 3 o’clock, as Bézier arcs on the circle', () => {
    const ys = [1, 2, 3, 4, -5];
    const shapes = plotPie(ctx, series('Pie', ys), []);
    const total = ys.reduce((s, y) => s + Math.abs(y), 0);
    let expectedStart = 0;
    ys.forEach((y, i) => {
      const s = slice(byTag(shapes, `S/${i}`) as PathShape);
      expect(s.start).toBeCloseTo(expectedStart % 360, 2);
      expect(Math.abs(s.sweep - (360 * Math.abs(y)) / total)).toBeLessThan(0.01);
      expectedStart += (360 * Math.abs(y)) / total;
      // 95 % of the square's side is the diameter; every arc end point lies on the circle and
      // every Bézier's midpoint within 0.05 % of it.
      expect(s.radius).toBeCloseTo((300 * 0.95) / 2, 2);
      let prev = [s.cmds[0]!.n[0]!, s.cmds[0]!.n[1]!];
      for (const k of s.cmds) {
        if (k.c !== 'C') {
          if (k.c !== 'Z') prev = [k.n[0]!, k.n[1]!];
          continue;
        }
        const [x1, y1, x2, y2, x3, y3] = k.n as [number, number, number, number, number, number];
        const mid = [(prev[0]! + 3 * x1 + 3 * x2 + x3) / 8, (prev[1]! + 3 * y1 + 3 * y2 + y3) / 8] as const;
        expect(Math.abs(Math.hypot(mid[0] - CENTER.x, mid[1] - CENTER.y) / s.radius - 1)).toBeLessThan(5e-4);
        expect(Math.hypot(x3 - CENTER.x, y3 - CENTER.y)).toBeCloseTo(s.radius, 2);
        prev = [x3, y3];
      }
    });
  });

  it('starts at PieStartAngle and ignores an angle out of [0, 360]', () => {
    const at = (a: string) =>
      slice(byTag(plotPie(ctx, series('Pie', [1, 1], { custom: { PieStartAngle: a } }), []), 'S/0') as PathShape).start;
    expect(at('90')).toBeCloseTo(90, 2);
    expect(at('270.5')).toBeCloseTo(270.5, 2);
    expect(at('400')).toBeCloseTo(0, 2);
    expect(at('abc')).toBeCloseTo(0, 2);
  });

  it('moves an exploded slice out by a tenth of the pie along its mid-angle, the pie at 80 %', () => {
    const s = series('Pie', [1, 1, 2], {}, (i) => ({ exploded: i === 1 }));
    const shapes = plotPie(ctx, s, []);
    const r = (300 * 0.8) / 2;
    const ex = readPath((byTag(shapes, 'S/1') as PathShape).d);
    const apex = ex.find((k) => k.c === 'L')!.n;
    // Slice 1 runs from 90° to 180°: its mid-angle is 135°.
    const dx = apex[0]! - CENTER.x;
    const dy = apex[1]! - CENTER.y;
    expect(Math.hypot(dx, dy)).toBeCloseTo((2 * r) / 10, 2);
    expect(deg(apex[0]!, apex[1]!)).toBeCloseTo(135, 2);
    const other = slice(byTag(shapes, 'S/0') as PathShape);
    expect(other.radius).toBeCloseTo(r, 2);
  });

  it('skips empty points and zero values, and draws nothing for a zero total', () => {
    const shapes = plotPie(
      ctx,
      series('Pie', [3, 0, 5, 2], {}, (i) => ({ empty: i === 2 })),
      [],
    );
    expect(byTag(shapes, 'S/1')).toBeUndefined();
    expect(byTag(shapes, 'S/2')).toBeUndefined();
    expect(slice(byTag(shapes, 'S/0') as PathShape).sweep).toBeCloseTo(360 * (3 / 5), 2);
    expect(plotPie(ctx, series('Pie', [0, 0, 0]), [])).toEqual([]);
    expect(plotPie(ctx, series('Pie', []), [])).toEqual([]);
    expect(plotPie(context({ x: 0, y: 0, width: 0, height: 50 }), series('Pie', [1, 2]), [])).toEqual([]);
  });

  it('draws a single point as a whole circle', () => {
    const shapes = plotPie(ctx, series('Pie', [7]), []);
    const d = (byTag(shapes, 'S/0') as PathShape).d;
    expect(readPath(d).filter((k) => k.c === 'C')).toHaveLength(4);
    expect(readPath(d).some((k) => k.c === 'L')).toBe(false);
  });

  it('stays finite and inside the area for hostile values', () => {
    for (const ys of [
      [1e308, 1e308, 1e308],
      [Number.NaN, 1, Number.POSITIVE_INFINITY, 2],
      [-1e-300, 1e-300],
    ]) {
      const shapes = plotPie(
        ctx,
        series('Pie', ys, { label: (y) => String(y), custom: { PieLabelStyle: 'Outside' } }),
        [],
      );
      expect(shapes.length).toBeGreaterThan(0);
      expect(bounded(shapes, RECT)).toBe(true);
    }
    const huge = plotPie(ctx, series('Pie', [1e308, 1e308, 1e308]), []);
    for (let i = 0; i < 3; i++) expect(slice(byTag(huge, `S/${i}`) as PathShape).sweep).toBeCloseTo(120, 2);
    const many = Array.from({ length: 50_000 }, (_, i) => (i % 7) + 1);
    const t0 = Date.now();
    const lots = plotPie(ctx, series('Pie', many), []);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(lots.length).toBe(many.length);
    expect(bounded(lots, RECT)).toBe(true);
  });

  it('centres inside labels at a quarter of the diameter along the mid-angle', () => {
    const shapes = plotPie(ctx, series('Pie', [1, 3], { label: (y) => `v${y}` }), []);
    const r = (300 * 0.95) / 2;
    const label = texts(shapes).find((t) => t.tag === 'S/1/label')!;
    expect(label.text).toBe('v3');
    const cx = label.x + label.width / 2;
    const cy = label.y + label.height / 2;
    expect(Math.hypot(cx - CENTER.x, cy - CENTER.y)).toBeCloseTo(r / 2, 2);
    expect(deg(cx, cy)).toBeCloseTo(90 + 135, 2);
  });

  it('shrinks the pie so that outside labels fit beside it, with leader lines', () => {
    const names = ['Andrew Fuller', 'Janet Leverling', 'Nancy Davolio', 'Steven Buchanan'];
    const s = series(
      'Doughnut',
      [8, 9, 12, 11],
      { custom: { PieLabelStyle: 'Outside', PieLineColor: 'Silver' }, label: (y, i) => `${names[i]}: ${y}` },
      (i) => ({ exploded: i === 2 }),
    );
    const shapes = plotDoughnut(ctx, s, []);
    const outer = Math.max(...[0, 1, 3].map((i) => slice(byTag(shapes, `S/${i}`) as PathShape).radius));
    const labels = texts(shapes);
    expect(labels).toHaveLength(4);
    for (const l of labels) {
      expect(insideRect(l, RECT)).toBe(true);
      // Clear of the pie, even of the exploded slice (1/10 of the diameter further out).
      const nearest = Math.hypot(
        Math.max(l.x - CENTER.x, 0, CENTER.x - (l.x + l.width)),
        Math.max(l.y - CENTER.y, 0, CENTER.y - (l.y + l.height)),
      );
      expect(nearest).toBeGreaterThan(outer * 1.2);
      const leader = byTag(shapes, `${l.tag!.replace('/label', '')}/leader`) as PathShape;
      expect(leader.stroke).toEqual({ r: 192, g: 192, b: 192, a: 255 });
      const end = coords(leader.d).at(-1)!;
      // The line ends where the text begins (left of a right-side label, right of a left one).
      expect(Math.min(Math.abs(end[0] - l.x), Math.abs(end[0] - (l.x + l.width)))).toBeLessThan(0.01);
    }
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) expect(boxesOverlap(labels[i]!, labels[j]!)).toBe(false);
    }
    // The labels cost room: the pie is below its 95 % (and below the 80 % of an exploded pie).
    expect(outer).toBeLessThan((300 * 0.8) / 2);
  });

  it('sets crowded outside labels in columns without overlaps', () => {
    const ys = [50, 1, 1, 1, 1, 1, 1, 1, 1, 40];
    const s = series('Pie', ys, { custom: { PieLabelStyle: 'Outside' }, label: (_, i) => `Label ${i}` }, () => ({
      borderColor: { r: 0, g: 0, b: 0, a: 255 },
    }));
    const shapes = plotPie(ctx, s, []);
    const labels = texts(shapes);
    expect(labels).toHaveLength(ys.length);
    for (let i = 0; i < labels.length; i++) {
      expect(insideRect(labels[i]!, RECT)).toBe(true);
      for (let j = i + 1; j < labels.length; j++) expect(boxesOverlap(labels[i]!, labels[j]!)).toBe(false);
    }
    const r = slice(byTag(shapes, 'S/0') as PathShape).radius;
    for (const l of labels)
      expect(Math.min(Math.abs(l.x - CENTER.x), Math.abs(l.x + l.width - CENTER.x))).toBeGreaterThan(r);
  });

  it('draws only the first Pie series of the area, as MS Chart does', () => {
    const a = series('Pie', [1, 2], { name: 'A' });
    const b = series('Pie', [3, 4], { name: 'B' });
    expect(plotPie(ctx, a, [a, b]).length).toBeGreaterThan(0);
    expect(plotPie(ctx, b, [a, b])).toEqual([]);
  });

  it('breaks a label at MS Chart’s \\n escape and measures its lines', () => {
    const shapes = plotPie(ctx, series('Pie', [1, 1], { label: () => 'first\\nsecond line' }), []);
    const label = texts(shapes)[0]!;
    expect(label.text).toBe('first\nsecond line');
    // The fixture measures 12 px a line and 6 px a character (+2 px of slack).
    expect(label.height).toBe(24);
    expect(label.width).toBe(6 * 'second line'.length + 2);
  });

  it('draws no labels with PieLabelStyle=Disabled', () => {
    const s = series('Pie', [1, 2], { custom: { PieLabelStyle: 'Disabled' }, label: () => 'x' });
    expect(texts(plotPie(ctx, s, []))).toHaveLength(0);
  });
});

describe('Doughnut', () => {
  function holeOf(s: PlotSeries): { outer: number; hole: number } {
    const shape = byTag(plotDoughnut(ctx, s, []), 'S/0') as PathShape;
    const cmds = readPath(shape.d);
    const [mx, my] = cmds[0]!.n as [number, number];
    const l = cmds.find((k) => k.c === 'L')!.n;
    return { outer: Math.hypot(mx - CENTER.x, my - CENTER.y), hole: Math.hypot(l[0]! - CENTER.x, l[1]! - CENTER.y) };
  }

  it('leaves a hole of DoughnutRadius % of the radius (default 60)', () => {
    const d = holeOf(series('Doughnut', [1, 2, 3]));
    expect(d.hole / d.outer).toBeCloseTo(0.6, 4);
    const t = holeOf(series('Doughnut', [1, 2, 3], { custom: { DoughnutRadius: '30' } }));
    expect(t.hole / t.outer).toBeCloseTo(0.3, 4);
    const bad = holeOf(series('Doughnut', [1, 2, 3], { custom: { DoughnutRadius: '150' } }));
    expect(bad.hole / bad.outer).toBeCloseTo(0.6, 4);
  });

  it('draws a one-point doughnut as a ring: the outer circle and the hole wound the other way', () => {
    const shape = byTag(plotDoughnut(ctx, series('Doughnut', [4]), []), 'S/0') as PathShape;
    const moves = readPath(shape.d).filter((k) => k.c === 'M');
    expect(moves).toHaveLength(2);
    expect(Math.hypot(moves[1]!.n[0]! - CENTER.x, moves[1]!.n[1]! - CENTER.y) / (285 / 2)).toBeCloseTo(0.6, 4);
  });
});
