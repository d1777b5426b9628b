// LineObject: a horizontal or vertical line along its box (the longer side), or the box's
// diagonal; its colour, width and style are the border's left line.

import type { LineObjectModel } from '../frx/model.js';
import type { ObjectType } from './object-type.js';

export const lineObject: ObjectType<LineObjectModel> = {
  item(_e, o, rt) {
    let x2 = rt.left + rt.width;
    let y2 = rt.top + rt.height;
    if (!o.diagonal) {
      if (Math.abs(rt.width) >= Math.abs(rt.height)) y2 = rt.top;
      else x2 = rt.left;
    }
    const l = rt.border.leftLine;
    return {
      item: {
        kind: 'line',
        name: o.name,
        x: Math.min(rt.left, x2),
        y: Math.min(rt.top, y2),
        width: Math.abs(x2 - rt.left),
        height: Math.abs(y2 - rt.top),
        x1: rt.left,
        y1: rt.top,
        x2,
        y2,
        color: l.color,
        lineWidth: l.width,
        style: l.style,
        dashPattern: o.dashPattern,
        startCap: o.startCap,
        endCap: o.endCap,
      },
      canBreak: false,
    };
  },
};
