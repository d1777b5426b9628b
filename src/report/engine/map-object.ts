// MapObject (FastReport.Map.MapObject.Draw): the object's fill, its layers (map-layers.ts) in the
// projection of the first layer's box, the colour scale (map-legend.ts) and the border last. Each
// layer bound to data gets its values when the map prints (map-data.ts), and its colour ranges
// are completed from their minimum and maximum. A layer without shapes (its shapefile missing:
// a warning when the template loaded) leaves the background, frame and legend.

import type { MapLayerModel, MapObjectModel } from '../frx/model.js';
import { defaultBorder, defaultFill } from '../frx/defaults.js';
import { fillRanges, type ColorRange } from '../map/color-ranges.js';
import { MapView } from '../map/projection.js';
import { boxOf } from '../map/shapes.js';
import { linkTo, takesContainerValue } from './hyperlinks.js';
import { layerValues } from './map-data.js';
import { drawLayer } from './map-layers.js';
import { drawColorScale } from './map-legend.js';
import { itemHeader, type ObjectType } from './object-type.js';
import type { PreparedItem } from './prepared.js';

const NO_BORDER = Object.freeze(defaultBorder());
const NO_FILL = Object.freeze(defaultFill());

/** The box the map is fitted to: the first layer's BoxAsString, else its shapes' box. */
function layerBox(layer: MapLayerModel | undefined) {
  if (!layer) return null;
  if (layer.box) return layer.box;
  if (layer.shapes.length === 0) return null;
  const b = boxOf(layer.shapes.flatMap((s) => s.parts));
  return Number.isFinite(b.minX) ? b : null;
}

export const mapObject: ObjectType<MapObjectModel> = {
  item(e, o, rt) {
    const items: PreparedItem[] = [
      {
        kind: 'box',
        ...itemHeader(o, rt),
        border: NO_BORDER,
      },
    ];
    const box = layerBox(o.layers[0]);
    let scaleRanges: ColorRange[] | undefined;
    let scaleChosen = false;
    // FastReport's preview runs a shape's DetailPage/DetailReport link with its spatial value.
    const link = (key: string) => (takesContainerValue(o.hyperlink) ? linkTo(e, o.name, o.hyperlink, key) : undefined);
    if (box) {
      const view = new MapView({
        left: rt.left,
        top: rt.top,
        width: rt.width,
        height: rt.height,
        padding: o.padding,
        zoom: o.zoom,
        offsetX: o.offsetX,
        offsetY: o.offsetY,
        mercator: o.mercatorProjection,
        box,
      });
      for (const layer of o.layers) {
        const data = layerValues(e, o, layer);
        const ranges =
          data && data.values.size > 0 ? fillRanges(layer.colorRanges, data.min, data.max) : layer.colorRanges.ranges;
        if (!scaleChosen && layer.colorRanges.showInColorScale) {
          scaleRanges = ranges;
          scaleChosen = true;
        }
        if (layer.visible) items.push(...drawLayer(e, o, rt, layer, { view, ranges, values: data?.values, link }));
      }
    }
    items.push(...drawColorScale(e, o, rt, scaleRanges));
    items.push({
      kind: 'box',
      ...itemHeader(o, rt),
      name: `${o.name}.Border`,
      fill: NO_FILL,
    });
    return items.map((item) => ({ item, canBreak: false }));
  },
};
