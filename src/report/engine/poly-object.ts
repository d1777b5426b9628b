// PolyLineObject and PolygonObject (FastReport's PolyLineObject.GetPath): a line through the
// points, a cubic Bézier where a point has control points (a missing one of the pair stands a
// third of the way along the segment), closed back to the first point for a polygon. FastReport
// draws nothing for fewer than two points (a design-time cross-hair).

import type { PolyObjectModel, PolyPointModel } from '../frx/model.js';
import { PathBuilder } from '../path-data.js';
import type { ObjectType } from './object-type.js';

/** SVG path data of the points, relative to the object's top-left. */
export function polyPath(o: PolyObjectModel): string {
  const pts = o.points;
  if (pts.length < 2) return '';
  const at = (p: PolyPointModel): [number, number] => [o.centerX + p.x, o.centerY + p.y];
  const closed = o.type === 'PolygonObject';
  const path = new PathBuilder();
  path.moveTo(...at(pts[0] as PolyPointModel));
  const count = closed ? pts.length + 1 : pts.length;
  for (let i = 1; i < count; i++) {
    const prev = pts[i - 1] as PolyPointModel;
    const point = pts[i % pts.length] as PolyPointModel;
    const [x, y] = at(point);
    if (prev.right || point.left) {
      const [px, py] = at(prev);
      const [x1, y1] = prev.right ? [px + prev.right.x, py + prev.right.y] : [px + (x - px) / 3, py + (y - py) / 3];
      const [x2, y2] = point.left ? [x + point.left.x, y + point.left.y] : [x + (px - x) / 3, y + (py - y) / 3];
      path.curveTo(x1, y1, x2, y2, x, y);
    } else path.lineTo(x, y);
  }
  if (closed) path.close();
  return path.toString();
}

export const polyObject: ObjectType<PolyObjectModel> = {
  item(_e, o, rt) {
    const line = rt.border.leftLine;
    return {
      item: {
        kind: 'path',
        name: o.name,
        x: rt.left,
        y: rt.top,
        width: rt.width,
        height: rt.height,
        d: polyPath(o),
        closed: o.type === 'PolygonObject',
        fill: o.type === 'PolygonObject' ? rt.fill : { kind: 'Solid', color: { r: 0, g: 0, b: 0, a: 0 } },
        color: line.color,
        lineWidth: line.width,
        style: line.style,
        dashPattern: o.dashPattern,
      },
      canBreak: false,
    };
  },
};
