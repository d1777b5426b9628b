// ShapeObject: rectangle, rounded rectangle, ellipse, triangle or diamond, filled, outlined with
// the border's left line.

import type { ShapeObjectModel } from '../frx/model.js';
import type { ObjectType } from './object-type.js';

export const shapeObject: ObjectType<ShapeObjectModel> = {
  item(_e, o, rt) {
    const l = rt.border.leftLine;
    return {
      item: {
        kind: 'shape',
        name: o.name,
        x: rt.left,
        y: rt.top,
        width: rt.width,
        height: rt.height,
        shape: o.shape,
        fill: rt.fill,
        color: l.color,
        lineWidth: l.width,
        style: l.style,
        dashPattern: o.dashPattern,
        curve: o.curve,
      },
      canBreak: false,
    };
  },
};
