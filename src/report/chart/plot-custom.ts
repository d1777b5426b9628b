// What the axisless plotters share: reading MS Chart custom properties (which MS Chart validates
// by throwing; a template is hostile, so a bad value here falls back to the default instead) and
// the small geometry of label boxes.

import type { Color } from '../frx/colors.js';
import type { FontSpec } from '../text/font-spec.js';
import type { Pt } from './bezier-arc.js';
import type { PlotContext, PlotPoint, PlotSeries, Rect, TextShape } from './plot-types.js';

/** MS Chart draws only the first Pie (Doughnut, Funnel, Pyramid) series of a chart area; the
 *  others of that type draw nothing. */
export function drawnAlone(series: PlotSeries, all: readonly PlotSeries[]): boolean {
  const first = all.find((s) => s.chartType === series.chartType);
  return first === undefined || first === series;
}

/** A number custom property in [min, max]; missing or unusable → the fallback. */
export function customNumber(
  custom: Readonly<Record<string, string>>,
  key: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = custom[key];
  if (raw === undefined || raw.trim() === '') return fallback;
  const v = Number(raw.trim());
  return Number.isFinite(v) && v >= min && v <= max ? v : fallback;
}

/** An enumeration custom property matched case-insensitively (MS Chart's Enum.Parse(…, true)). */
export function customWord<T extends string>(
  custom: Readonly<Record<string, string>>,
  key: string,
  words: readonly T[],
  fallback: T,
): T {
  const raw = custom[key]?.trim().toLowerCase();
  if (!raw) return fallback;
  return words.find((w) => w.toLowerCase() === raw) ?? fallback;
}

/** The first Y value as a finite number (NaN/±Infinity from hostile data count as 0). */
export function yOf(p: PlotPoint): number {
  const v = p.ys[0];
  return v !== undefined && Number.isFinite(v) ? v : 0;
}

export function visible(c: Color | undefined): c is Color {
  return c !== undefined && c.a > 0;
}

/** |y| of the points scaled by their largest |y|, so that summing 10^6 values near 1e308 stays
 *  finite; proportions are unchanged. Empty points give 0. */
export function scaledMagnitudes(points: readonly PlotPoint[]): number[] {
  let max = 0;
  for (const p of points) if (!p.empty) max = Math.max(max, Math.abs(yOf(p)));
  return points.map((p) => (p.empty || max === 0 ? 0 : Math.abs(yOf(p)) / max));
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Moves a box inside the rect where it fits (a box larger than the rect keeps its top-left
 *  corner on the rect's). */
export function clampInto(b: Box, r: Rect): Box {
  const x = Math.max(r.x, Math.min(b.x, r.x + r.width - b.width));
  const y = Math.max(r.y, Math.min(b.y, r.y + r.height - b.height));
  return { ...b, x, y };
}

/** The text as drawn: MS Chart's "\n" escape becomes a line break. */
export const labelText = (text: string): string => text.replace(/\\n/g, '\n');

/** A label's measured box: its widest line by its lines' heights (MS Chart breaks a label at
 *  "\n", written in the template as the two characters backslash, n, or as a real line feed).
 *  Two px of slack on the width keep a text that measures exactly its box from being wrapped
 *  by the text layout. */
export function measureLabel(ctx: PlotContext, text: string, font: FontSpec): { width: number; height: number } {
  let width = 0;
  let height = 0;
  for (const line of labelText(text).split('\n')) {
    const m = ctx.measure(line, font);
    if (Number.isFinite(m.width) && m.width > width) width = m.width;
    if (Number.isFinite(m.height) && m.height > 0) height += m.height;
  }
  return { width: width > 0 ? width + 2 : 0, height };
}

export function textShape(
  tag: string,
  text: string,
  box: Box,
  font: FontSpec,
  color: Color,
  horzAlign: TextShape['horzAlign'] = 'Center',
): TextShape {
  return { kind: 'text', tag, text: labelText(text), ...box, font, color, horzAlign, vertAlign: 'Center' };
}

/** The distance from a point to the nearest point of a box (0 inside). */
export function distanceToBox(p: Pt, b: Box): number {
  const dx = Math.max(b.x - p.x, 0, p.x - (b.x + b.width));
  const dy = Math.max(b.y - p.y, 0, p.y - (b.y + b.height));
  return Math.hypot(dx, dy);
}
