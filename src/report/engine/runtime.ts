// Runtime state: what the engine tracks per band while the report runs, and the run-time
// properties of a report object while it prints (FastReport changes the object itself and
// restores it afterwards; the engine works on a copy, RtObject).

import type { RtfDocument } from '../rtf/rtf-document.js';
import type { RtfLayout } from '../rtf/rtf-layout.js';
import type { Encoded } from '../barcode/index.js';
import type { TypedValue } from '../expr/index.js';
import type { BandModel, BorderModel, Duplicates, FillModel, ReportObjectModel } from '../frx/model.js';
import type { FontSpec } from '../text/index.js';
import type { PreparedHyperlink, PreparedItem } from './prepared.js';
import type { TextMeasure } from './text-layout.js';

export interface BandRt {
  rowNo: number;
  absRowNo: number;
  isFirstRow: boolean;
  isLastRow: boolean;
  /** Printed again on a new page (RepeatOnEveryPage). */
  repeated: boolean;
  /** Did not fit: must break (or be printed as it is) next time. */
  mustBreak: boolean;
  checkFreeSpace: boolean;
  reprintOffset: number;
  /** The deepest DataBand of its page keeps the report summary with its last row. */
  keepSummary: boolean;
}

export function newBandRt(): BandRt {
  return {
    rowNo: 0,
    absRowNo: 0,
    isFirstRow: false,
    isLastRow: false,
    repeated: false,
    mustBreak: false,
    checkFreeSpace: true,
    reprintOffset: 0,
    keepSummary: false,
  };
}

/**
 * A report object's run-time properties while its band prints: made from its template model when
 * the band prints (newRtObject), then changed by styles, even styles, the object's data and
 * highlight conditions; the layout and the prepared item read them from here. The model stays as
 * it was loaded (the engine never writes to a model), so this is where a script's handlers
 * (BeforePrint, AfterData) will write: Text, Visible, Left/Top/Width/Height, Fill, Border, Font.
 */
export interface RtObject {
  /** The template object (read only). */
  readonly model: ReportObjectModel;
  /** Position and size in px, relative to the band. */
  left: number;
  top: number;
  width: number;
  height: number;
  visible: boolean;
  fill: FillModel;
  border: BorderModel;
  /** TextObject (set from the model for every text object): font and text brush. */
  font?: FontSpec;
  textFill?: FillModel;
  /** TextObject: the text after expressions; `value` the last expression's value. */
  text?: string;
  value?: TypedValue;
  /** The text holds [Page#]/[TotalPages#], filled in after layout. */
  macros?: boolean;
  /** The text's [PageNofM]/[TotalPages], filled in after a single pass (late-totals.ts). */
  lateTotals?: LateText;
  measure?: TextMeasure;
  /** PictureObject: image bytes; CheckBoxObject: checked. */
  bytes?: Uint8Array | null;
  checked?: boolean;
  hyperlink?: PreparedHyperlink;
  bookmark?: string;
  /** TableObject: its cells and their objects, and the sizes of its columns and rows. */
  table?: RtTable;
  /** BarcodeObject: the text and what it encodes to (or why it cannot be encoded). */
  barcode?: { text: string; encoded: Encoded };
  /** A gauge: its value after GetData (clamped to its Minimum…Maximum). */
  gaugeValue?: number;
  /** RichObject: its document after expressions, and its layout for `width` (the text area). */
  rich?: { doc: RtfDocument; layout?: RtfLayout; width?: number };
}

/** A table while it prints: the run-time properties of its cells (those not covered by another
 *  cell's span) and of the objects inside them, and its column widths and row heights after
 *  AutoSize. */
export interface RtTable {
  columnWidths: number[];
  rowHeights: number[];
  cells: RtTableCell[];
  /** Rows whose cells' text may split when the table breaks across pages (TableRow.CanBreak). */
  canBreakRows?: readonly boolean[];
  /** Header rows and columns repeated on each page part (else the table's FixedRows/Columns). */
  fixed?: { rows: number; columns: number };
  /** Rows and columns that start a new page part (a matrix dimension's PageBreak). */
  pageBreaks?: { rows: ReadonlySet<number>; columns: ReadonlySet<number> };
  /** Columns kept together on one page part, in runs of this many after the fixed columns (a
   *  matrix's KeepCellsSideBySide). */
  keepColumns?: number;
  /** Built by a ManualBuild script handler: prints after its band, as a matrix does. */
  manual?: boolean;
}

export interface RtTableCell {
  /** The cell as a text object; left/top relative to the table. */
  rt: RtObject;
  column: number;
  row: number;
  colSpan: number;
  rowSpan: number;
  /** The cell's objects; left/top relative to the cell. */
  objects: RtObject[];
}

/** An object's run-time properties as its template gives them. */
export function newRtObject(o: ReportObjectModel): RtObject {
  const rt: RtObject = {
    model: o,
    left: o.left,
    top: o.top,
    width: o.width,
    height: o.height,
    visible: o.visible,
    fill: o.fill,
    border: o.border,
  };
  if (o.type === 'TextObject') {
    rt.font = o.font;
    rt.textFill = o.textFill;
  }
  return rt;
}

/**
 * A band's run-time properties while it prints, the band's counterpart of RtObject: made from its
 * model for each print (newRtBand), changed by its VisibleExpression, style and even style; the
 * layout reads them from here, and a script's handlers of the band will write here.
 */
export interface RtBand {
  /** The template band (read only). */
  readonly model: BandModel;
  visible: boolean;
  /** The design height in px, before CanGrow/CanShrink. */
  height: number;
  canGrow: boolean;
  canShrink: boolean;
  fill: FillModel;
  border: BorderModel;
}

/** A band's run-time properties as its template gives them. */
export function newRtBand(band: BandModel): RtBand {
  return {
    model: band,
    visible: band.visible,
    height: band.height,
    canGrow: band.canGrow,
    canShrink: band.canShrink,
    fill: band.fill,
    border: band.border,
  };
}

/** A band laid out: its size and its items relative to the band's top-left corner. */
export interface BandInstance {
  band: BandModel;
  /** The band's own left (Left + column offset); the page position adds margins and CurX. */
  left: number;
  width: number;
  height: number;
  items: LaidItem[];
  /** Break lines: objects that may be split (TextObject.CanBreak). */
  canBreak: boolean;
  /** Tables that print after the band, in page-sized parts (a matrix's). */
  tables?: RtObject[];
}

/** Collects bands into one output band (multi-column data bands) instead of the page. */
export interface OutputBand {
  items: LaidItem[];
  /** Offsets of the next band inside the output band. */
  x: number;
  y: number;
  bottom: number;
}

export interface LaidItem {
  item: PreparedItem;
  /** TextObject.Duplicates (post-processed per page). */
  duplicates?: Duplicates;
  /** For splitting text when a band breaks across pages. */
  measure?: TextMeasure;
  canBreak: boolean;
}

/** A bracket whose value waits for the page total: which, its Format's index, and the page
 *  number it showed when evaluated. */
export interface LatePart {
  name: 'PageNofM' | 'TotalPages';
  index: number;
  pageNo: number;
}

/** A text with late parts as it was evaluated: literal pieces and late parts in order, and the
 *  physical page it was evaluated on. */
export interface LateText {
  page: number;
  pieces: (string | LatePart)[];
}
