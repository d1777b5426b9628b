// RadialGauge (RadialGauge.Draw, RadialScale, RadialPointer, RadialLabel): the body is the
// ellipse inside the border (outlined with the border's colour and width whatever its Lines say)
// or, for a Semicircle or Quadrant, a pie with a small base; the major ticks start `offset` below
// the top (the larger side of the Minimum and Maximum labels), W/12 long, pointing at the centre,
// their labels just outside; the minor ticks are W/24 long, centred on the major ticks' ring; the
// needle is a trapezoid over a hub circle of diameter W/16.

import { fillColor } from '../frx/appearance.js';
import type { FillModel } from '../frx/model.js';
import {
  anchoredText,
  arcSegments,
  bounds,
  ellipse,
  line,
  polygonSegments,
  rotate,
  roundHalfEven,
  type HAlign,
  type Point,
  type VAlign,
} from './figures.js';
import { fraction } from './linear.js';
import { radialLayout, type RadialLayout } from './radial-layout.js';
import type { GaugeInput, GaugeShape, GaugeTools } from './types.js';

export interface RadialFrame {
  /** The ellipse's box inside the border and the centre FastReport turns ticks and needle about. */
  x: number;
  y: number;
  dx: number;
  dy: number;
  center: Point;
  /** Distance of the major ticks' outer ends below the top. */
  offset: number;
  majorLength: number;
  minorLength: number;
}

export function radialFrame(g: GaugeInput, tools: GaugeTools, borderWidth: number): RadialFrame {
  const m = g.model;
  const x = borderWidth / 2;
  const y = borderWidth / 2;
  const dx = g.width - borderWidth - 1;
  const dy = g.height - borderWidth - 1;
  let offset = 0;
  for (const v of [m.maximum, m.minimum]) {
    const s = tools.measure(tools.format(v), m.scale.font);
    offset = Math.max(offset, s.width, s.height);
  }
  return {
    x,
    y,
    dx,
    dy,
    center: [x + dx / 2, y + dy / 2],
    offset,
    majorLength: g.width / 12,
    minorLength: g.width / 24,
  };
}

/** The needle's angle for the gauge's value (0° at 12 o'clock, clockwise). */
export function needleAngle(g: GaugeInput, layout: RadialLayout = radialLayout(g.model)): number {
  return layout.startAngle + layout.sweep * fraction(g);
}

/** The needle's four corners (base, then tip), turned to the value. */
export function needlePoints(g: GaugeInput, f: RadialFrame, angle: number): Point[] {
  const [cx, cy] = f.center;
  const hub = g.width / 16;
  const baseY = cy - hub / 2 - hub / 5;
  const tipY = f.offset + f.minorLength * 1.7;
  const half = hub / 3;
  const pts: Point[] = [
    [cx - half, baseY],
    [cx + half, baseY],
    [cx + half / 3, tipY],
    [cx - half / 3, tipY],
  ];
  return pts.map((p) => rotate(p, angle, f.center));
}

function align(angle: number): [HAlign, VAlign] {
  const s = Math.sin((angle * Math.PI) / 180);
  const c = Math.cos((angle * Math.PI) / 180);
  const h: HAlign = Math.abs(s) < 0.2 ? 'middle' : s > 0 ? 'left' : 'right';
  const v: VAlign = Math.abs(c) < 0.2 ? 'middle' : c > 0 ? 'bottom' : 'top';
  return [h, v];
}

function body(g: GaugeInput, f: RadialFrame, l: RadialLayout, name: string, fill: FillModel): GaugeShape[] {
  const m = g.model;
  const pen = m.border.leftLine;
  const { x, y, dx, dy } = f;
  if (!l.pie) {
    const e = ellipse(`${name}.body`, { x, y, width: dx, height: dy }, fill, pen.color, pen.width);
    return [{ ...e, style: pen.style }];
  }
  const [cx, cy] = f.center;
  const off = (g.width / 16 / 2 + 2) * m.semicircleOffsetRatio;
  const p = m.position;
  let base: Point[];
  if (m.radialType === 'Semicircle') {
    if (p.bottom) {
      const s: Point = [cx + dy / 2, cy];
      base = [
        [s[0], s[1] + 1],
        [s[0], s[1] - off],
        [s[0] - dx, s[1] - off],
        [s[0] - dx, s[1] + 1],
      ];
    } else if (p.left || p.right) {
      const s: Point = [cx, cy + dy / 2];
      const k = p.left ? 1 : -1;
      base = [
        [s[0] - k, s[1]],
        [s[0] + k * off, s[1]],
        [s[0] + k * off, s[1] - dy],
        [s[0] - k, s[1] - dy],
      ];
    } else {
      const s: Point = [cx - dy / 2, cy];
      base = [
        [s[0], s[1] - 1],
        [s[0], s[1] + off],
        [s[0] + dx, s[1] + off],
        [s[0] + dx, s[1] - 1],
      ];
    }
  } else {
    const s: Point = p.left ? [cx - dy / 2, cy] : [cx + dy / 2, cy];
    const v = p.top ? 1 : -1; // the base's side of the centre line, down for a top corner
    const edge = p.top ? y : y + dy;
    base = p.left
      ? [
          [s[0], s[1] - v],
          [s[0], s[1] + v * off],
          [s[0] + dx / 2 + off, s[1] + v * off],
          [s[0] + dx / 2 + off, edge],
          [x + dx / 2 - 1, edge],
        ]
      : [
          [s[0], s[1] - v],
          [s[0], s[1] + v * off],
          [x + dx / 2 - off, s[1] + v * off],
          [x + dx / 2 - off, edge],
          [x + dx / 2 + 1, edge],
        ];
  }
  const arc = arcSegments(x, y, dx, dy, l.pie.start, l.pie.sweep, true);
  const box = { x, y, width: dx, height: dy };
  const stroke = { stroke: pen.color, lineWidth: pen.width, style: pen.style };
  return [
    { kind: 'figure', name: `${name}.body`, segments: [...arc, ['L', cx, cy], ['Z']], closed: true, fill, box },
    { kind: 'figure', name: `${name}.body.arc`, segments: arc, closed: false, ...stroke },
    { kind: 'figure', name: `${name}.body.base`, segments: polygonSegments(base), closed: true, fill, box },
    {
      kind: 'figure',
      name: `${name}.body.base.outline`,
      segments: polygonSegments(base).slice(0, -1),
      closed: false,
      ...stroke,
    },
  ];
}

function scale(g: GaugeInput, tools: GaugeTools, f: RadialFrame, l: RadialLayout, name: string): GaugeShape[] {
  const m = g.model;
  const out: GaugeShape[] = [];
  const major = m.scale.majorTicks;
  const minor = m.scale.minorTicks;
  const color = fillColor(m.scale.textFill);
  const outer: Point = [g.width / 2, f.offset];
  const inner: Point = [g.width / 2, f.offset + f.majorLength];
  const steps: number[] = [];
  for (let j = -l.sideTicks; j <= l.sideTicks; j++) {
    if (j === 0 || (j > 0 && l.clockwise) || (j < 0 && l.counterClockwise)) steps.push(j);
  }
  steps.forEach((j, k) => {
    const angle = l.firstAngle + j * l.majorStep;
    const a = rotate(outer, angle, f.center);
    const b = rotate(inner, angle, f.center);
    out.push(line(`${name}.tick.major.${k}`, a, b, major.color, major.width));
    // The first tick's label sits at its outer end; the others 1 px inside it.
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const t = j === 0 || len === 0 ? 1 : (len - 1) / len;
    const anchor: Point = [b[0] + (a[0] - b[0]) * t, b[1] + (a[1] - b[1]) * t];
    const value = j === 0 ? l.firstValue : roundHalfEven(l.firstValue + j * l.stepValue);
    const [h, v] = align(angle);
    out.push(anchoredText(`${name}.label.${k}`, tools.format(value), m.scale.font, color, tools.measure, anchor, h, v));
  });
  // Minor ticks: about the box's centre, between the major ticks' places.
  const boxCenter: Point = [g.width / 2, g.height / 2];
  const top = f.offset + f.majorLength / 2 - f.minorLength / 2;
  const mo: Point = [g.width / 2, top];
  const mi: Point = [g.width / 2, top + f.minorLength];
  const per = l.minorPerGap + 1;
  const minorStep = l.majorStep / per;
  let k = 0;
  for (let i = 1; i <= l.sideTicks * per; i++) {
    if (i % per === 0) continue;
    for (const dir of [1, -1]) {
      if ((dir > 0 && !l.clockwise) || (dir < 0 && !l.counterClockwise)) continue;
      const angle = l.firstAngle + dir * i * minorStep;
      const a = rotate(mo, angle, boxCenter);
      const b = rotate(mi, angle, boxCenter);
      out.push(line(`${name}.tick.minor.${k++}`, a, b, minor.color, minor.width));
    }
  }
  return out;
}

/** A linear gradient turns with the needle (RadialPointer.GradientAutoRotate). */
function pointerFill(g: GaugeInput, angle: number): FillModel {
  const fill = g.model.pointer.fill;
  if (fill.kind !== 'LinearGradient' || !g.model.pointer.gradientAutoRotate) return fill;
  return { ...fill, angle: (((Math.trunc(angle) + 90) % 360) + 360) % 360 };
}

export function drawRadial(g: GaugeInput, tools: GaugeTools, name: string, borderWidth: number): GaugeShape[] {
  const m = g.model;
  const l = radialLayout(m);
  const f = radialFrame(g, tools, borderWidth);
  const out: GaugeShape[] = [...body(g, f, l, name, m.fill), ...scale(g, tools, f, l, name)];
  const angle = needleAngle(g, l);
  const needle = needlePoints(g, f, angle);
  const hubW = g.width / 16;
  const hubH = g.height / 16;
  const hubBox = { x: f.center[0] - hubW / 2, y: f.center[1] - hubH / 2, width: hubW, height: hubH };
  const fill = pointerFill(g, angle);
  const pen = { stroke: m.pointer.borderColor, lineWidth: m.pointer.borderWidth };
  const brush = bounds([...needle, [hubBox.x, hubBox.y], [hubBox.x + hubW, hubBox.y + hubH]]);
  out.push({ ...ellipse(`${name}.pointer.hub`, hubBox, fill, pen.stroke, pen.lineWidth), box: brush });
  out.push({
    kind: 'figure',
    name: `${name}.pointer`,
    segments: polygonSegments(needle),
    closed: true,
    fill,
    ...pen,
    box: brush,
  });
  if (m.radialType === 'Circle' && m.label.text !== '') {
    const size = tools.measure(m.label.text, m.label.font);
    const cx = f.x + f.dx / 2;
    const cy = f.y + f.dy - (f.offset - f.y);
    out.push({
      kind: 'text',
      name: `${name}.label`,
      text: m.label.text,
      font: m.label.font,
      color: m.label.color,
      x: cx - size.width / 2,
      y: cy - size.height / 2,
      ...size,
    });
  }
  return out;
}
