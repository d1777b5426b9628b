// The gauge elements (LinearGauge, SimpleGauge, SimpleProgressGauge, RadialGauge, GaugeObject) →
// their model, with each class's constructor defaults: a .frx only holds what differs from them.

import { parseFill } from './appearance.js';
import { BLACK, rgba, TRANSPARENT } from './colors.js';
import { defaultFont, solidFill } from './defaults.js';
import type { GaugeKind, GaugeObjectModel, GaugeTicksModel, RadialGaugeType } from './model.js';
import { readComponent } from './component.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

const CM = 37.8;
const ORANGE = rgba(255, 165, 0);

function ticks(a: Attrs, prefix: string, def: GaugeTicksModel): GaugeTicksModel {
  return {
    length: a.float(`${prefix}.Length`, def.length),
    width: a.float(`${prefix}.Width`, def.width),
    color: a.color(`${prefix}.Color`, def.color),
  };
}

/** FastReport's Minimum/Maximum setters, applied in the order the attributes come: a Minimum not
 *  below the Maximum (or a Maximum not above the Minimum) is refused, so Minimum < Maximum. */
function range(a: Attrs): { minimum: number; maximum: number } {
  let minimum = 0;
  let maximum = 100;
  for (const key of a.keys()) {
    if (key === 'Minimum') {
      const v = a.float(key, minimum);
      if (v < maximum) minimum = v;
    } else if (key === 'Maximum') {
      const v = a.float(key, maximum);
      if (v > minimum) maximum = v;
    }
  }
  return { minimum, maximum };
}

/** RadialGauge.Position: Semicircle takes one side (default Top), Quadrant one corner (default
 *  Top, Left); a Circle has none. */
function radialPosition(a: Attrs, type: RadialGaugeType) {
  const flags = a.flags('Position', ['Top', 'Bottom', 'Left', 'Right'] as const, [1, 2, 4, 8], []);
  const has = (f: 'Top' | 'Bottom' | 'Left' | 'Right') => flags.includes(f);
  const none = { top: false, bottom: false, left: false, right: false };
  if (type === 'Circle') return none;
  if (type === 'Semicircle') {
    if (flags.length === 1) return { ...none, [flags[0]!.toLowerCase()]: true };
    return { ...none, top: true };
  }
  const vertical = has('Top') !== has('Bottom');
  const horizontal = has('Left') !== has('Right');
  if (flags.length === 2 && vertical && horizontal) {
    return { top: has('Top'), bottom: has('Bottom'), left: has('Left'), right: has('Right') };
  }
  return { ...none, top: true, left: true };
}

export function parseGaugeObject(el: XmlElement, ctx: LoadContext): GaugeObjectModel {
  const kind = el.name as GaugeKind;
  const a = new Attrs(el, ctx);
  const progress = kind === 'SimpleProgressGauge';
  const radial = kind === 'RadialGauge';
  const simple = kind === 'SimpleGauge' || progress;
  const base = readComponent(a);
  // Default sizes (the elements of the demos omit them): 8 × 2 cm, a radial gauge 4 × 4 cm and
  // square (its Width and Height setters copy each other; the last one written wins).
  const hasW = el.attrs.Width !== undefined;
  const hasH = el.attrs.Height !== undefined;
  if (radial) {
    const keys = a.keys();
    const side =
      !hasW && !hasH ? 4 * CM : keys.lastIndexOf('Height') > keys.lastIndexOf('Width') ? base.height : base.width;
    base.width = side;
    base.height = side;
  } else if (kind !== 'GaugeObject') {
    if (!hasW) base.width = 8 * CM;
    if (!hasH) base.height = 2 * CM;
  }
  // SimpleProgressGauge's constructor sets Border.Lines = All.
  if (progress && !a.has('Border.Lines')) base.border.lines = { left: true, top: true, right: true, bottom: true };
  const { minimum, maximum } = range(a);
  const value = a.float('Value', simple ? 75 : 10);
  const radialType = a.enumOf('Type', ['Circle', 'Semicircle', 'Quadrant'] as const, 'Circle');
  const scaleFont = a.font('Scale.Font', defaultFont());
  const linearTicks = radial
    ? { major: { length: 5, width: 2, color: { ...BLACK } }, minor: { length: 2, width: 1, color: { ...BLACK } } }
    : { major: { length: 10, width: 2, color: { ...BLACK } }, minor: { length: 6, width: 1, color: { ...BLACK } } };
  const o: GaugeObjectModel = {
    type: 'GaugeObject',
    ...base,
    kind,
    minimum,
    maximum,
    value: Math.min(maximum, Math.max(minimum, value)),
    expression: a.str('Expression'),
    scale: {
      font: scaleFont,
      textFill: parseFill(a, 'Scale.TextFill', solidFill({ ...BLACK })),
      majorTicks: ticks(a, 'Scale.MajorTicks', linearTicks.major),
      minorTicks: ticks(a, 'Scale.MinorTicks', linearTicks.minor),
      firstSubScale: {
        enabled: a.bool('Scale.FirstSubScale.Enabled', !progress),
        showCaption: a.bool('Scale.FirstSubScale.ShowCaption', true),
      },
      secondSubScale: {
        enabled: a.bool('Scale.SecondSubScale.Enabled', !progress),
        showCaption: a.bool('Scale.SecondSubScale.ShowCaption', true),
      },
    },
    pointer: {
      fill: parseFill(a, 'Pointer.Fill', solidFill({ ...ORANGE })),
      borderWidth: a.float('Pointer.BorderWidth', 1),
      borderColor: a.color('Pointer.BorderColor', progress ? TRANSPARENT : BLACK),
      // LinearPointer: 8 × 4; SimplePointer: 8 % of the gauge's size when it was made (0).
      width: a.float('Pointer.Width', kind === 'LinearGauge' ? 8 : 0),
      height: a.float('Pointer.Height', kind === 'LinearGauge' ? 4 : 0),
      type: a.enumOf('Pointer.Type', ['Full', 'Small'] as const, 'Full'),
      smallPointerWidthRatio: a.clamped('Pointer.SmallPointerWidthRatio', 0.1, 0, 1),
      gradientAutoRotate: a.bool('Pointer.GradientAutoRotate', true),
    },
    label: {
      text: a.str('Label.Text'),
      // GaugeLabel's font is the scale's when the gauge is made (the default font).
      font: a.font('Label.Font', defaultFont()),
      color: a.color('Label.Color', BLACK),
      decimals: Math.trunc(a.clamped('Label.Decimals', 0, 0, 15)),
    },
    inverted: a.bool('Inverted', false),
    radialType,
    position: radialPosition(a, radialType),
    semicircleOffsetRatio: a.float('SemicircleOffsetRatio', 1),
  };
  for (const child of el.children) ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  o.raw = a.rest();
  return o;
}
