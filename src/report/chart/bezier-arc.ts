// Points on circles for the plotters that draw slices, rings and circular grids (the arcs
// themselves are ../path-data.ts's arcTo and circle). Angles are in degrees, measured as MS Chart
// measures them: 0° = 3 o'clock, growing clockwise on the page (y grows downwards).

export interface Pt {
  x: number;
  y: number;
}

const RAD = Math.PI / 180;

/** The point at `deg` on the circle (cx, cy, r). */
export function polar(cx: number, cy: number, r: number, deg: number): Pt {
  return { x: cx + r * Math.cos(deg * RAD), y: cy + r * Math.sin(deg * RAD) };
}
