// LinearGauge (FastReport's LinearScale + LinearPointer): six major ticks across the scale box,
// three minor ticks between each two, labels Minimum + k·trunc((Max − Min)/5) (FastReport's
// integer step: the labels need not reach Maximum), and a pentagon pointing at the value.
// Horizontal when the gauge is at least as wide as tall; the vertical scale grows upwards.

import { fillColor } from '../frx/appearance.js';
import { CM, anchoredText, bounds, line, polygonSegments, type Point } from './figures.js';
import type { GaugeInput, GaugeShape, GaugeTools } from './types.js';

export const LINEAR_MAJOR_TICKS = 6;

/** The scale box of a linear or simple gauge (LinearScale/SimpleScale.Draw). */
export function linearScaleBox(width: number, height: number) {
  return width < height
    ? { x: 0.7 * CM, y: 0.5 * CM, width: width - 1.4 * CM, height: height - CM, vertical: true }
    : { x: 0.5 * CM, y: 0.6 * CM, width: width - CM, height: height - 1.2 * CM, vertical: false };
}

/** The label texts of the six major ticks: Minimum, then Minimum + k·(int)((Max − Min)/5). */
export function linearLabels(min: number, max: number, format: (n: number) => string): string[] {
  const step = Math.trunc((max - min) / (LINEAR_MAJOR_TICKS - 1));
  return Array.from({ length: LINEAR_MAJOR_TICKS }, (_, i) => format(i === 0 ? min : step * i + min));
}

/** The value's place along the scale, 0…1. */
export function fraction(g: GaugeInput): number {
  const { minimum, maximum } = g.model;
  const f = (g.value - minimum) / (maximum - minimum);
  return Number.isFinite(f) ? Math.min(1, Math.max(0, f)) : 0;
}

/** The pointer's five corners, tip first (LinearPointer.DrawHorz/DrawVert). */
export function linearPointer(g: GaugeInput): Point[] {
  const { width: W, height: H } = g;
  const f = fraction(g);
  if (W < H) {
    const left = W / 2;
    const top = H - 0.5 * CM - (H - CM) * f;
    const h = H * 0.036;
    const w = W * 0.4;
    const dx = (g.model.inverted ? -1 : 1) * w * 0.3;
    const far = (g.model.inverted ? -1 : 1) * w;
    const dy = h / 2;
    return [
      [left, top],
      [left + dx, top - dy],
      [left + far, top - dy],
      [left + far, top + dy],
      [left + dx, top + dy],
    ];
  }
  const left = 0.5 * CM + (W - CM) * f;
  const top = H / 2;
  const h = (g.model.inverted ? -1 : 1) * H * 0.4;
  const dx = (W * 0.036) / 2;
  const dy = h * 0.3;
  return [
    [left, top],
    [left + dx, top + dy],
    [left + dx, top + h],
    [left - dx, top + h],
    [left - dx, top + dy],
  ];
}

export function drawLinear(g: GaugeInput, tools: GaugeTools, name: string): GaugeShape[] {
  const m = g.model;
  const box = linearScaleBox(g.width, g.height);
  const out: GaugeShape[] = [];
  const major = m.scale.majorTicks;
  const minor = m.scale.minorTicks;
  const texts = linearLabels(m.minimum, m.maximum, tools.format);
  const color = fillColor(m.scale.textFill);
  const font = m.scale.font;
  const n = LINEAR_MAJOR_TICKS - 1;
  for (let i = 0; i <= n; i++) {
    const text = texts[i]!;
    const size = tools.measure(text, font);
    if (box.vertical) {
      const y = box.y + box.height - (box.height / n) * i;
      out.push(line(`${name}.tick.major.${i}`, [box.x, y], [box.x + box.width, y], major.color, major.width));
      const x = m.inverted ? box.x + box.width + 0.04 * CM : box.x - size.width - 0.04 * CM;
      out.push(anchoredText(`${name}.label.${i}`, text, font, color, tools.measure, [x, y], 'left', 'middle'));
    } else {
      const x = box.x + (box.width / n) * i;
      out.push(line(`${name}.tick.major.${i}`, [x, box.y], [x, box.y + box.height], major.color, major.width));
      // Inverted: the labels below the scale, placed by the first label's height.
      const first = tools.measure(texts[0]!, font);
      const y = m.inverted ? box.y + box.height - first.height + 0.4 * CM : box.y - 0.4 * CM;
      out.push({ kind: 'text', name: `${name}.label.${i}`, text, font, color, x: x - size.width / 2, y, ...size });
    }
  }
  const step = (box.vertical ? box.height : box.width) / n / 4;
  let k = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 1; j <= 3; j++) {
      const at = step * (4 * i + j);
      const [a, b]: [Point, Point] = box.vertical
        ? [
            [box.x + box.width * 0.2, box.y + box.height - at],
            [box.x + box.width * 0.8, box.y + box.height - at],
          ]
        : [
            [box.x + at, box.y + box.height * 0.2],
            [box.x + at, box.y + box.height * 0.8],
          ];
      out.push(line(`${name}.tick.minor.${k++}`, a, b, minor.color, minor.width));
    }
  }
  const p = linearPointer(g);
  out.push({
    kind: 'figure',
    name: `${name}.pointer`,
    segments: polygonSegments(p),
    closed: true,
    fill: m.pointer.fill,
    stroke: m.pointer.borderColor,
    lineWidth: m.pointer.borderWidth,
    box: bounds(p),
  });
  return out;
}
