// What the engine asks of the report's script while it prints (engine/script.ts implements it;
// NO_SCRIPT when the report has none): its handlers at FastReport's moments, and the objects as
// its handlers have changed them.

import type { TypedValue } from '../expr/index.js';
import type { BandModel, MatrixObjectModel, ReportObjectModel, TableObjectModel } from '../frx/model.js';
import type { TableColumnModel, TableRowModel } from '../frx/model.js';
import type { RtBand, RtObject, RtTable } from './runtime.js';

/** A table being built by its ManualBuild handler (FastReport's TableHelper). */
export interface TableBuild {
  printRow(index: number): void;
  printColumn(index: number): void;
  pageBreak(): void;
  /** The table built so far (its AfterCalcBounds handlers see it laid out). */
  result(): RtTable;
}

/** A built table once laid out, as its AfterCalcBounds handlers change it (TableResult): its
 *  columns and rows (copies of the template's), and `relayout` after a change of their sizes. */
export interface LaidOutTable {
  readonly table: RtTable;
  readonly columns: TableColumnModel[];
  readonly rows: TableRowModel[];
  relayout(): void;
}

export interface ScriptEvents {
  /** Runs the handler `events[event]` of `owner` (a band, the report, a page), if any. */
  fire(owner: string, events: Readonly<Record<string, string>>, event: string): void;
  /** A band's print: its BeforePrint, `print`, its and its objects' AfterPrint; what handlers
   *  changed meanwhile on the band and its objects is undone afterwards. */
  aroundBand<T>(band: BandModel, print: () => T): T;
  /** The object as the script has changed it (the model itself when it has not). */
  live<T extends ReportObjectModel>(o: T): T;
  /** Applies the script's changes of a band (Visible, Height, Fill …) to its run-time copy. */
  applyToBand(rt: RtBand): void;
  /** The object's BeforePrint handler: before its data, or with `rt` after the data its
   *  container gave it (a matrix cell's value), which the handler may then change. */
  beforePrint(o: ReportObjectModel, rt?: RtObject): void;
  /** The object's AfterData handler, which may change the printed copy. */
  afterData(o: ReportObjectModel, rt: RtObject): void;
  /** Runs the table's ManualBuild handler over `build`; false when there is none to run. */
  manualBuild(o: TableObjectModel, build: TableBuild): boolean;
  /** Runs the handlers the ManualBuild added to the result's AfterCalcBounds event. */
  afterCalcBounds(o: TableObjectModel, build: TableBuild, laid: LaidOutTable): void;
  /** Runs the matrix's ManualBuild handler, whose AddValue calls `add` (the values of the column
   *  dimensions, the row dimensions and the data cells); false when there is none to run. */
  matrixBuild(o: MatrixObjectModel, add: MatrixAdd): boolean;
}

export type MatrixAdd = (
  columns: readonly TypedValue[],
  rows: readonly TypedValue[],
  cells: readonly TypedValue[],
) => void;

export const NO_SCRIPT: ScriptEvents = {
  fire: () => {},
  aroundBand: (_band, print) => print(),
  live: (o) => o,
  applyToBand: () => {},
  beforePrint: () => {},
  afterData: () => {},
  manualBuild: () => false,
  afterCalcBounds: () => {},
  matrixBuild: () => false,
};
