// Drawing a map layer's shapes (FastReport's ShapePolygon/ShapePolyLine/ShapePoint Draw and
// DrawLabel) as path and text items: each shape projected to px (map/projection.ts), vertices
// closer than the layer's Accuracy dropped, clipped to the map's area (map/clip.ts). A polygon is
// filled with the style's colour, its palette colour by shape index, or its value's colour range,
// and outlined with the style's pen; a label (the LabelColumn value, with the value for
// LabelKind Value/NameAndValue) is centred in the shape's widest part and printed only if it fits.

import type { Color, MapLayerModel, MapObjectModel, MapShape } from '../frx/model.js';
import { clipPolyline, clipRing, type ClipRect } from '../map/clip.js';
import { paletteColor, rangeColor, type ColorRange } from '../map/color-ranges.js';
import type { MapView } from '../map/projection.js';
import { circle, PathBuilder } from '../path-data.js';
import type { EngineContext } from './context.js';
import type { PreparedHyperlink, PreparedItem } from './prepared.js';
import type { RtObject } from './runtime.js';
import { labelItem } from './text-label.js';
import { vectorPath } from './vector-items.js';

type Pt = [number, number];

export interface LayerDraw {
  view: MapView;
  /** Completed colour ranges (empty: none). */
  ranges: ColorRange[];
  /** Values by spatial value (undefined: the layer has no data). */
  values: Map<string, number> | undefined;
  /** The link of a shape by its spatial value (a DetailPage/DetailReport link carries it). */
  link: (key: string) => PreparedHyperlink | undefined;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The shape's parts in px, thinned by the layer's accuracy, each with its box. */
function project(shape: MapShape, view: MapView, accuracy: number): { rings: Pt[][]; boxes: Box[] } {
  const rings: Pt[][] = [];
  const boxes: Box[] = [];
  const minPoints = shape.kind === 'polygon' ? 3 : 2;
  for (const part of shape.parts) {
    const ring: Pt[] = [];
    const b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    for (let i = 0; i + 1 < part.length; i += 2) {
      const p: Pt = [view.px(part[i] as number), view.py(part[i + 1] as number)];
      // A garbage coordinate (NaN, ±Infinity) is left out rather than written into the path.
      if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) continue;
      const last = ring[ring.length - 1];
      if (last && Math.hypot(p[0] - last[0], p[1] - last[1]) < accuracy) continue;
      ring.push(p);
      b.x0 = Math.min(b.x0, p[0]);
      b.x1 = Math.max(b.x1, p[0]);
      b.y0 = Math.min(b.y0, p[1]);
      b.y1 = Math.max(b.y1, p[1]);
    }
    if (ring.length >= minPoints) {
      rings.push(ring);
      boxes.push(b);
    }
  }
  return { rings, boxes };
}

const inside = (b: Box, c: ClipRect): boolean => b.x0 >= c.x0 && b.x1 <= c.x1 && b.y0 >= c.y0 && b.y1 <= c.y1;
const apart = (b: Box, c: ClipRect): boolean => b.x1 < c.x0 || b.x0 > c.x1 || b.y1 < c.y0 || b.y0 > c.y1;

/** The key a shape is matched to data by: its SpatialColumn value. */
export const spatialKey = (layer: MapLayerModel, shape: MapShape): string => shape.data.get(layer.spatialColumn) ?? '';

/** The fill of a polygon or point (ShapePolygon.Draw's order: style, palette, colour range). */
export function shapeFill(
  layer: MapLayerModel,
  index: number,
  value: number | undefined,
  ranges: readonly ColorRange[],
): Color {
  let fill = layer.style.fillColor;
  if (layer.palette !== 'None' && layer.type !== 'Point') fill = paletteColor(layer.palette, index) ?? fill;
  if (value !== undefined && ranges.length > 0) fill = rangeColor(ranges, value);
  return fill;
}

export function drawLayer(
  e: EngineContext,
  map: MapObjectModel,
  rt: RtObject,
  layer: MapLayerModel,
  d: LayerDraw,
): PreparedItem[] {
  const items: PreparedItem[] = [];
  const labels: PreparedItem[] = [];
  const clip = d.view.clip;
  const box = { x: rt.left, y: rt.top, width: rt.width, height: rt.height };
  const rel = (p: readonly [number, number]): [number, number] => [p[0] - rt.left, p[1] - rt.top];
  const style = layer.style;
  const pen = { stroke: style.borderColor, lineWidth: style.borderWidth, style: style.borderStyle };
  const showLabels = layer.labelKind !== 'None' && map.zoom >= layer.labelsVisibleAtZoom;
  layer.shapes.forEach((shape, index) => {
    e.limits.visitRow();
    const key = spatialKey(layer, shape);
    const before = items.length;
    const labelsBefore = labels.length;
    drawShape(shape, index, key);
    const link = key === '' ? undefined : d.link(key);
    if (link) for (const item of [...items.slice(before), ...labels.slice(labelsBefore)]) item.hyperlink = link;
  });
  return [...items, ...labels];

  function drawShape(shape: MapShape, index: number, key: string): void {
    const value = d.values?.get(key);
    const name = `${map.name}.${layer.name}[${index}]${key === '' ? '' : `=${key}`}`;
    if (shape.kind === 'point') {
      const [x, y] = [d.view.px(shape.parts[0]?.[0] ?? 0), d.view.py(shape.parts[0]?.[1] ?? 0)];
      if (!Number.isFinite(x) || !Number.isFinite(y)) return;
      if (x < clip.x0 || x > clip.x1 || y < clip.y0 || y > clip.y1) return;
      const path = new PathBuilder();
      circle(path, x - rt.left, y - rt.top, style.pointSize / 2);
      items.push(
        vectorPath({
          name,
          ...box,
          d: path.toString(),
          closed: true,
          fill: shapeFill(layer, index, value, d.ranges),
          stroke: style.borderColor,
        }),
      );
      if (showLabels)
        pushLabel(e, labels, layer, shape, value, name, { x0: x - 100, y0: y - 20, x1: x + 100, y1: y }, false);
      return;
    }
    const { rings, boxes } = project(shape, d.view, layer.accuracy);
    if (rings.length === 0 || boxes.every((b) => apart(b, clip))) return;
    const whole = boxes.every((b) => inside(b, clip));
    if (shape.kind === 'polyline') {
      const path = new PathBuilder();
      for (const ring of rings)
        for (const run of whole ? [ring] : clipPolyline(ring, clip)) path.polyline(run.map(rel));
      items.push(vectorPath({ name, ...box, d: path.toString(), closed: false, ...pen }));
      return;
    }
    const fill = shapeFill(layer, index, value, d.ranges);
    const area = new PathBuilder();
    for (const ring of rings) area.polygon((whole ? ring : clipRing(ring, clip)).map(rel));
    if (whole) items.push(vectorPath({ name, ...box, d: area.toString(), closed: true, fill, ...pen }));
    else {
      items.push(vectorPath({ name, ...box, d: area.toString(), closed: true, fill }));
      const outline = new PathBuilder();
      for (const ring of rings)
        for (const run of clipPolyline([...ring, ring[0] as Pt], clip)) outline.polyline(run.map(rel));
      items.push(vectorPath({ name: `${name}.outline`, ...box, d: outline.toString(), closed: false, ...pen }));
    }
    if (showLabels) {
      // The widest part's box (ShapePolygon's largestBoundsRect).
      const widest = boxes.reduce((a, b) => (b.x1 - b.x0 > a.x1 - a.x0 ? b : a));
      if (inside(widest, clip)) pushLabel(e, labels, layer, shape, value, name, widest, true);
    }
  }
}

function pushLabel(
  e: EngineContext,
  out: PreparedItem[],
  layer: MapLayerModel,
  shape: MapShape,
  value: number | undefined,
  name: string,
  b: Box,
  mustFit: boolean,
): void {
  let text = layer.labelKind === 'Value' ? '' : (shape.data.get(layer.labelColumn) ?? '');
  if (value !== undefined && (layer.labelKind === 'Value' || layer.labelKind === 'NameAndValue'))
    text += `\r\n${e.scope.formatter.format(value, layer.labelFormat)}`;
  if (text.trim() === '') return;
  const item = labelItem(e, {
    name: `${name}.label`,
    text,
    font: layer.style.font,
    color: layer.style.textColor,
    x: b.x0,
    y: b.y0,
    width: b.x1 - b.x0,
    height: b.y1 - b.y0,
    angle: 0,
    horzAlign: 'Center',
    vertAlign: 'Center',
    wordWrap: false,
  });
  const width = Math.max(0, ...item.lines.map((l) => l.width));
  if (mustFit && !(width < b.x1 - b.x0)) return;
  out.push(item);
}
