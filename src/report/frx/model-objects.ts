// The typed report model, part 1: components and report objects (model.ts gathers both parts).
// What a .frx template says, with FastReport's constructor defaults
// applied (a .frx only holds the values that differ from them).
//
// Conventions:
// - Left/Top/Width/Height and all other object/band geometry: FastReport pixels (96 dpi).
//   Page paper sizes and margins: millimetres (1 mm = MM_TO_PX px).
// - `type` is the FastReport class name (the element name in the .frx).
// - `raw` keeps, verbatim, every attribute the model does not interpret (including dotted
//   sub-properties such as `Hyperlink.DetailReportName`), so nothing is lost for later stages
//   and for writing a template back. `events` keeps script event-handler names (engine/script.ts runs them).
// - `line` is the template line of the element, for messages.

import type { Color } from './colors.js';
import type { FontSpec } from '../text/font-spec.js';
import type { XmlElement } from './xml.js';
import type { MapColorScaleModel, MapLayerModel } from './model-map.js';
import type {
  GaugeKind,
  GaugeLabelModel,
  GaugePointerModel,
  GaugeScaleModel,
  RadialGaugeType,
  RadialPositionModel,
} from './model-gauge.js';
import type { BorderModel, FillModel, FormatModel, PaddingModel } from './model-appearance.js';

export type { Color } from './colors.js';
export type { FontSpec } from '../text/font-spec.js';

/** FastReport's millimetre → pixel factor (96 dpi, rounded as FastReport does). */
export const MM_TO_PX = 3.78;

// ---------------------------------------------------------------------------------------------
// Components

export type PrintOnFlag = 'FirstPage' | 'LastPage' | 'OddPages' | 'EvenPages' | 'RepeatedBand' | 'SinglePage';
export const PRINT_ON_FLAGS: readonly PrintOnFlag[] = [
  'FirstPage',
  'LastPage',
  'OddPages',
  'EvenPages',
  'RepeatedBand',
  'SinglePage',
];
export type AnchorSide = 'Top' | 'Bottom' | 'Left' | 'Right';
export type DockStyle = 'None' | 'Top' | 'Bottom' | 'Left' | 'Right' | 'Fill';
export type ShiftMode = 'Never' | 'Always' | 'WhenOverlapped';
export type HyperlinkKind = 'URL' | 'PageNumber' | 'Bookmark' | 'DetailReport' | 'DetailPage' | 'Custom';

export interface HyperlinkModel {
  kind: HyperlinkKind;
  /** Fixed target. */
  value: string;
  /** Expression computing the target (wins over value when set). */
  expression: string;
  openLinkInNewTab: boolean;
  /** DetailPage: the (hidden) page of this report that shows the clicked value's details. */
  detailPageName: string;
  /** DetailReport: the file of another report that shows them (relative to this one's). */
  detailReportName: string;
  /** DetailPage/DetailReport: the report parameter the link's value is given to. */
  reportParameter: string;
  /** Splits a value into the parameter's nested parameters, in order (default ";"). */
  valuesSeparator: string;
}

/** Properties shared by every report object and band (FastReport's ReportComponentBase). */
export interface ComponentModel {
  name: string;
  line: number;
  left: number;
  top: number;
  width: number;
  height: number;
  visible: boolean;
  visibleExpression: string;
  printable: boolean;
  printableExpression: string;
  exportable: boolean;
  exportableExpression: string;
  anchor: AnchorSide[];
  dock: DockStyle;
  border: BorderModel;
  fill: FillModel;
  canGrow: boolean;
  canShrink: boolean;
  growToBottom: boolean;
  shiftMode: ShiftMode;
  style: string;
  evenStyle: string;
  evenStylePriority: 'UseFill' | 'UseAll';
  hoverStyle: string;
  /** Where the object prints (a flag set; default all flags). */
  printOn: PrintOnFlag[];
  bookmark: string;
  hyperlink: HyperlinkModel;
  cursor: string;
  tag: string;
  /** Script event handlers by attribute name (e.g. BeforePrintEvent → method). */
  events: Record<string, string>;
  raw: Record<string, string>;
}

export type HorzAlign = 'Left' | 'Center' | 'Right' | 'Justify';
export type VertAlign = 'Top' | 'Center' | 'Bottom';
export type Duplicates = 'Show' | 'Hide' | 'Clear' | 'Merge';
export type TextRenderType = 'Default' | 'HtmlTags' | 'HtmlParagraph' | 'Inline';
export type Trimming = 'None' | 'Character' | 'Word' | 'EllipsisCharacter' | 'EllipsisWord' | 'EllipsisPath';
export type ProcessAt =
  | 'Default'
  | 'ReportFinished'
  | 'ReportPageFinished'
  | 'PageFinished'
  | 'ColumnFinished'
  | 'DataFinished'
  | 'GroupFinished'
  | 'Custom';

/** The appearance a style or a highlight condition carries, each part applied only if flagged. */
export interface AppearanceModel {
  border: BorderModel;
  fill: FillModel;
  textFill: FillModel;
  font: FontSpec;
  applyBorder: boolean;
  applyFill: boolean;
  applyTextFill: boolean;
  applyFont: boolean;
}

export interface HighlightConditionModel extends AppearanceModel {
  line: number;
  expression: string;
  /** false: the object is hidden when the condition holds. */
  visible: boolean;
  raw: Record<string, string>;
}

export interface TextObjectModel extends ComponentModel {
  type: 'TextObject';
  /** A CellularTextObject (a TextObject in FastReport too): one character per bordered cell. */
  cellular?: CellularModel;
  canBreak: boolean;
  breakTo: string;
  text: string;
  allowExpressions: boolean;
  /** Open and close symbols separated by a comma, default "[,]". */
  brackets: string;
  padding: PaddingModel;
  hideZeros: boolean;
  hideValue: string;
  nullValue: string;
  processAt: ProcessAt;
  duplicates: Duplicates;
  editable: boolean;
  /** = formats[0]. */
  format: FormatModel;
  /** One format per expression in the text (at least one; General by default). */
  formats: FormatModel[];
  autoWidth: boolean;
  autoShrink: 'None' | 'FontSize' | 'FontWidth';
  autoShrinkMinSize: number;
  horzAlign: HorzAlign;
  vertAlign: VertAlign;
  /** Degrees. */
  angle: number;
  rightToLeft: boolean;
  wordWrap: boolean;
  underlines: boolean;
  font: FontSpec;
  textFill: FillModel;
  trimming: Trimming;
  fontWidthRatio: number;
  firstTabOffset: number;
  tabWidth: number;
  tabPositions: number[];
  clip: boolean;
  wysiwyg: boolean;
  lineHeight: number;
  forceJustify: boolean;
  textRenderType: TextRenderType;
  paragraphOffset: number;
  mergeMode: ('Horizontal' | 'Vertical')[];
  /** Conditions in order; the first true one applies. */
  highlight: HighlightConditionModel[];
}

export type CapStyle = 'None' | 'Circle' | 'Square' | 'Diamond' | 'Arrow';
export interface CapModel {
  width: number;
  height: number;
  style: CapStyle;
}

export interface LineObjectModel extends ComponentModel {
  type: 'LineObject';
  diagonal: boolean;
  startCap: CapModel;
  endCap: CapModel;
  dashPattern: number[];
}

export type ShapeKind = 'Rectangle' | 'RoundRectangle' | 'Ellipse' | 'Triangle' | 'Diamond';
export interface ShapeObjectModel extends ComponentModel {
  type: 'ShapeObject';
  shape: ShapeKind;
  /** Corner radius of RoundRectangle (0: FastReport's automatic radius). */
  curve: number;
  dashPattern: number[];
}

export type SizeMode = 'Normal' | 'StretchImage' | 'AutoSize' | 'CenterImage' | 'Zoom';
export interface PictureObjectModel extends ComponentModel {
  type: 'PictureObject';
  /** Base64 image data ('' when none). */
  image: string;
  imageLocation: string;
  imageSourceExpression: string;
  dataColumn: string;
  sizeMode: SizeMode;
  angle: number;
  /** 0 (opaque) … 1. */
  transparency: number;
  transparentColor: Color;
  tile: boolean;
  grayscale: boolean;
  showErrorImage: boolean;
  padding: PaddingModel;
  imageAlign: string;
}

export type CheckedSymbol = 'Check' | 'Cross' | 'Plus' | 'Fill';
export type UncheckedSymbol = 'None' | 'Cross' | 'Minus';
export interface CheckBoxObjectModel extends ComponentModel {
  type: 'CheckBoxObject';
  checked: boolean;
  checkedSymbol: CheckedSymbol;
  uncheckedSymbol: UncheckedSymbol;
  checkColor: Color;
  dataColumn: string;
  expression: string;
  checkWidthRatio: number;
  hideIfUnchecked: boolean;
  editable: boolean;
}

export interface TableColumnModel {
  name: string;
  line: number;
  /** Pixels (TableColumn's default is 66.15: 64 px rounded to a quarter centimetre). */
  width: number;
  minWidth: number;
  maxWidth: number;
  /** The width follows the widest text of its cells (spanned cells widen the last column). */
  autoSize: boolean;
}

export interface TableRowModel {
  name: string;
  line: number;
  /** Pixels (TableRow's default is 18.9). */
  height: number;
  minHeight: number;
  maxHeight: number;
  autoSize: boolean;
  canBreak: boolean;
}

/**
 * A table cell: a TextObject (padding 2, 1, 2, 1 by default) whose box is its column and row,
 * widened by ColSpan/RowSpan, holding objects placed relative to the cell. Left/Top/Width/Height
 * are the design layout's; the engine lays the cells out again for each print.
 */
export interface TableCellModel extends TextObjectModel {
  colSpan: number;
  rowSpan: number;
  objects: ReportObjectModel[];
}

export type TableLayout = 'AcrossThenDown' | 'DownThenAcross' | 'Wrapped';

export interface TableObjectModel extends ComponentModel {
  type: 'TableObject';
  columns: TableColumnModel[];
  rows: TableRowModel[];
  /** rows × columns; every row has one cell per column (cells covered by a span included). */
  cells: TableCellModel[][];
  fixedRows: number;
  fixedColumns: number;
  /** Fixed rows and columns repeat on every part of a table broken across pages (RepeatHeaders:
   *  both; RepeatRowHeaders: the fixed columns only; RepeatColumnHeaders: the fixed rows only). */
  repeatHeaders: boolean;
  repeatRowHeaders: boolean;
  repeatColumnHeaders: boolean;
  /** The order of the parts of a table larger than the page; Wrapped stacks the column parts
   *  WrappedGap px apart. */
  layout: TableLayout;
  wrappedGap: number;
  printOnParent: boolean;
  /** The script handler that builds the printed table (ManualBuild); '' for a table that prints
   *  as designed. */
  manualBuildEvent: string;
}

/** How a matrix dimension orders its values: ascending (the default), descending, or in the order
 *  of their first row. */
export type MatrixSort = 'Ascending' | 'Descending' | 'None';

/** One row or column dimension of a matrix (MatrixHeaderDescriptor); the first is the outermost. */
export interface MatrixHeaderModel {
  expression: string;
  sort: MatrixSort;
  /** A total after (or, TotalsFirst, before) each parent's values. */
  totals: boolean;
  totalsFirst: boolean;
  /** Each new value of this dimension starts a new page (rows) or page part (columns). */
  pageBreak: boolean;
  /** No total for a parent with a single value. */
  suppressTotals: boolean;
}

export type MatrixFunction = 'None' | 'Sum' | 'Min' | 'Max' | 'Avg' | 'Count' | 'CountDistinct' | 'Custom';
export type MatrixPercent = 'None' | 'ColumnTotal' | 'RowTotal' | 'GrandTotal';

/** One data cell of a matrix (MatrixCellDescriptor): an expression aggregated per row × column. */
export interface MatrixCellModel {
  expression: string;
  function: MatrixFunction;
  /** Shown as a fraction of the row's, the column's or the grand total. */
  percent: MatrixPercent;
}

/**
 * A cross-tab (MatrixObject): its cells are a template (one cell per role: corner, each
 * dimension's header and total, each data cell at each total level); at print time the rows of
 * its data source build a new table from them (engine/matrix).
 */
export interface MatrixObjectModel extends Omit<TableObjectModel, 'type'> {
  type: 'MatrixObject';
  dataSource: string;
  filter: string;
  columnHeaders: MatrixHeaderModel[];
  rowHeaders: MatrixHeaderModel[];
  dataCells: MatrixCellModel[];
  /** Several data cells side by side (else stacked). */
  cellsSideBySide: boolean;
  /** Side-by-side data cells of one column value stay on one page part. */
  keepCellsSideBySide: boolean;
  /** A title row above the column headers. */
  showTitle: boolean;
  /** The built-in colour scheme (Orange, Gray, …): the designer's; the template cells carry it. */
  matrixStyle: string;
  /** Whether the data cells' even style alternates by row or by column. */
  matrixEvenStylePriority: 'Rows' | 'Columns';
  /** Row header values repeated on every row instead of one spanning cell. */
  splitRows: boolean;
  /** Headers print when there is no data. */
  printIfEmpty: boolean;
}

/** One item of an AdvMatrix header (FastReport.AdvMatrix.HeaderDescriptor): a group (its
 *  Expression set: one item per value) or a static item (a Total, a caption); nesting gives
 *  sub-levels, siblings sit side by side. */
export interface AdvDescriptorModel {
  name: string;
  line: number;
  expression: string;
  /** A text with [expressions] shown instead of the value ('' = the value, or nothing). */
  displayText: string;
  sort: MatrixSort;
  /** An aggregate (`Sum([T.Revenue])`): the group's values are ordered by it, in `sort` order. */
  sortByTotal: string;
  filter: string;
  /** Collapsed in the designer's first view (the engine prints every level expanded). */
  visible: boolean;
  /** The children print in this item's header column, below it (rows). */
  stepped: boolean;
  /** TopN: the group keeps its first `count` values; the named siblings show their total, the
   *  other values and their total. */
  topN: { count: number; total: string; others: string; othersTotal: string } | null;
  children: AdvDescriptorModel[];
}

/** The advanced matrix (AdvMatrixObject): a table whose template cells are laid out by two
 *  descriptor trees; each print builds a new table from the rows of its data source
 *  (engine/adv-matrix). */
export interface AdvMatrixObjectModel extends Omit<TableObjectModel, 'type'> {
  type: 'AdvMatrixObject';
  dataSource: string;
  filter: string;
  columnDescriptors: AdvDescriptorModel[];
  rowDescriptors: AdvDescriptorModel[];
  /** The built-in colour scheme's name (Blue, Gray…): the template cells already carry it. */
  matrixStyle: string;
  printIfEmpty: boolean;
}

/** The collapse (+/−) and sort buttons of an AdvMatrix (MatrixCollapseButton,
 *  MatrixSortButton): interactive in FastReport's preview, printed as a static glyph. */
export interface MatrixButtonModel extends ComponentModel {
  type: 'MatrixButton';
  button: 'Collapse' | 'Sort';
  symbol: 'PlusMinus' | 'Arrow';
  symbolSize: number;
  sort: MatrixSort;
}

/** A placeholder for the bands of another report page (SubreportObject): printed inside its
 *  band (PrintOnParent) or after it, at its Left, side by side with the band's other subreports. */
export interface SubreportObjectModel extends ComponentModel {
  type: 'SubreportObject';
  /** The name of the report page whose bands it prints. */
  reportPageName: string;
  printOnParent: boolean;
}

/** A signature field (DigitalSignatureObject): FastReport prints only its fill and border (the
 *  line to sign on); a PDF exporter configured to sign puts the signature there. */
export interface DigitalSignatureObjectModel extends ComponentModel {
  type: 'DigitalSignatureObject';
}

/** A barcode (BarcodeObject): its text from a data column, an expression or the template, encoded
 *  in one of FastReport's symbologies (src/report/barcode) and stretched to the box. */
export interface BarcodeObjectModel extends ComponentModel {
  type: 'BarcodeObject';
  /** FastReport's name of the symbology ("Code128", "QR Code", …). */
  symbology: string;
  text: string;
  dataColumn: string;
  expression: string;
  allowExpressions: boolean;
  brackets: string;
  showText: boolean;
  /** Size the box to the symbol's natural size × zoom (the width; both sides for 2-D codes). */
  autoSize: boolean;
  zoom: number;
  /** 0, 90, 180 or 270 (FastReport snaps other angles down to these). */
  angle: 0 | 90 | 180 | 270;
  padding: PaddingModel;
  hideIfNoData: boolean;
  noDataText: string;
  /** Where an AutoSize box keeps its place: its left edge, centre or right edge. */
  horzAlign: 'Left' | 'Center' | 'Right';
  /** Bars and text (Barcode.Color, Barcode.Font). */
  color: Color;
  font: FontSpec;
  calcCheckSum: boolean;
  /** Barcode.WideBarRatio when written (else the symbology's default). */
  wideBarRatio?: number;
  /** The symbology's other properties (Barcode.ErrorCorrection, …), by name without "Barcode.". */
  options: Record<string, string>;
}

/** CellularTextObject's grid: cell size (0: from the font) and the spacing between cells, px. */
export interface CellularModel {
  cellWidth: number;
  cellHeight: number;
  horzSpacing: number;
  vertSpacing: number;
}

/** ZipCodeObject: a postal code written as FastReport's segment digits, each over a grid of dots,
 *  after an optional start marker; sizes in px, the border's colour and width draw it. */
export interface ZipCodeObjectModel extends ComponentModel {
  type: 'ZipCodeObject';
  segmentWidth: number;
  segmentHeight: number;
  spacing: number;
  segmentCount: number;
  showMarkers: boolean;
  showGrid: boolean;
  dataColumn: string;
  expression: string;
  text: string;
}

/** A point of a polygon or polyline, relative to its centre; a curve's control points relative
 *  to the point. */
export interface PolyPointModel {
  x: number;
  y: number;
  left?: { x: number; y: number };
  right?: { x: number; y: number };
}

/** PolyLineObject (an open line through its points) and PolygonObject (closed and filled); the
 *  points are relative to (CenterX, CenterY) inside the box, drawn with the border's line. */
export interface PolyObjectModel extends ComponentModel {
  type: 'PolyLineObject' | 'PolygonObject';
  points: PolyPointModel[];
  centerX: number;
  centerY: number;
  dashPattern: number[];
}

/** MapObject: layers of shapes (model-map.ts) over the first layer's longitude/latitude box. */
export interface MapObjectModel extends ComponentModel {
  type: 'MapObject';
  zoom: number;
  offsetX: number;
  offsetY: number;
  padding: PaddingModel;
  mercatorProjection: boolean;
  colorScale: MapColorScaleModel;
  layers: MapLayerModel[];
}

/** A gauge (FastReport.Gauge; the parts' models are in model-gauge.ts). */
export interface GaugeObjectModel extends ComponentModel {
  type: 'GaugeObject';
  kind: GaugeKind;
  /** Minimum < Maximum always holds (FastReport's setters refuse anything else). */
  minimum: number;
  maximum: number;
  /** The design value, clamped to [minimum, maximum]. */
  value: number;
  expression: string;
  scale: GaugeScaleModel;
  pointer: GaugePointerModel;
  label: GaugeLabelModel;
  /** LinearGauge: the pointer and labels on the other side. */
  inverted: boolean;
  radialType: RadialGaugeType;
  position: RadialPositionModel;
  semicircleOffsetRatio: number;
}

/** RichObject: an RTF document (its Text, or a DataColumn's value) whose plain text may hold
 *  expressions between Brackets, each shown with the Formats entry of its index. */
export interface RichObjectModel extends ComponentModel {
  type: 'RichObject';
  text: string;
  dataColumn: string;
  allowExpressions: boolean;
  brackets: string;
  padding: PaddingModel;
  canBreak: boolean;
  hideZeros: boolean;
  hideValue: string;
  nullValue: string;
  /** = formats[0]. */
  format: FormatModel;
  formats: FormatModel[];
}

/** One `<MSChartSeries>` of a chart: how its chart series (matched by index) is bound to data and
 *  finished (FastReport's MSChartSeries); expressions as written, enums as FastReport names them. */
export interface ChartSeriesBindingModel {
  name: string;
  filter: string;
  sortBy: 'None' | 'XValue' | 'YValue';
  sortOrder: 'Ascending' | 'Descending';
  groupBy: ChartGroupBy;
  groupInterval: number;
  groupFunction: 'Sum' | 'Min' | 'Max' | 'Avg' | 'Count';
  collect: 'None' | 'TopN' | 'BottomN' | 'LessThan' | 'LessThanPercent' | 'GreaterThan' | 'GreaterThanPercent';
  collectValue: number;
  collectedItemText: string;
  collectedItemColor: Color;
  pieExplode: 'None' | 'BiggestValue' | 'LowestValue' | 'SpecificValue';
  pieExplodeValue: string;
  xValue: string;
  /** YValue1…YValue4. */
  yValues: string[];
  color: string;
  label: string;
}

export type ChartGroupBy =
  | 'None'
  | 'XValue'
  | 'Number'
  | 'Years'
  | 'Months'
  | 'Weeks'
  | 'Days'
  | 'Hours'
  | 'Minutes'
  | 'Seconds'
  | 'Milliseconds';

/** MSChartObject and SparklineObject (one format): the MS Chart definition (`ChartData`, base64 of
 *  its XML, decoded when the chart prints) and how it is bound to a data source. */
export interface ChartObjectModel extends ComponentModel {
  type: 'MSChartObject' | 'SparklineObject';
  dataSource: string;
  filter: string;
  alignXValues: boolean;
  autoSeriesColumn: string;
  autoSeriesColor: string;
  autoSeriesSortOrder: 'None' | 'Ascending' | 'Descending';
  autoSeriesForce: boolean;
  chartData: string;
  series: ChartSeriesBindingModel[];
}

/** A FastReport object this engine does not render (Barcode, Matrix, …). */
export interface UnsupportedObjectModel extends ComponentModel {
  type: 'Unsupported';
  className: string;
  /** The original element (with its children), for writing the template back. */
  element: XmlElement;
}

export type ReportObjectModel =
  | TextObjectModel
  | LineObjectModel
  | ShapeObjectModel
  | PictureObjectModel
  | CheckBoxObjectModel
  | TableObjectModel
  | MatrixObjectModel
  | AdvMatrixObjectModel
  | MatrixButtonModel
  | SubreportObjectModel
  | DigitalSignatureObjectModel
  | BarcodeObjectModel
  | PolyObjectModel
  | ZipCodeObjectModel
  | MapObjectModel
  | GaugeObjectModel
  | RichObjectModel
  | ChartObjectModel
  | UnsupportedObjectModel;

/** The objects an object holds (a table's cells and the objects inside them), in print order. */
export function nestedObjects(o: ReportObjectModel): ReportObjectModel[] {
  if (o.type !== 'TableObject') return [];
  const out: ReportObjectModel[] = [];
  for (const row of o.cells) {
    for (const cell of row) {
      out.push(cell);
      for (const inner of cell.objects) out.push(inner, ...nestedObjects(inner));
    }
  }
  return out;
}
