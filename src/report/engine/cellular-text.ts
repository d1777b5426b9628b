// CellularTextObject (FastReport's CellularTextObject.GetTable): the text laid into a grid, one
// character a cell, every cell with the object's border, fill and font and its character centred.
// The cell size comes from the font when not given (its height + 10 px, rounded to 0.25 cm);
// lines break at the grid's width (at the last space with WordWrap); a line is aligned in its row
// by whole cells. CalcHeight gives the rows the whole text needs.

import type { CellularModel, TextObjectModel } from '../frx/model.js';
import type { EngineContext } from './context.js';
import type { LaidItem, RtObject } from './runtime.js';
import { labelItem } from './text-label.js';

/** 0.25 cm in px. */
const QUARTER_CM = 9.45;
/** Most cells one object prints (a huge box of tiny cells would otherwise print millions). */
export const MAX_CELLS = 10_000;

interface Grid {
  cellWidth: number;
  cellHeight: number;
  columns: number;
  rows: number;
  /** The characters of each row, placed at their columns. */
  cells: Map<number, string>[];
}

function cellSize(e: EngineContext, o: TextObjectModel, c: CellularModel, rt: RtObject): [number, number] {
  if (c.cellWidth > 0 && c.cellHeight > 0) return [c.cellWidth, c.cellHeight];
  const fontHeight = e.resolveFont(rt.font ?? o.font).lineHeightPx;
  const w = Math.round((fontHeight + 10) / QUARTER_CM) * QUARTER_CM;
  return [w, w];
}

/** The grid for the object's box; `autoRows`: as many rows as the text needs (CalcHeight). */
function grid(e: EngineContext, o: TextObjectModel, c: CellularModel, rt: RtObject, autoRows: boolean): Grid {
  const [cellWidth, cellHeight] = cellSize(e, o, c, rt);
  const columns = Math.max(1, Math.trunc((rt.width + c.horzSpacing + 1) / (cellWidth + c.horzSpacing)));
  let rows = Math.trunc((rt.height + c.vertSpacing + 1) / (cellHeight + c.vertSpacing));
  if (rows === 0 || autoRows) rows = 1;
  const cells: Map<number, string>[] = [];
  const place = (row: number, line: string): void => {
    if (row >= rows) return;
    let t = line.replace(/ +$/, '');
    if (t.length > columns) t = t.slice(0, columns);
    const offset =
      o.horzAlign === 'Right'
        ? columns - t.length
        : o.horzAlign === 'Center'
          ? Math.trunc((columns - t.length) / 2)
          : 0;
    const m = (cells[row] ??= new Map());
    for (let i = 0; i < t.length; i++) m.set(i + offset, t[i] ?? '');
  };
  // FastReport's loop, character by character (a UTF-16 unit each, as in .NET).
  const text = (rt.text ?? o.text).replace(/\r\n/g, '\n');
  let row = 0;
  let lineBegin = 0;
  let lastSpace = 0;
  for (let i = 0; i < text.length; i++) {
    const newline = text[i] === '\n';
    if (text[i] === ' ' || newline) lastSpace = i;
    if (i - lineBegin + 1 > columns || newline) {
      if (o.wordWrap && lastSpace > lineBegin) {
        place(row, text.slice(lineBegin, lastSpace));
        lineBegin = lastSpace + 1;
      } else if (i - lineBegin > 0) {
        place(row, text.slice(lineBegin, i));
        lineBegin = i;
      } else lineBegin = i + 1;
      lastSpace = lineBegin;
      row++;
      if (autoRows && row >= rows) rows++;
    }
  }
  if (lineBegin < text.length) place(row, text.slice(lineBegin));
  return { cellWidth, cellHeight, columns, rows, cells };
}

export function cellularHeight(e: EngineContext, o: TextObjectModel, c: CellularModel, rt: RtObject): number {
  const g = grid(e, o, c, rt, true);
  return g.rows * g.cellHeight + (g.rows - 1) * c.vertSpacing;
}

export function cellularItems(e: EngineContext, o: TextObjectModel, c: CellularModel, rt: RtObject): LaidItem[] {
  const g = grid(e, o, c, rt, false);
  if (g.columns * g.rows > MAX_CELLS) {
    const rows = Math.max(1, Math.floor(MAX_CELLS / g.columns));
    e.warnings.add(`${o.name}: only the first ${rows * g.columns} of its ${g.columns * g.rows} cells are printed`);
    g.rows = rows;
    g.columns = Math.min(g.columns, MAX_CELLS);
  }
  const out: LaidItem[] = [];
  const font = rt.font ?? o.font;
  const textFill = rt.textFill ?? o.textFill;
  const color = textFill.kind === 'Solid' ? textFill.color : { r: 0, g: 0, b: 0, a: 255 };
  for (let r = 0; r < g.rows; r++)
    for (let col = 0; col < g.columns; col++) {
      const item = labelItem(e, {
        name: o.name,
        text: g.cells[r]?.get(col) ?? '',
        font,
        color,
        x: rt.left + col * (g.cellWidth + c.horzSpacing),
        y: rt.top + r * (g.cellHeight + c.vertSpacing),
        width: g.cellWidth,
        height: g.cellHeight,
        angle: 0,
        horzAlign: 'Center',
        vertAlign: 'Center',
        wordWrap: false,
        fill: rt.fill,
        border: rt.border,
      });
      out.push({ item, canBreak: false });
    }
  return out;
}
