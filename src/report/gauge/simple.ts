// SimpleGauge (SimpleScale + SimplePointer) and SimpleProgressGauge (SimpleProgressPointer +
// SimpleProgressLabel). The simple scale is the linear one split in two halves (FirstSubScale
// above or left of the centre line, SecondSubScale below or right), leaving a gap of the stored
// pointer size around the centre; its pointer is a bar from the scale's start to the value.
// The progress gauge has no scale: a bar across the whole height (Full) or a short bar at the
// value (Small), and the percentage as its label.

import type { GaugeSubScaleModel } from '../frx/model.js';
import { fillColor } from '../frx/appearance.js';
import { CM, line, polygonSegments, roundHalfEven, type Point } from './figures.js';
import { fraction, LINEAR_MAJOR_TICKS, linearLabels, linearScaleBox } from './linear.js';
import type { GaugeInput, GaugeShape, GaugeText, GaugeTools } from './types.js';

/** The pointer bar (left, top, width, height), SimplePointer/SimpleProgressPointer.Draw*. */
export function simplePointerRect(g: GaugeInput, borderWidth: number) {
  const m = g.model;
  const progress = m.kind === 'SimpleProgressGauge';
  const ratio = progress ? 1 : 0.08;
  const offset = progress ? 0 : 0.5 * CM;
  const { width: W, height: H } = g;
  const bw = borderWidth;
  const f = fraction(g);
  const small = progress && m.pointer.type === 'Small';
  const r = m.pointer.smallPointerWidthRatio;
  if (W < H) {
    const width = (W - bw) * ratio;
    let height = (H - bw - offset * 2) * f;
    const left = bw / 2 + (W - bw) / 2 - ((W - bw) * ratio) / 2;
    let top = bw / 2 + H - bw - offset - height;
    if (small) {
      const frameTop = bw / 2;
      const frameHeight = H - bw;
      const h = (H - bw) * r;
      const t = top - h / 2;
      // Kept inside the frame: the bottom edge first, then the top (FastReport's order).
      top = t + h > frameTop + frameHeight ? frameTop + frameHeight - h : Math.max(t, frameTop);
      height = h;
    }
    return { x: left, y: top, width, height };
  }
  let left = bw / 2 + offset;
  const top = bw / 2 + (H - bw) / 2 - ((H - bw) * ratio) / 2;
  const height = (H - bw) * ratio;
  let width = (W - bw - offset * 2) * f;
  if (small) {
    const frameWidth = W - bw + offset;
    const w = (W - bw - offset * 2) * r;
    const l = left + width - frameWidth * r + w / 2;
    if (l >= left && l + w < left + frameWidth) left = l;
    else if (l + w >= left + frameWidth) left += frameWidth - w;
    width = w;
  }
  return { x: left, y: top, width, height };
}

function subScale(
  g: GaugeInput,
  tools: GaugeTools,
  name: string,
  which: 'first' | 'second',
  sub: GaugeSubScaleModel,
): GaugeShape[] {
  const m = g.model;
  if (!sub.enabled) return [];
  const box = linearScaleBox(g.width, g.height);
  const out: GaugeShape[] = [];
  const first = which === 'first';
  const major = m.scale.majorTicks;
  const minor = m.scale.minorTicks;
  const font = m.scale.font;
  const color = fillColor(m.scale.textFill);
  const texts = linearLabels(m.minimum, m.maximum, tools.format);
  const n = LINEAR_MAJOR_TICKS - 1;
  const across = box.vertical ? box.width : box.height;
  const along = box.vertical ? box.height : box.width;
  // The gap the pointer leaves about the centre line, from the stored pointer size.
  const gap = (box.vertical ? m.pointer.width : m.pointer.height) / 2 + m.pointer.borderWidth * 2;
  const [m1, m2] = first ? [0, across / 2 - gap] : [across / 2 + gap, across];
  const [n1, n2] = first ? [across * 0.15, across / 2 - gap] : [across / 2 + gap, across - across * 0.15];
  // A point at `a` along the scale (from Minimum) and `c` across it (from the box's top or left).
  const at = (a: number, c: number): Point =>
    box.vertical ? [box.x + c, box.y + box.height - a] : [box.x + a, box.y + c];
  for (let i = 0; i <= n; i++) {
    const a = (along / n) * i;
    out.push(line(`${name}.tick.major.${which}.${i}`, at(a, m1), at(a, m2), major.color, major.width));
    if (!sub.showCaption) continue;
    const text = texts[i]!;
    const size = tools.measure(text, font);
    const [px, py] = at(a, first ? 0 : across);
    let x: number;
    let y: number;
    if (box.vertical) {
      x = first ? px - size.width - 0.04 * CM : px + 0.04 * CM;
      y = py - size.height / 2;
    } else {
      x = px - size.width / 2;
      y = first ? py - 0.4 * CM : py + 0.08 * CM;
    }
    const label: GaugeText = { kind: 'text', name: `${name}.label.${which}.${i}`, text, font, color, x, y, ...size };
    out.push(label);
  }
  const step = along / n / 4;
  let k = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 1; j <= 3; j++) {
      const a = step * (4 * i + j);
      out.push(line(`${name}.tick.minor.${which}.${k++}`, at(a, n1), at(a, n2), minor.color, minor.width));
    }
  }
  return out;
}

/** SimpleProgressLabel: round((v − min)/(max − min)·100, Decimals) + "%". */
export function progressText(g: GaugeInput, format: (n: number) => string): string {
  const { minimum, maximum } = g.model;
  return `${format(roundHalfEven(((g.value - minimum) / (maximum - minimum)) * 100, g.model.label.decimals))}%`;
}

export function drawSimple(g: GaugeInput, tools: GaugeTools, name: string, borderWidth: number): GaugeShape[] {
  const m = g.model;
  const out: GaugeShape[] = [
    ...subScale(g, tools, name, 'first', m.scale.firstSubScale),
    ...subScale(g, tools, name, 'second', m.scale.secondSubScale),
  ];
  const r = simplePointerRect(g, borderWidth);
  const corners: Point[] = [
    [r.x, r.y],
    [r.x + r.width, r.y],
    [r.x + r.width, r.y + r.height],
    [r.x, r.y + r.height],
  ];
  out.push({
    kind: 'figure',
    name: `${name}.pointer`,
    segments: polygonSegments(corners),
    closed: true,
    fill: m.pointer.fill,
    stroke: m.pointer.borderColor,
    lineWidth: m.pointer.borderWidth,
    box: r,
  });
  return out;
}

/** The progress gauge's percentage about the centre of the box inside the border. FastReport
 *  measures the label before it replaces the text, so the text starts half the stored
 *  Label.Text's size left of and above the centre ("75%" in the demos: the same width as "12%",
 *  half a digit more than "5%"); with no stored text it is centred. */
export function progressLabel(g: GaugeInput, tools: GaugeTools, name: string, borderWidth: number): GaugeText {
  const m = g.model;
  const text = progressText(g, tools.format);
  const size = tools.measure(text, m.label.font);
  const stored = m.label.text === '' ? size : tools.measure(m.label.text, m.label.font);
  const cx = borderWidth / 2 + (g.width - borderWidth) / 2;
  const cy = borderWidth / 2 + (g.height - borderWidth) / 2;
  return {
    kind: 'text',
    name: `${name}.label`,
    text,
    font: m.label.font,
    color: m.label.color,
    x: cx - stored.width / 2,
    y: cy - stored.height / 2,
    ...size,
    overBorder: true,
  };
}
