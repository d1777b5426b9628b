// Where a RadialGauge's scale lies for each Type and Position (RadialScale/RadialPointer/
// RadialGauge.Draw): the angle of the tick the scale is built from, its label value, the sides
// drawn from it, and the needle's angle at Minimum and its sweep to Maximum. Angles in degrees,
// 0 at 12 o'clock, clockwise on the page.

import type { GaugeObjectModel } from '../frx/model.js';

export interface RadialLayout {
  /** Major ticks per side of the first tick, their angular step and minor ticks between two. */
  sideTicks: number;
  majorStep: number;
  minorPerGap: number;
  /** The first tick (its label is written unrounded; the others are rounded to integers). */
  firstAngle: number;
  firstValue: number;
  /** The tick j major steps clockwise of the first (j < 0: counter-clockwise) has the value
   *  firstValue + j·stepValue. */
  stepValue: number;
  clockwise: boolean;
  counterClockwise: boolean;
  /** The needle: its angle at Minimum and the sweep to Maximum. */
  startAngle: number;
  sweep: number;
  /** The body: a GDI+ pie (0° at 3 o'clock, clockwise) or the whole ellipse. */
  pie?: { start: number; sweep: number };
}

type Corner = 'TopLeft' | 'TopRight' | 'BottomLeft' | 'BottomRight';
type Side = 'Top' | 'Bottom' | 'Left' | 'Right';

function side(m: GaugeObjectModel): Side {
  const p = m.position;
  return p.bottom ? 'Bottom' : p.left ? 'Left' : p.right ? 'Right' : 'Top';
}

function corner(m: GaugeObjectModel): Corner {
  const p = m.position;
  return `${p.bottom ? 'Bottom' : 'Top'}${p.right ? 'Right' : 'Left'}` as Corner;
}

export function radialLayout(m: GaugeObjectModel): RadialLayout {
  const range = m.maximum - m.minimum;
  const avg = m.minimum + range / 2;
  if (m.radialType === 'Circle') {
    return {
      sideTicks: 5,
      majorStep: 27,
      minorPerGap: 4,
      firstAngle: 0,
      firstValue: avg,
      stepValue: range / 10,
      clockwise: true,
      counterClockwise: true,
      startAngle: -135,
      sweep: 270,
    };
  }
  const half = { sideTicks: 2, majorStep: 45, minorPerGap: 3 };
  if (m.radialType === 'Semicircle') {
    const both = { ...half, firstValue: avg, clockwise: true, counterClockwise: true };
    const step = range / 4;
    switch (side(m)) {
      case 'Top':
        return {
          ...both,
          firstAngle: 0,
          stepValue: step,
          startAngle: -90,
          sweep: 180,
          pie: { start: -180, sweep: 180 },
        };
      case 'Bottom':
        return {
          ...both,
          firstAngle: 180,
          stepValue: -step,
          startAngle: -90,
          sweep: -180,
          pie: { start: 0, sweep: 180 },
        };
      case 'Left':
        return {
          ...both,
          firstAngle: -90,
          stepValue: step,
          startAngle: -180,
          sweep: 180,
          pie: { start: 90, sweep: 180 },
        };
      case 'Right':
        return {
          ...both,
          firstAngle: 90,
          stepValue: -step,
          startAngle: 180,
          sweep: -180,
          pie: { start: -90, sweep: 180 },
        };
    }
  }
  const step = range / 2;
  switch (corner(m)) {
    case 'TopLeft':
      return {
        ...half,
        firstAngle: 0,
        firstValue: m.maximum,
        stepValue: step,
        clockwise: false,
        counterClockwise: true,
        startAngle: -90,
        sweep: 90,
        pie: { start: -180, sweep: 90 },
      };
    case 'BottomLeft':
      return {
        ...half,
        firstAngle: 180,
        firstValue: m.minimum,
        stepValue: step,
        clockwise: true,
        counterClockwise: false,
        startAngle: 180,
        sweep: 90,
        pie: { start: 90, sweep: 90 },
      };
    case 'TopRight':
      return {
        ...half,
        firstAngle: 0,
        firstValue: m.maximum,
        stepValue: -step,
        clockwise: true,
        counterClockwise: false,
        startAngle: 90,
        sweep: -90,
        pie: { start: -90, sweep: 90 },
      };
    case 'BottomRight':
      return {
        ...half,
        firstAngle: 180,
        firstValue: m.minimum,
        stepValue: -step,
        clockwise: false,
        counterClockwise: true,
        startAngle: 180,
        sweep: -90,
        pie: { start: 0, sweep: 90 },
      };
  }
}
