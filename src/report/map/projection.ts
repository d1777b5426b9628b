// Longitude/latitude → the map object's pixels (FastReport's CoordinateConverter and MapObject
// scale): the first layer's box fills the object (less its padding) at zoom 1, the smaller of
// the two scales kept; y is the Mercator y of the latitude when MercatorProjection is on. Zoom
// grows the map about the object's centre; OffsetX/Y move it (in px, times the zoom).

import type { MapBox } from './shapes.js';

/** The latitude where Mercator's y is cut (the square Web Mercator world). */
export const MAX_MERCATOR_LAT = 85.0511287798066;

/** The Mercator y of a latitude, in degrees of longitude at the equator:
 *  (90/π)·ln((1+sin φ)/(1−sin φ)), the latitude clamped to ±MAX_MERCATOR_LAT. */
export function mercatorY(lat: number): number {
  const clamped = Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
  const s = Math.sin((Math.PI / 180) * clamped);
  return (90 / Math.PI) * Math.log((1 + s) / (1 - s));
}

export interface MapViewSpec {
  /** The object's box in px (relative to its band). */
  left: number;
  top: number;
  width: number;
  height: number;
  padding: { left: number; top: number; right: number; bottom: number };
  zoom: number;
  offsetX: number;
  offsetY: number;
  mercator: boolean;
  /** The first layer's box (degrees). */
  box: MapBox;
}

export class MapView {
  /** px per degree (times the zoom). */
  readonly scale: number;
  /** Where the box's (minX, maxY) corner lands. */
  readonly originX: number;
  readonly originY: number;
  private readonly top: number;

  constructor(private readonly s: MapViewSpec) {
    const w = s.width - s.padding.left - s.padding.right;
    const h = s.height - s.padding.top - s.padding.bottom;
    const boxW = s.box.maxX - s.box.minX;
    const boxH = this.y(s.box.maxY) - this.y(s.box.minY);
    const scaleX = boxW > 0 ? w / boxW : Infinity;
    const scaleY = boxH > 0 ? h / boxH : Infinity;
    const base = Math.min(scaleX, scaleY);
    this.scale = (Number.isFinite(base) && base > 0 ? base : 1) * s.zoom;
    // FastReport's OffsetXG/OffsetYG: zooming keeps the object's centre in place.
    this.originX = s.left + s.padding.left - (s.width * s.zoom - s.width) / 2 + s.offsetX * s.zoom;
    this.originY = s.top + s.padding.top - (s.height * s.zoom - s.height) / 2 + s.offsetY * s.zoom;
    this.top = this.y(s.box.maxY);
  }

  private y(lat: number): number {
    return this.s.mercator ? mercatorY(lat) : lat;
  }

  px(lon: number): number {
    return this.originX + (lon - this.s.box.minX) * this.scale;
  }

  py(lat: number): number {
    return this.originY + (this.top - this.y(lat)) * this.scale;
  }

  /** The area the layers are drawn in (and clipped to): the object less its padding. */
  get clip(): { x0: number; y0: number; x1: number; y1: number } {
    const { left, top, width, height, padding } = this.s;
    return {
      x0: left + padding.left,
      y0: top + padding.top,
      x1: left + width - padding.right,
      y1: top + height - padding.bottom,
    };
  }
}
