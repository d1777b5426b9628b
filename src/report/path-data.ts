// SVG path data for the prepared items drawn as paths (barcodes, polygons, ZIP codes), which both
// exporters draw (the HTML as an SVG <path>, the PDF through pdfkit's path parser). Every closed
// figure it makes winds clockwise on the page, so a figure's pieces that overlap fill as one under
// the nonzero rule; a hole winds the other way.

const n = (v: number): string => {
  const r = Math.round(v * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r);
};

export class PathBuilder {
  private parts: string[] = [];

  rect(x: number, y: number, w: number, h: number): void {
    if (!(w > 0 && h > 0)) return;
    this.parts.push(`M${n(x)} ${n(y)}h${n(w)}v${n(h)}h${n(-w)}z`);
  }

  polygon(points: readonly (readonly [number, number])[]): void {
    if (points.length < 3) return;
    this.parts.push(`M${points.map(([x, y]) => `${n(x)} ${n(y)}`).join('L')}z`);
  }

  /** An ellipse in the box; `hole` winds it the other way (a ring's inner edge). */
  ellipse(cx: number, cy: number, rx: number, ry: number, hole = false): void {
    if (!(rx > 0 && ry > 0)) return;
    const s = hole ? 0 : 1;
    this.parts.push(
      `M${n(cx - rx)} ${n(cy)}a${n(rx)} ${n(ry)} 0 1 ${s} ${n(2 * rx)} 0a${n(rx)} ${n(ry)} 0 1 ${s} ${n(-2 * rx)} 0z`,
    );
  }

  /** A rectangle with rounded corners of radius r (clamped to half the shorter side). */
  roundRect(x: number, y: number, w: number, h: number, r: number): void {
    if (!(w > 0 && h > 0)) return;
    const q = Math.min(r, w / 2, h / 2);
    if (q <= 0) this.rect(x, y, w, h);
    if (q <= 0) return;
    const a = `a${n(q)} ${n(q)} 0 0 1`;
    this.parts.push(
      `M${n(x + q)} ${n(y)}h${n(w - 2 * q)}${a} ${n(q)} ${n(q)}v${n(h - 2 * q)}${a} ${n(-q)} ${n(q)}` +
        `h${n(-(w - 2 * q))}${a} ${n(-q)} ${n(-q)}v${n(-(h - 2 * q))}${a} ${n(q)} ${n(-q)}z`,
    );
  }

  /** An open or closed line through the points (a stroke; no winding rule). */
  polyline(points: readonly (readonly [number, number])[], closed = false): void {
    if (points.length < 2) return;
    this.parts.push(`M${points.map(([x, y]) => `${n(x)} ${n(y)}`).join('L')}${closed ? 'z' : ''}`);
  }

  moveTo(x: number, y: number): void {
    this.parts.push(`M${n(x)} ${n(y)}`);
  }

  lineTo(x: number, y: number): void {
    this.parts.push(`L${n(x)} ${n(y)}`);
  }

  curveTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void {
    this.parts.push(`C${n(x1)} ${n(y1)} ${n(x2)} ${n(y2)} ${n(x)} ${n(y)}`);
  }

  close(): void {
    this.parts.push('Z');
  }

  get empty(): boolean {
    return this.parts.length === 0;
  }

  toString(): string {
    return this.parts.join('');
  }
}

// Circular arcs as cubic Béziers, for the objects drawn as paths of absolute commands (charts,
// maps): the HTML exporter bounds such a path from its numbers, so an arc cannot be an SVG `A`
// command. It is cut into pieces of at most 90°, each a cubic whose control points sit on the
// tangents at 4/3·tan(θ/4)·r (the radius error stays below 0.03 %). Angles are in degrees,
// 0° = 3 o'clock, growing clockwise on the page (y grows downwards).

const RAD = Math.PI / 180;

/** Appends the arc from angle `from` to angle `to` (either direction; at most one full turn) to
 *  a path whose current point is already the arc's start. */
export function arcTo(pb: PathBuilder, cx: number, cy: number, r: number, from: number, to: number): void {
  const sweep = Math.max(-360, Math.min(360, to - from));
  if (!(Math.abs(sweep) > 1e-9) || !(r > 0)) return;
  const pieces = Math.ceil(Math.abs(sweep) / 90 - 1e-9);
  const step = sweep / pieces;
  const k = (4 / 3) * Math.tan((step * RAD) / 4) * r;
  for (let i = 0; i < pieces; i++) {
    const a0 = (from + i * step) * RAD;
    const a1 = (from + (i + 1) * step) * RAD;
    const x0 = cx + r * Math.cos(a0);
    const y0 = cy + r * Math.sin(a0);
    const x3 = cx + r * Math.cos(a1);
    const y3 = cy + r * Math.sin(a1);
    pb.curveTo(x0 - k * Math.sin(a0), y0 + k * Math.cos(a0), x3 + k * Math.sin(a1), y3 - k * Math.cos(a1), x3, y3);
  }
}

/** A closed circle, clockwise (or anticlockwise with `hole`, a ring's inner edge). */
export function circle(pb: PathBuilder, cx: number, cy: number, r: number, hole = false): void {
  if (!(r > 0)) return;
  pb.moveTo(cx + r, cy);
  arcTo(pb, cx, cy, r, 0, hole ? -360 : 360);
  pb.close();
}
