// The map's colour scale (FastReport's ColorScale): a box docked in the map (BottomLeft unless the
// template says otherwise) with the title, then one swatch per colour range side by side, each
// shaded from its colour to half white upwards and outlined, and the range limits below and above
// the swatch edges in turn (formatted with ColorScale.Format, "0" by default). Hidden when the
// ranges have no data and HideIfNoData is set (the default); else it says NoDataText.

import type { Color, MapObjectModel } from '../frx/model.js';
import { WHITE } from '../frx/colors.js';
import { mixColors, type ColorRange } from '../map/color-ranges.js';
import { PathBuilder } from '../path-data.js';
import type { EngineContext } from './context.js';
import type { PreparedItem } from './prepared.js';
import type { RtObject } from './runtime.js';
import { labelItem } from './text-label.js';
import { vectorPath } from './vector-items.js';

const SWATCH_HEIGHT = 16;

export function drawColorScale(
  e: EngineContext,
  map: MapObjectModel,
  rt: RtObject,
  ranges: readonly ColorRange[] | undefined,
): PreparedItem[] {
  const cs = map.colorScale;
  if (!cs.visible) return [];
  const noData = !ranges || ranges.length === 0 || Number.isNaN(ranges[0]?.start);
  if (noData && cs.hideIfNoData) return [];
  const text = (t: string, font = cs.font, color = cs.textColor) =>
    labelItem(e, {
      name: `${map.name}.ColorScale.text`,
      text: t,
      font,
      color,
      x: 0,
      y: 0,
      width: 1000,
      height: 100,
      angle: 0,
      horzAlign: 'Left',
      vertAlign: 'Top',
      wordWrap: false,
    });
  const widthOf = (t: string, font = cs.font): number => Math.max(0, ...text(t, font).lines.map((l) => l.width));
  const fmt = (v: number): string => e.scope.formatter.format(v, cs.format);
  // ColorScale.GetMaxRangeWidth: half the widest limit's text plus 16, at least 25.
  const last = ranges?.[ranges.length - 1];
  const sizeX = ranges && last ? Math.max(50, widthOf(fmt(Number.isNaN(last.end) ? 100000 : last.end)) + 16) / 2 : 0;
  const n = noData ? 0 : (ranges?.length ?? 0);
  const titleHeight = cs.titleText === '' ? 0 : text(cs.titleText, cs.titleFont).lineHeight + 4;
  const width = Math.max(100, (n + 2) * sizeX);
  const height = titleHeight + 60;
  const p = map.padding;
  const areaW = rt.width - p.left - p.right;
  const areaH = rt.height - p.top - p.bottom;
  const dx = cs.dock.endsWith('Left') ? 0 : cs.dock.endsWith('Right') ? areaW - width : (areaW - width) / 2;
  const dy = cs.dock.startsWith('Top') ? 0 : cs.dock.startsWith('Bottom') ? areaH - height : (areaH - height) / 2;
  const x = rt.left + p.left + dx;
  const y = rt.top + p.top + dy;
  const name = `${map.name}.ColorScale`;
  const items: PreparedItem[] = [{ kind: 'box', name, x, y, width, height, fill: cs.fill, border: cs.border }];
  const place = (t: string, font = cs.font, color: Color = cs.textColor, cx: number, top: number, key: string) => {
    const w = widthOf(t, font) + 4;
    const item = labelItem(e, {
      name: `${name}.${key}`,
      text: t,
      font,
      color,
      x: cx - w / 2,
      y: top,
      width: w,
      height: 20,
      angle: 0,
      horzAlign: 'Center',
      vertAlign: 'Top',
      wordWrap: false,
    });
    item.height = item.lineHeight + 1;
    items.push(item);
    return item;
  };
  if (cs.titleText !== '') place(cs.titleText, cs.titleFont, cs.titleColor, x + width / 2, y + 3, 'title');
  if (noData || !ranges) {
    place(cs.noDataText, cs.font, cs.textColor, x + width / 2, y + height - 36, 'noData');
    return items;
  }
  let left = x + (width - n * sizeX) / 2;
  const top = y + height - 36;
  let above = false;
  const tick = new PathBuilder();
  for (let i = 0; i <= n; i++) {
    const range = ranges[Math.min(i, n - 1)] as ColorRange;
    if (i < n) {
      const color = range.color ?? WHITE;
      const swatch = new PathBuilder();
      swatch.rect(0, 0, sizeX, SWATCH_HEIGHT);
      items.push(
        vectorPath({
          name: `${name}.range[${i}]`,
          x: left,
          y: top,
          width: sizeX,
          height: SWATCH_HEIGHT,
          d: swatch.toString(),
          closed: true,
          fill: {
            kind: 'LinearGradient',
            startColor: color,
            endColor: mixColors(color, WHITE, 0.5),
            angle: 270,
            focus: 1,
            contrast: 1,
          },
          stroke: cs.borderColor,
        }),
      );
    }
    const value = i < n ? range.start : range.end;
    tick.moveTo(left - x, above ? top - y : top + SWATCH_HEIGHT - y);
    tick.lineTo(left - x, above ? top - y - 3 : top + SWATCH_HEIGHT + 3 - y);
    const t = fmt(value);
    const lineHeight = text(t).lineHeight;
    place(t, cs.font, cs.textColor, left, above ? top - lineHeight - 2 : top + SWATCH_HEIGHT + 3, `value[${i}]`);
    above = !above;
    left += sizeX;
  }
  items.push(
    vectorPath({
      name: `${name}.ticks`,
      x,
      y,
      width,
      height,
      d: tick.toString(),
      closed: false,
      stroke: cs.borderColor,
    }),
  );
  return items;
}
