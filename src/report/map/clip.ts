// Clipping a map's drawing to the object (FastReport sets the object's rectangle less its padding
// as the clip region): a filled ring is cut by the rectangle's four edges (Sutherland–Hodgman),
// an outline segment by the rectangle (Liang–Barsky), so that what lies outside is not drawn
// and no false edge is stroked along the rectangle.

export interface ClipRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

type Pt = readonly [number, number];

/** The part of a closed ring inside the rectangle (possibly with edges along it). */
export function clipRing(ring: readonly Pt[], r: ClipRect): Pt[] {
  let out: Pt[] = [...ring];
  const edges: [(p: Pt) => boolean, (a: Pt, b: Pt) => Pt][] = [
    [(p) => p[0] >= r.x0, (a, b) => atX(a, b, r.x0)],
    [(p) => p[0] <= r.x1, (a, b) => atX(a, b, r.x1)],
    [(p) => p[1] >= r.y0, (a, b) => atY(a, b, r.y0)],
    [(p) => p[1] <= r.y1, (a, b) => atY(a, b, r.y1)],
  ];
  for (const [inside, cross] of edges) {
    const input = out;
    out = [];
    for (let i = 0; i < input.length; i++) {
      const cur = input[i] as Pt;
      const prev = input[(i + input.length - 1) % input.length] as Pt;
      if (inside(cur)) {
        if (!inside(prev)) out.push(cross(prev, cur));
        out.push(cur);
      } else if (inside(prev)) out.push(cross(prev, cur));
    }
    if (out.length === 0) break;
  }
  return out;
}

const atX = (a: Pt, b: Pt, x: number): Pt => [x, a[1] + ((b[1] - a[1]) * (x - a[0])) / (b[0] - a[0])];
const atY = (a: Pt, b: Pt, y: number): Pt => [a[0] + ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]), y];

/** The pieces of a polyline inside the rectangle, each a run of points. */
export function clipPolyline(points: readonly Pt[], r: ClipRect): Pt[][] {
  const runs: Pt[][] = [];
  let run: Pt[] = [];
  for (let i = 1; i < points.length; i++) {
    const seg = clipSegment(points[i - 1] as Pt, points[i] as Pt, r);
    if (!seg) {
      if (run.length > 1) runs.push(run);
      run = [];
      continue;
    }
    const [a, b] = seg;
    const last = run[run.length - 1];
    if (!last || last[0] !== a[0] || last[1] !== a[1]) {
      if (run.length > 1) runs.push(run);
      run = [a];
    }
    run.push(b);
  }
  if (run.length > 1) runs.push(run);
  return runs;
}

/** Liang–Barsky: the part of the segment inside the rectangle, or null. */
export function clipSegment(a: Pt, b: Pt, r: ClipRect): [Pt, Pt] | null {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  let t0 = 0;
  let t1 = 1;
  const tests: [number, number][] = [
    [-dx, a[0] - r.x0],
    [dx, r.x1 - a[0]],
    [-dy, a[1] - r.y0],
    [dy, r.y1 - a[1]],
  ];
  for (const [p, q] of tests) {
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const t = q / p;
    if (p < 0) {
      if (t > t1) return null;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return null;
      if (t < t1) t1 = t;
    }
  }
  return [
    [a[0] + t0 * dx, a[1] + t0 * dy],
    [a[0] + t1 * dx, a[1] + t1 * dy],
  ];
}
