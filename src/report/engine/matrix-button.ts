// The buttons of an AdvMatrix (MatrixCollapseButton, MatrixSortButton) are interactive in
// FastReport's preview. A printed report cannot click, and the engine prints every level
// expanded and every group in its descriptor's order, so a button prints as a static glyph of
// that state, centred in its box: a collapse button a boxed minus (or, Symbol Arrow, an arrow
// pointing down), a sort button a triangle pointing up (Ascending), down (Descending) or both
// (None). SymbolSize is the glyph's size in px.

import type { Color, MatrixButtonModel } from '../frx/model.js';
import { PathBuilder } from '../path-data.js';
import { itemHeader, type ObjectType } from './object-type.js';
import type { LaidItem, RtObject } from './runtime.js';
import { hasBorder, isTransparentFill } from './styles.js';
import { vectorPath } from './vector-items.js';

const GLYPH: Color = { r: 64, g: 64, b: 64, a: 255 };
const FRAME: Color = { r: 128, g: 128, b: 128, a: 255 };

function buttonItems(o: MatrixButtonModel, rt: RtObject): LaidItem[] {
  const out: LaidItem[] = [];
  if (!isTransparentFill(rt.fill) || hasBorder(rt.border))
    out.push({ item: { kind: 'box', ...itemHeader(o, rt) }, canBreak: false });
  const s = Math.min(o.symbolSize, Math.max(1, rt.width - 2), Math.max(1, rt.height - 2));
  const cx = rt.width / 2;
  const cy = rt.height / 2;
  const box = { x: rt.left, y: rt.top, width: rt.width, height: rt.height };
  const glyph = new PathBuilder();
  if (o.button === 'Collapse' && o.symbol === 'PlusMinus') {
    // A square frame one px wider than the symbol on each side, a minus inside.
    const half = s / 2 + 2;
    const frame = new PathBuilder();
    frame.polyline(
      [
        [cx - half, cy - half],
        [cx + half, cy - half],
        [cx + half, cy + half],
        [cx - half, cy + half],
      ],
      true,
    );
    out.push({
      item: vectorPath({ name: `${o.name}.Frame`, ...box, d: frame.toString(), closed: false, stroke: FRAME }),
      canBreak: false,
    });
    glyph.polyline([
      [cx - s / 2, cy],
      [cx + s / 2, cy],
    ]);
    out.push({
      item: vectorPath({ name: `${o.name}.Minus`, ...box, d: glyph.toString(), closed: false, stroke: GLYPH }),
      canBreak: false,
    });
    return out;
  }
  const down = (y: number, h: number): void =>
    glyph.polygon([
      [cx - s / 2, y],
      [cx + s / 2, y],
      [cx, y + h],
    ]);
  const up = (y: number, h: number): void =>
    glyph.polygon([
      [cx, y],
      [cx + s / 2, y + h],
      [cx - s / 2, y + h],
    ]);
  const h = s / 2;
  if (o.button === 'Collapse' || o.sort === 'Descending') down(cy - h / 2, h);
  else if (o.sort === 'Ascending') up(cy - h / 2, h);
  else {
    up(cy - h - 1, h);
    down(cy + 1, h);
  }
  out.push({
    item: vectorPath({ name: `${o.name}.Arrow`, ...box, d: glyph.toString(), closed: true, fill: GLYPH }),
    canBreak: false,
  });
  return out;
}

export const matrixButton: ObjectType<MatrixButtonModel> = {
  item: (_e, o, rt) => buttonItems(o, rt),
};
