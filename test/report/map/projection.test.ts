// The Mercator projection and the map's fit, against the formulas: Mercator y = ln(tan(π/4 + φ/2))
// in radians (here in degrees), the box fitted into the object at the smaller of the two scales.

import { describe, expect, it } from 'vitest';
import { MapView, mercatorY } from '../../../src/report/map/projection.js';

const deg = (rad: number): number => (rad * 180) / Math.PI;
const mercator = (lat: number): number => deg(Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)));

describe('mercatorY', () => {
  it('is the standard Mercator y in degrees', () => {
    for (const lat of [-60, -20.5, 0, 19.8932814128116, 37, 49.3717346191406, 80])
      expect(mercatorY(lat)).toBeCloseTo(mercator(lat), 9);
  });
  it('is cut at the Web Mercator limit', () => {
    expect(mercatorY(89.9)).toBeCloseTo(180, 6);
    expect(mercatorY(-90)).toBeCloseTo(-180, 6);
  });
});

describe('MapView', () => {
  const box = { minX: -125.463921613118, minY: 19.8932814128116, maxX: -66.9698486328125, maxY: 49.3717346191406 };
  const spec = {
    left: 9.45,
    top: 94.5,
    width: 699.3,
    height: 538.65,
    padding: { left: 0, top: 0, right: 0, bottom: 0 },
    zoom: 1,
    offsetX: 0,
    offsetY: 66.15,
    mercator: true,
    box,
  };

  it('fits the box at the smaller scale, offset by OffsetX/Y', () => {
    const v = new MapView(spec);
    const scaleX = spec.width / (box.maxX - box.minX);
    const scaleY = spec.height / (mercator(box.maxY) - mercator(box.minY));
    expect(v.scale).toBeCloseTo(Math.min(scaleX, scaleY), 9);
    expect(v.px(box.minX)).toBeCloseTo(spec.left, 9);
    expect(v.py(box.maxY)).toBeCloseTo(spec.top + spec.offsetY, 9);
    const lat = 40;
    expect(v.py(lat)).toBeCloseTo(spec.top + spec.offsetY + (mercator(box.maxY) - mercator(lat)) * v.scale, 9);
  });

  it('zooms about the object centre', () => {
    const v = new MapView({ ...spec, zoom: 2, offsetY: 10 });
    const base = new MapView({ ...spec, offsetY: 0 });
    expect(v.scale).toBeCloseTo(base.scale * 2, 9);
    expect(v.px(box.minX)).toBeCloseTo(spec.left - spec.width / 2, 9);
    expect(v.py(box.maxY)).toBeCloseTo(spec.top - spec.height / 2 + 20, 9);
  });

  it('uses latitude as it is without Mercator', () => {
    const v = new MapView({ ...spec, mercator: false, offsetY: 0 });
    expect(v.py(box.minY) - v.py(box.maxY)).toBeCloseTo((box.maxY - box.minY) * v.scale, 9);
  });
});
