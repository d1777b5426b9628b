// PolyLineObject and PolygonObject → their model. Points come as PolyPoints ("x\y\t|…", the old
// format, with a point type FastReport ignores) or PolyPoints_v2 ("x/y|…", a curved point adding
// "/L/lx/ly" and "/R/rx/ry" for its control points).

import type { PolyObjectModel, PolyPointModel, ZipCodeObjectModel } from './model.js';
import { readComponent } from './component.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

/** More points than any drawing needs: a hostile template cannot make a path of millions. */
const MAX_POINTS = 10_000;

const num = (s: string | undefined): number | undefined => {
  if (s === undefined) return undefined;
  const v = Number(s.trim().replace(',', '.'));
  return Number.isFinite(v) ? v : undefined;
};

function parseV2(text: string): PolyPointModel | undefined {
  const parts = text.split('/');
  const x = num(parts[0]);
  const y = num(parts[1]);
  if (x === undefined || y === undefined) return undefined;
  const p: PolyPointModel = { x, y };
  let i = 2;
  for (const side of ['L', 'R'] as const) {
    if (parts[i] !== side) continue;
    const cx = num(parts[i + 1]);
    const cy = num(parts[i + 2]);
    if (cx !== undefined && cy !== undefined) p[side === 'L' ? 'left' : 'right'] = { x: cx, y: cy };
    i += 3;
  }
  return p;
}

export function parsePolyObject(el: XmlElement, ctx: LoadContext): PolyObjectModel {
  const a = new Attrs(el, ctx);
  const points: PolyPointModel[] = [];
  const v1 = a.take('PolyPoints');
  const v2 = a.take('PolyPoints_v2');
  let bad = 0;
  if (v1 !== undefined) {
    for (const s of v1.split('|')) {
      const [x, y] = s.split('\\').map(num);
      if (x !== undefined && y !== undefined) points.push({ x, y });
      else if (s.trim() !== '') bad++;
    }
  } else if (v2 !== undefined) {
    for (const s of v2.split('|')) {
      const p = parseV2(s);
      if (p) points.push(p);
      else if (s.trim() !== '') bad++;
    }
  }
  if (bad > 0) ctx.warn(`${describe(el)}: ${bad} unreadable point(s) left out`);
  if (points.length > MAX_POINTS) {
    ctx.warn(`${describe(el)}: only the first ${MAX_POINTS} of its ${points.length} points are drawn`);
    points.length = MAX_POINTS;
  }
  const o: PolyObjectModel = {
    type: el.name === 'PolygonObject' ? 'PolygonObject' : 'PolyLineObject',
    ...readComponent(a),
    points,
    centerX: a.float('CenterX', 0),
    centerY: a.float('CenterY', 0),
    dashPattern: a.floatList('DashPattern'),
  };
  for (const child of el.children) ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  o.raw = a.rest();
  return o;
}

/** ZipCodeObject → its model, with FastReport's constructor defaults (segments 0.5 × 1 cm, 0.9 cm
 *  apart, six of them, markers and grid shown, text "123456", a border 3 px wide). */
export function parseZipCodeObject(el: XmlElement, ctx: LoadContext): ZipCodeObjectModel {
  const a = new Attrs(el, ctx);
  const o: ZipCodeObjectModel = {
    type: 'ZipCodeObject',
    ...readComponent(a),
    segmentWidth: a.float('SegmentWidth', 18.9),
    segmentHeight: a.float('SegmentHeight', 37.8),
    spacing: a.float('Spacing', 34.02),
    segmentCount: Math.min(100, Math.max(0, a.int('SegmentCount', 6))),
    showMarkers: a.bool('ShowMarkers', true),
    showGrid: a.bool('ShowGrid', true),
    dataColumn: a.str('DataColumn'),
    expression: a.str('Expression'),
    text: a.str('Text', '123456'),
  };
  if (el.attrs['Border.Width'] === undefined) {
    for (const line of [o.border.leftLine, o.border.topLine, o.border.rightLine, o.border.bottomLine]) line.width = 3;
  }
  for (const child of el.children) ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  o.raw = a.rest();
  return o;
}
