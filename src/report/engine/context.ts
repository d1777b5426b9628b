// What every layout module of the engine works with: the run's services and its state, grouped
// by concern (each state class's file says what it holds). Engine (engine.ts) is the one
// implementation; the modules take this interface so that none of them imports engine.ts.
//
// `flow` holds the few calls that go back up the module order (FastReport's partial class calls
// freely): a band that does not fit ends the column (pages.ts, which shows bands itself), and a
// data band's detail bands may be groups (groups.ts, which runs data bands itself), and an object
// that holds objects (a table's cells) prints them as a band does (objects.ts, band-layout.ts,
// which reach every object type).

import type { DataContext } from '../data/index.js';
import type { ReportWarnings } from '../errors.js';
import type { BandModel, GroupHeaderBandModel, ReportModel, ReportObjectModel } from '../frx/model.js';
import type { Culture, Formatter } from '../format/index.js';
import type { FontService, FontSpec, ResolvedFont } from '../text/index.js';
import type { BandStates } from './band-states.js';
import type { Expressions } from './expressions.js';
import type { KeepBlock } from './keep.js';
import type { RunLimits } from './limits.js';
import type { PageCursor } from './page-cursor.js';
import type { PageNumbering } from './page-numbers.js';
import type { Bookmarks } from './bookmarks.js';
import type { Outline } from './outline.js';
import type { Passes } from './passes.js';
import type { PostprocessRecords } from './postprocess.js';
import type { Reprints } from './reprint.js';
import type { LaidItem, RtObject } from './runtime.js';
import type { ReportScope } from './scope.js';
import type { ScriptEvents } from './script-events.js';
import type { ReportStructure } from './structure.js';
import type { StyleSheet } from './styles.js';
import type { Totals } from './totals.js';

export interface EngineFlow {
  /** pages.ts: ends the current column (its footers, then the next column or page). */
  endColumn(e: EngineContext, showColumnFooter?: boolean): void;
  /** pages.ts: prints the repeated footers at the current position. */
  showReprintFooters(e: EngineContext, repeated: boolean): void;
  /** groups.ts: runs a group (its data band's rows, split where the condition changes). */
  runGroup(e: EngineContext, group: GroupHeaderBandModel): void;
  /** groups.ts: true when the group would print no row. */
  isGroupEmpty(e: EngineContext, group: GroupHeaderBandModel): boolean;
  /** objects.ts: an object's run-time properties for the current row (`getData` replaces the
   *  type's own). */
  objectData(
    e: EngineContext,
    o: ReportObjectModel,
    even: boolean,
    repeated: boolean,
    getData?: (e: EngineContext, o: ReportObjectModel, rt: RtObject) => void,
  ): RtObject;
  /** objects.ts: the prepared items of a printed object. */
  objectItems(e: EngineContext, rt: RtObject): LaidItem[];
  /** band-layout.ts: grows the objects that grow and shifts those below; the lowest bottom. */
  growObjects(e: EngineContext, objects: RtObject[]): number;
  /** subreports.ts: the PrintOnParent subreports of a band being laid out (their items relative
   *  to the band, and how low they reach). */
  renderInnerSubreports(e: EngineContext, objects: readonly RtObject[]): { items: LaidItem[]; bottom: number };
  /** subreports.ts: the other subreports of a band just shown, below it. */
  renderOuterSubreports(e: EngineContext, band: BandModel): void;
  /** table-pages.ts: the tables (matrices) of a band just shown, below it in page-sized parts. */
  printTables(e: EngineContext, band: BandModel, tables: readonly RtObject[]): void;
}

export interface EngineContext {
  readonly report: ReportModel;
  readonly data: DataContext;
  readonly warnings: ReportWarnings;
  readonly fonts: FontService;
  readonly culture: Culture;
  readonly formatter: Formatter;
  readonly scope: ReportScope;
  readonly exprs: Expressions;
  readonly styles: StyleSheet;
  readonly totals: Totals;
  readonly structure: ReportStructure;
  readonly limits: RunLimits;
  readonly passes: Passes;
  readonly bookmarks: Bookmarks;
  readonly outline: Outline;
  readonly cursor: PageCursor;
  readonly numbering: PageNumbering;
  readonly bands: BandStates;
  readonly keep: KeepBlock;
  readonly reprints: Reprints;
  readonly records: PostprocessRecords;
  /** Set when the run hands its pages to a sink as they are finished (page-stream.ts, which
   *  takes this context: hence the shape, not its class). */
  readonly stream: { pageAdded(): void } | undefined;
  readonly flow: EngineFlow;
  /** The report script's handlers (a no-op without a script). */
  readonly script: ScriptEvents;
  /** fonts.resolve, once per font object and run. */
  resolveFont(font: FontSpec): ResolvedFont;
  /** Set while the objects inside a matrix's data cell get their data (an AdvMatrix cell's
   *  docked gauge or sparkline shows the cell's value, or the values it gathered). */
  cellData: CellData | undefined;
}

/** A matrix data cell's result, as the objects inside the cell see it. */
export interface CellData {
  /** The cell's value (an aggregate's result). */
  value: unknown;
  /** The values the cell gathered, in data order (ValuesList; else the aggregated values). */
  values: readonly unknown[];
}
