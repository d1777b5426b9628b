// The gauges (FastReport's GaugeObject.GetData and Draw): the value from the Expression per print
// (inside an AdvMatrix data cell without one: the cell's value), clamped to Minimum…Maximum as
// the Value setter does; printed as the gauge's fill, the shapes of ../gauge/ (paths and texts),
// then its border. A RadialGauge has neither: its body ellipse carries the fill and the border's
// colour and width.

import { Decimal } from '../expr/decimal.js';
import type { FontSpec, GaugeObjectModel } from '../frx/model.js';
import { defaultBorder, defaultFill } from '../frx/defaults.js';
import { drawGauge, type GaugeShape } from '../gauge/index.js';
import { measureWidth } from '../text/index.js';
import type { EngineContext } from './context.js';
import { itemHeader, type ObjectType } from './object-type.js';
import type { LaidItem, RtObject } from './runtime.js';
import { hasBorder, isTransparentFill } from './styles.js';
import { shapeLabel } from './text-label.js';
import { vectorPath } from './vector-items.js';
import { PathBuilder } from '../path-data.js';

const NO_FILL = Object.freeze(defaultFill());
const NO_BORDER = Object.freeze(defaultBorder());

/** Converter.StringToFloat(value.ToString()): a number as it is, else its text parsed (either
 *  decimal separator); text that is no number gives 0. */
function toNumber(e: EngineContext, v: unknown): number {
  if (typeof v === 'number') return v;
  if (v instanceof Decimal) return v.toNumber();
  const s = e.scope.formatter.format(v, '').trim().replace(',', '.');
  const n = s === '' ? Number.NaN : Number(s);
  return Number.isFinite(n) ? n : 0;
}

/** GaugeObject.Value's setter: in range as it is, else the nearer end; NaN changes nothing. */
function clampValue(o: GaugeObjectModel, v: number, previous: number): number {
  if (v >= o.minimum && v <= o.maximum) return v;
  if (v < o.minimum) return o.minimum;
  if (v > o.maximum) return o.maximum;
  return previous;
}

function shapeItem(e: EngineContext, s: GaugeShape, rt: RtObject): LaidItem['item'] {
  if (s.kind === 'text') {
    return shapeLabel(e, s.name, rt, s);
  }
  const box = s.box ?? { x: 0, y: 0, width: rt.width, height: rt.height };
  const p = new PathBuilder();
  for (const seg of s.segments) {
    if (seg[0] === 'Z') p.close();
    else if (seg[0] === 'C')
      p.curveTo(seg[1] - box.x, seg[2] - box.y, seg[3] - box.x, seg[4] - box.y, seg[5] - box.x, seg[6] - box.y);
    else if (seg[0] === 'M') p.moveTo(seg[1] - box.x, seg[2] - box.y);
    else p.lineTo(seg[1] - box.x, seg[2] - box.y);
  }
  return vectorPath({
    name: s.name,
    x: rt.left + box.x,
    y: rt.top + box.y,
    width: box.width,
    height: box.height,
    d: p.toString(),
    closed: s.closed,
    ...(s.fill ? { fill: s.fill } : {}),
    ...(s.stroke && (s.lineWidth ?? 1) > 0 ? { stroke: s.stroke, lineWidth: s.lineWidth ?? 1 } : {}),
    ...(s.style ? { style: s.style } : {}),
  });
}

/** GDI+ MeasureString of one line: the advance plus 1/6 em on each side, one line high. */
function measure(e: EngineContext) {
  return (text: string, font: FontSpec) => {
    const r = e.resolveFont(font);
    return { width: measureWidth(text, r, e.fonts) + r.sizePx / 3, height: r.lineHeightPx };
  };
}

export const gaugeObject: ObjectType<GaugeObjectModel> = {
  getData(e, o, rt) {
    let value = o.value;
    if (o.expression.trim() !== '') {
      const v = e.exprs.calc(o, 'expr', o.expression, `${o.name}.Expression`).value;
      if (v !== null && v !== undefined) value = clampValue(o, toNumber(e, v), value);
    } else if (e.cellData !== undefined) {
      // A matrix cell's value; an empty cell (no rows) shows the gauge at its minimum, not at
      // the template's design value.
      const v = e.cellData.value;
      value = v !== null && v !== undefined ? clampValue(o, toNumber(e, v), value) : o.minimum;
    }
    rt.gaugeValue = value;
  },

  item(e, o, rt) {
    const out: LaidItem[] = [];
    const header = itemHeader(o, rt);
    const radial = o.kind === 'RadialGauge';
    if (!radial && !isTransparentFill(rt.fill))
      out.push({ item: { kind: 'box', ...header, border: NO_BORDER }, canBreak: false });
    const input = {
      model: { ...o, fill: rt.fill, border: rt.border },
      width: rt.width,
      height: rt.height,
      value: rt.gaugeValue ?? o.value,
    };
    const tools = { measure: measure(e), format: (n: number) => e.scope.formatter.format(n, '') };
    const shapes = drawGauge(input, tools, o.name);
    const over = (s: GaugeShape) => s.kind === 'text' && s.overBorder === true;
    for (const s of shapes) if (!over(s)) out.push({ item: shapeItem(e, s, rt), canBreak: false });
    if (!radial && hasBorder(rt.border)) out.push({ item: { kind: 'box', ...header, fill: NO_FILL }, canBreak: false });
    for (const s of shapes) if (over(s)) out.push({ item: shapeItem(e, s, rt), canBreak: false });
    return out;
  },
};
