// Gauges as vector shapes (FastReport.Gauge's Draw methods): pure geometry, px relative to the
// gauge's top-left; the engine (engine/gauge-object.ts) turns the shapes into prepared items and
// draws the gauge's fill and border around them. See README.md.

import { drawLinear } from './linear.js';
import { drawRadial } from './radial.js';
import { drawSimple, progressLabel } from './simple.js';
import type { GaugeInput, GaugeShape, GaugeTools, PathSegment } from './types.js';

export type * from './types.js';
export { linearLabels, linearPointer, linearScaleBox, fraction } from './linear.js';
export { needleAngle, needlePoints, radialFrame } from './radial.js';
export { radialLayout } from './radial-layout.js';
export { progressText, simplePointerRect } from './simple.js';
export { roundHalfEven } from './figures.js';

const finite = (s: PathSegment): boolean => s.every((v) => typeof v === 'string' || Number.isFinite(v));

/** The shapes of a gauge, bottom-most first (after its fill, before its border); `name` prefixes
 *  every shape's name. A shape whose numbers are not finite (a hostile size) is left out. */
export function drawGauge(g: GaugeInput, tools: GaugeTools, name: string): GaugeShape[] {
  const borderWidth = g.model.border.leftLine.width;
  let shapes: GaugeShape[];
  switch (g.model.kind) {
    case 'LinearGauge':
      shapes = drawLinear(g, tools, name);
      break;
    case 'SimpleGauge':
      shapes = drawSimple(g, tools, name, borderWidth);
      break;
    case 'SimpleProgressGauge':
      shapes = [...drawSimple(g, tools, name, borderWidth), progressLabel(g, tools, name, borderWidth)];
      break;
    case 'RadialGauge':
      shapes = drawRadial(g, tools, name, borderWidth);
      break;
    default:
      shapes = [];
  }
  return shapes.filter((s) =>
    s.kind === 'text'
      ? [s.x, s.y, s.width, s.height].every(Number.isFinite)
      : s.segments.every(finite) && (s.box === undefined || Object.values(s.box).every(Number.isFinite)),
  );
}
