// The typed report model, part 2: bands, pages, the dictionary and the report itself.
// Conventions are described in model-objects.ts.

import type { FontSpec } from '../text/font-spec.js';
import type { BorderModel, FillModel } from './model-appearance.js';
import type { AppearanceModel, ComponentModel, ReportObjectModel } from './model-objects.js';

// ---------------------------------------------------------------------------------------------
// Bands

export interface BandCommon extends ComponentModel {
  canBreak: boolean;
  startNewPage: boolean;
  firstRowStartsNewPage: boolean;
  printOnBottom: boolean;
  keepChild: boolean;
  outlineExpression: string;
  repeatBandNTimes: number;
  objects: ReportObjectModel[];
  /** The ChildBand printed right after this band (nested in the .frx). */
  child: ChildBandModel | null;
}

export interface SimpleBandModel extends BandCommon {
  type:
    | 'ReportTitleBand'
    | 'PageHeaderBand'
    | 'PageFooterBand'
    | 'ColumnHeaderBand'
    | 'ColumnFooterBand'
    | 'OverlayBand';
}

export interface HeaderFooterBandModel extends BandCommon {
  type: 'DataHeaderBand' | 'DataFooterBand' | 'GroupFooterBand' | 'ReportSummaryBand';
  keepWithData: boolean;
  repeatOnEveryPage: boolean;
}

export interface ChildBandModel extends BandCommon {
  type: 'ChildBand';
  fillUnusedSpace: boolean;
  completeToNRows: number;
  printIfDatabandEmpty: boolean;
}

export interface SortModel {
  expression: string;
  descending: boolean;
}

export interface DataBandColumnsModel {
  /** 0 or 1: no columns. */
  count: number;
  /** Column width in px; 0: the page width divided by count. */
  width: number;
  layout: 'AcrossThenDown' | 'DownThenAcross';
  minRowCount: number;
}

export interface DataBandModel extends BandCommon {
  type: 'DataBand';
  /** Data source name ('' = none: RowCount virtual rows). */
  dataSource: string;
  relation: string;
  filter: string;
  sort: SortModel[];
  rowCount: number;
  maxRows: number;
  columns: DataBandColumnsModel;
  printIfDetailEmpty: boolean;
  printIfDatasourceEmpty: boolean;
  keepTogether: boolean;
  keepDetail: boolean;
  idColumn: string;
  parentIdColumn: string;
  indent: number;
  collectChildRows: boolean;
  resetPageNumber: boolean;
  header: HeaderFooterBandModel | null;
  footer: HeaderFooterBandModel | null;
  /** Detail bands (DataBand or GroupHeaderBand), in template order. */
  bands: (DataBandModel | GroupHeaderBandModel)[];
}

export type SortOrder = 'None' | 'Ascending' | 'Descending';

export interface GroupHeaderBandModel extends BandCommon {
  type: 'GroupHeaderBand';
  keepWithData: boolean;
  repeatOnEveryPage: boolean;
  condition: string;
  sortOrder: SortOrder;
  keepTogether: boolean;
  resetPageNumber: boolean;
  nestedGroup: GroupHeaderBandModel | null;
  data: DataBandModel | null;
  groupFooter: HeaderFooterBandModel | null;
  header: HeaderFooterBandModel | null;
  footer: HeaderFooterBandModel | null;
}

export type BandModel = SimpleBandModel | HeaderFooterBandModel | ChildBandModel | DataBandModel | GroupHeaderBandModel;
export type BandType = BandModel['type'];

// ---------------------------------------------------------------------------------------------
// Page

export interface PageColumnsModel {
  count: number;
  /** Millimetres. */
  width: number;
  /** Column start positions, millimetres. */
  positions: number[];
}

export interface ReportPageModel {
  type: 'ReportPage';
  name: string;
  line: number;
  /** Millimetres (Landscape files already hold the swapped sizes). */
  paperWidth: number;
  paperHeight: number;
  leftMargin: number;
  topMargin: number;
  rightMargin: number;
  bottomMargin: number;
  landscape: boolean;
  mirrorMargins: boolean;
  rawPaperSize: number;
  columns: PageColumnsModel;
  border: BorderModel;
  fill: FillModel;
  titleBeforeHeader: boolean;
  outlineExpression: string;
  printOnPreviousPage: boolean;
  resetPageNumber: boolean;
  startOnOddPage: boolean;
  backPage: boolean;
  unlimitedHeight: boolean;
  unlimitedWidth: boolean;
  visible: boolean;
  /** The page's watermark, when enabled. */
  watermark: WatermarkModel | null;
  /** Name of the SubreportObject that owns this page ('' for a normal page). */
  subreportOf: string;
  reportTitle: SimpleBandModel | null;
  pageHeader: SimpleBandModel | null;
  columnHeader: SimpleBandModel | null;
  /** DataBand / GroupHeaderBand, in template order. */
  bands: (DataBandModel | GroupHeaderBandModel)[];
  reportSummary: HeaderFooterBandModel | null;
  columnFooter: SimpleBandModel | null;
  pageFooter: SimpleBandModel | null;
  overlay: SimpleBandModel | null;
  events: Record<string, string>;
  raw: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------
// Dictionary

export interface ColumnModel {
  name: string;
  alias: string;
  /** .NET type name, e.g. System.Int32 ('' when not given). */
  dataType: string;
  bindableControl: string;
  enabled: boolean;
  calculated: boolean;
  expression: string;
  line: number;
  columns: ColumnModel[];
  /** Nested data sources found under this column (JSON connections). */
  dataSources: DataSourceModel[];
  raw: Record<string, string>;
}

export interface DataSourceModel {
  /** Class name: TableDataSource, JsonTableDataSource, … */
  type: string;
  name: string;
  alias: string;
  referenceName: string;
  dataType: string;
  enabled: boolean;
  tableName: string;
  selectCommand: string;
  line: number;
  columns: ColumnModel[];
  /** Nested data sources (JSON: nested arrays). */
  dataSources: DataSourceModel[];
  raw: Record<string, string>;
}

export interface ConnectionModel {
  /** Class name: JsonDataSourceConnection, MsSqlDataConnection, … */
  type: string;
  name: string;
  /** As written: may be encrypted (prefix "rij"); decrypting is the data layer's job. */
  connectionString: string;
  connectionStringExpression: string;
  line: number;
  dataSources: DataSourceModel[];
  /** CsvDataConnection: the bytes of its CsvFile, read when the template loaded (through the
   *  caller's resource reader); undefined when not read. */
  fileData?: Uint8Array;
  raw: Record<string, string>;
}

export interface RelationModel {
  name: string;
  alias: string;
  referenceName: string;
  parentDataSource: string;
  childDataSource: string;
  parentColumns: string[];
  childColumns: string[];
  enabled: boolean;
  line: number;
  raw: Record<string, string>;
}

export interface ParameterModel {
  name: string;
  dataType: string;
  expression: string;
  /** As written (a string); convert with dataType. */
  value: string;
  description: string;
  line: number;
  parameters: ParameterModel[];
  raw: Record<string, string>;
}

export type TotalType = 'Sum' | 'Min' | 'Max' | 'Avg' | 'Count' | 'CountDistinct';

export interface TotalModel {
  name: string;
  totalType: TotalType;
  expression: string;
  /** Name of the DataBand whose rows are accumulated. */
  evaluator: string;
  /** Name of the band after which the total resets ('' = never). */
  printOn: string;
  resetAfterPrint: boolean;
  resetOnReprint: boolean;
  evaluateCondition: string;
  includeInvisibleRows: boolean;
  line: number;
  raw: Record<string, string>;
}

export interface DictionaryModel {
  connections: ConnectionModel[];
  /** Data sources declared directly in the dictionary (not under a connection). */
  dataSources: DataSourceModel[];
  relations: RelationModel[];
  parameters: ParameterModel[];
  totals: TotalModel[];
  raw: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------
// Report

export interface StyleModel extends AppearanceModel {
  name: string;
  line: number;
  raw: Record<string, string>;
}

export interface ReportInfoModel {
  name: string;
  author: string;
  description: string;
  version: string;
  /** As written (invariant "MM/dd/yyyy HH:mm:ss"). */
  created: string;
  modified: string;
  /** `created`/`modified` read as local wall-clock times; null when absent or unreadable. */
  createdDate: Date | null;
  modifiedDate: Date | null;
  creatorVersion: string;
}

/** A control of a dialog form, with the values it was designed with (the report never shows the
 *  form: it runs as if the user pressed OK without changing anything). */
export interface DialogControlModel {
  name: string;
  line: number;
  /** The element name: TextBoxControl, CheckBoxControl, DateTimePickerControl, … */
  className: string;
  text: string;
  checked: boolean;
  enabled: boolean;
  visible: boolean;
  /** DateTimePicker/MonthCalendar: the designed date (null: the time of the render). */
  date: Date | null;
  /** NumericUpDown: its Value. */
  number: number | null;
  /** List controls: their items and the selected one (-1: none). */
  items: string[];
  selectedIndex: number;
  /** CheckedListBox: the checked items (none when designed). */
  checkedIndices: number[];
  /** Button: the DialogResult it closes its form with (OK, Cancel …; '' for none). */
  dialogResult: string;
  events: Record<string, string>;
}

/** A dialog form (DialogPage): its controls, nested ones included. */
export interface DialogPageModel {
  name: string;
  line: number;
  /** The form's caption, and whether it is shown (a script may hide it). */
  text: string;
  visible: boolean;
  controls: DialogControlModel[];
  events: Record<string, string>;
}

export interface ReportModel {
  reportInfo: ReportInfoModel;
  scriptLanguage: string;
  /** The C# script, interpreted by src/report/script (null when the template has none). */
  scriptText: string | null;
  convertNulls: boolean;
  doublePass: boolean;
  compressed: boolean;
  textQuality: string;
  smoothGraphics: boolean;
  initialPageNumber: number;
  maxPages: number;
  /** PrintSettings: the copies a printer makes, and their names ([CopyName#]; the first name is
   *  the one the preview and the exports show). */
  printSettings: { copies: number; copyNames: string[] };
  events: Record<string, string>;
  styles: StyleModel[];
  dictionary: DictionaryModel;
  pages: ReportPageModel[];
  dialogs: DialogPageModel[];
  raw: Record<string, string>;
}

/** A page's watermark: a text (rotated, centred on the paper) and an image, each behind the
 *  page's objects or over them. */
export interface WatermarkModel {
  text: string;
  font: FontSpec;
  textFill: FillModel;
  textRotation: 'Horizontal' | 'Vertical' | 'ForwardDiagonal' | 'BackwardDiagonal';
  showTextOnTop: boolean;
  /** The image, base64 ('' for none). */
  image: string;
  imageSize: 'Normal' | 'Center' | 'Stretch' | 'Zoom' | 'Tile';
  imageTransparency: number;
  showImageOnTop: boolean;
}
