// Data bands with Columns.Count > 1 (FastReport's RenderMultiColumnBand): AcrossThenDown puts
// consecutive rows side by side in one output band per line; DownThenAcross fills a column
// before the next one and continues on the next page when the page is full.

import type { DataBandModel } from '../frx/model.js';
import { addToPreparedPages, calcBandHeight, freeSpace, showBand } from './bands.js';
import { dataColumnWidth } from './band-layout.js';
import type { BandSource } from './datasource.js';
import { checkKeepFooter, footersHeight, needKeepLastRow } from './keep-with-data.js';
import { defaultBorder, defaultFill } from '../frx/defaults.js';
import type { EngineContext } from './context.js';
import { startKeep } from './keep.js';
import { endColumn, endPage } from './pages.js';
import type { OutputBand } from './runtime.js';

const outputBands = new WeakMap<DataBandModel, DataBandModel>();

/** The band that holds one line of columns: the data band's settings, no objects, no look. */
function outputBandOf(band: DataBandModel): DataBandModel {
  let out = outputBands.get(band);
  if (!out) {
    out = {
      ...band,
      child: null,
      objects: [],
      bands: [],
      header: null,
      footer: null,
      fill: defaultFill(),
      border: defaultBorder(),
      style: '',
      evenStyle: '',
      startNewPage: false,
      printOnBottom: false,
      canBreak: false,
      visibleExpression: '',
    };
    outputBands.set(band, out);
  }
  return out;
}

export function renderAcrossThenDown(e: EngineContext, band: DataBandModel, src: BandSource, rowCount: number): void {
  const saveRow = src.position;
  const keepLastRow = needKeepLastRow(e, band) && band.bands.length === 0;
  const colWidth = dataColumnWidth(e, band);
  const out = outputBandOf(band);
  const r = e.bands.rt(band);
  let columnNo = 0;
  let output: OutputBand = { items: [], x: 0, y: 0, bottom: 0 };
  for (let i = 0; i < rowCount && !e.limits.aborted; i++) {
    if (i > 0) e.limits.visitRow();
    const isLast = i === rowCount - 1;
    src.position = saveRow + i;
    if (columnNo === 0) output = { items: [], x: 0, y: 0, bottom: 0 };
    output.x = columnNo * colWidth;
    output.y = 0;
    const save = e.bands.output;
    e.bands.output = output;
    try {
      showBand(e, band);
    } finally {
      e.bands.output = save;
    }
    e.bands.setRowNo(band, r.rowNo + 1, r.absRowNo + 1);
    columnNo++;
    if (columnNo === band.columns.count || isLast) {
      columnNo = 0;
      if (isLast && keepLastRow) startKeep(e, out);
      let height = band.height;
      if ((band.canGrow && output.bottom > height) || (band.canShrink && output.bottom < height))
        height = output.bottom;
      addToPreparedPages(e, {
        band: out,
        left: 0,
        width: e.cursor.pageWidth,
        height,
        items: output.items,
        canBreak: false,
      });
      if (isLast && keepLastRow) checkKeepFooter(e, band);
    }
  }
  src.position = saveRow + rowCount;
}

export function renderDownThenAcross(e: EngineContext, band: DataBandModel, src: BandSource, rowCount: number): void {
  const saveRow = src.position;
  const heights: number[] = [];
  for (let i = 0; i < rowCount && !e.limits.aborted; i++) {
    src.position = saveRow + i;
    heights.push(calcBandHeight(e, band));
  }
  let start = saveRow;
  let remaining = rowCount;
  for (let guard = 0; remaining > 0 && !e.limits.aborted && guard < 100_000; guard++) {
    const shown = downThenAcross(e, band, src, start, remaining, (i) => heights[i - saveRow] ?? band.height);
    start += shown;
    remaining -= shown;
  }
  src.position = saveRow + rowCount;
}

/** Prints rows from `start` down then across; returns how many rows were printed. */
function downThenAcross(
  e: EngineContext,
  band: DataBandModel,
  src: BandSource,
  start: number,
  count: number,
  height: (row: number) => number,
): number {
  const cols = band.columns.count;
  const colWidth = dataColumnWidth(e, band);
  const r = e.bands.rt(band);
  const rowsPerColumn = Math.max(Math.ceil(count / cols), band.columns.minRowCount);
  let maxHeight = 0;
  for (let c = 0; c < cols; c++) {
    let h = 0;
    for (let j = 0; j < rowsPerColumn; j++) {
      const row = start + c * rowsPerColumn + j;
      if (row >= start + count) break;
      h += height(row);
    }
    maxHeight = Math.max(maxHeight, h);
  }
  const saveX = e.cursor.curX;
  const startY = e.cursor.curY;
  let columnNo = 0;
  if (maxHeight > freeSpace(e)) {
    for (let i = 0; i < count && !e.limits.aborted; i++) {
      src.position = start + i;
      if (height(start + i) > freeSpace(e) && i !== 0) {
        columnNo++;
        if (columnNo === cols) {
          e.cursor.curX = saveX;
          endPage(e);
          return i;
        }
        e.cursor.curY = startY;
        i--;
        continue;
      }
      e.cursor.curX = saveX + columnNo * colWidth;
      showBand(e, band);
      e.bands.setRowNo(band, r.rowNo + 1, r.absRowNo + 1);
    }
    e.cursor.curX = saveX;
    return count;
  }
  let maxY = e.cursor.curY;
  let rowNo = 0;
  const carryOutLast =
    band.bands.length === 0 && needKeepLastRow(e, band) && footersHeight(e, band) > freeSpace(e) - maxHeight;
  for (let i = 0; i < count && !e.limits.aborted; i++) {
    src.position = start + i;
    if (i === count - 1 && carryOutLast) {
      e.cursor.curX = saveX;
      e.cursor.curY = maxY;
      endColumn(e);
      showBand(e, band);
      return count;
    }
    e.cursor.curX = saveX + columnNo * colWidth;
    showBand(e, band);
    maxY = Math.max(maxY, e.cursor.curY);
    e.bands.setRowNo(band, r.rowNo + 1, r.absRowNo + 1);
    if (++rowNo >= rowsPerColumn) {
      columnNo++;
      rowNo = 0;
      e.cursor.curY = startY;
    }
  }
  e.cursor.curX = saveX;
  e.cursor.curY = maxY;
  return count;
}
