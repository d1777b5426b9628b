// The prepared report: what the engine produces and every exporter reads. Plain data only
// (numbers, strings, booleans, arrays, plain objects and Uint8Array picture bytes), so it can be
// posted between worker threads (structured clone) and written as JSON (pictures as base64).
//
// Geometry: FastReport pixels (96 dpi). Every item's x/y are measured from the top-left corner of
// the paper (margins included); the page lists its items in z-order (first = bottom-most).
//
// Shared objects: items share what does not change between them instead of carrying copies, which
// is most of a large report's memory: the font, fill, border, padding, colour and dash objects of
// the template (and its styles), and a text's `frame` with every other item of the same box
// (frames are frozen). Read them freely; to change one for one item, give the item a new object.

import type {
  BorderModel,
  CapModel,
  Color,
  FillModel,
  HorzAlign,
  LineStyle,
  PaddingModel,
  ShapeKind,
  SizeMode,
  VertAlign,
} from '../frx/model.js';
import type { FontSpec } from '../text/index.js';

export type { BorderModel, Color, FillModel } from '../frx/model.js';
export type { FontSpec } from '../text/index.js';

export interface PreparedReport {
  pages: PreparedPage[];
  /** Set when the run stopped at its page limit because truncation was asked for
   *  (EngineOptions.truncatePages): the pages are the first of a longer report. */
  truncated?: true;
  /** The document outline (bands' OutlineExpression), when the report has one. */
  outline?: PreparedOutlineEntry[];
}

/** One entry of the document outline: its text, where it points (1-based page, top in px) and
 *  the entries under it. */
export interface PreparedOutlineEntry {
  title: string;
  page: number;
  y: number;
  children: PreparedOutlineEntry[];
}

export interface PreparedPage {
  /** 1-based position in the document. */
  index: number;
  /** The ReportPage this page comes from. */
  name: string;
  widthPx: number;
  heightPx: number;
  margins: { left: number; top: number; right: number; bottom: number };
  /** Page background (white unless the template says otherwise). */
  fill: FillModel;
  /** Drawn around the printable area (inside the margins). */
  border: BorderModel;
  items: PreparedItem[];
}

/** A link target: `url` targets are exported as links (only http/https/mailto), `page` and
 *  `bookmark` ones as links inside the document. A `detail` link (FastReport's DetailPage and
 *  DetailReport: the clicked value's details) is turned into a `page` link to the detail pages
 *  appended to the document (detail-pages.ts), or dropped. */
export interface PreparedHyperlink {
  kind: 'url' | 'page' | 'bookmark' | 'detail';
  target: string;
  newTab: boolean;
  /** A detail link: the page of this report, or the file of another report, that shows the
   *  details, and the report parameter that gets `target`. */
  detail?: PreparedDetailTarget;
}

export interface PreparedDetailTarget {
  page?: string;
  report?: string;
  parameter: string;
  /** A value holding it is split over the parameter's nested parameters, in order. */
  separator: string;
}

interface ItemBase {
  /** The template object (or band) it comes from. */
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  hyperlink?: PreparedHyperlink;
  /** Bookmark name (an anchor other items may link to). */
  bookmark?: string;
}

/** A filled and/or bordered rectangle: band backgrounds, unsupported objects. */
export interface PreparedBox extends ItemBase {
  kind: 'box';
  fill: FillModel;
  border: BorderModel;
  /** For an object this engine does not render: its FastReport class. */
  unsupported?: string;
  /** A DigitalSignatureObject: the PDF puts an empty signature field here. */
  signature?: true;
}

/** One line of plain text, positioned in the text frame (see PreparedText.frame). */
export interface PreparedTextLine {
  text: string;
  /** Advance width of `text` (trailing spaces excluded). */
  width: number;
  /** Left edge and top of the line in the frame. */
  x: number;
  y: number;
  /** True when the line ends a paragraph (justified text does not stretch it). */
  hardBreak: boolean;
  /** Justify: extra space added to each space character of the line (px). */
  wordSpacing?: number;
  /** Tabs: pieces between tab stops, positioned from the line's x. */
  segments?: { text: string; x: number; width: number }[];
}

/** A styled piece of an HtmlTags line. */
export interface PreparedRun {
  text: string;
  /** Left edge from the line's x, before justification (a justified line adds its wordSpacing
   *  for every space before the run). */
  x: number;
  width: number;
  /** Baseline from the line's y. */
  baseline: number;
  font: FontSpec;
  /** CSS colour ("#rrggbb" or a name) set by a <font color>; absent = the object's text colour. */
  color?: string;
  sub: boolean;
  sup: boolean;
}

export interface PreparedHtmlLine {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Common baseline from the line's top. */
  baseline: number;
  hardBreak: boolean;
  wordSpacing?: number;
  runs: PreparedRun[];
}

export interface PreparedText extends ItemBase {
  kind: 'text';
  fill: FillModel;
  border: BorderModel;
  /** The text after expressions and formats (HtmlTags text keeps its tags). */
  text: string;
  font: FontSpec;
  /** Text colour/brush; `color` is its solid colour (the start colour of a gradient). */
  textFill: FillModel;
  color: Color;
  horzAlign: HorzAlign;
  vertAlign: VertAlign;
  padding: PaddingModel;
  /** Degrees, clockwise, 0…359; the frame is rotated about the box centre. */
  angle: number;
  /** The area lines are laid out in: the box minus padding, with width/height swapped for
   *  angles 90…179 and 270…359; `x`, `y` of the frame's top-left relative to the box's centre. */
  frame: { x: number; y: number; width: number; height: number };
  lineHeight: number;
  /** Baseline distance from a line's top. */
  ascent: number;
  wordWrap: boolean;
  /** Clip the text to the box. */
  clip: boolean;
  underlines: boolean;
  rightToLeft: boolean;
  /** Justify the last line of paragraphs too. */
  forceJustify: boolean;
  lines: PreparedTextLine[];
  /** Present for TextRenderType HtmlTags: lines of styled runs (and `lines` is empty). */
  html?: PreparedHtmlLine[];
}

export interface PreparedLine extends ItemBase {
  kind: 'line';
  /** Absolute end points. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  color: Color;
  lineWidth: number;
  style: LineStyle;
  dashPattern: number[];
  startCap: CapModel;
  endCap: CapModel;
}

export interface PreparedShape extends ItemBase {
  kind: 'shape';
  shape: ShapeKind;
  fill: FillModel;
  color: Color;
  lineWidth: number;
  style: LineStyle;
  dashPattern: number[];
  /** RoundRectangle corner radius in px (0: automatic). */
  curve: number;
}

export interface PreparedPicture extends ItemBase {
  kind: 'picture';
  fill: FillModel;
  border: BorderModel;
  /** Image bytes (null: no image). */
  bytes: Uint8Array | null;
  /** image/png, image/jpeg, image/gif, image/bmp, image/svg+xml, … ('' when unknown). */
  mime: string;
  /** Intrinsic size in px when the header could be read. */
  imageWidth?: number;
  imageHeight?: number;
  sizeMode: SizeMode;
  padding: PaddingModel;
  angle: number;
  /** 0 (opaque) … 1. */
  transparency: number;
  grayscale: boolean;
}

export interface PreparedCheckBox extends ItemBase {
  kind: 'checkbox';
  fill: FillModel;
  border: BorderModel;
  checked: boolean;
  checkedSymbol: 'Check' | 'Cross' | 'Plus' | 'Fill';
  uncheckedSymbol: 'None' | 'Cross' | 'Minus';
  checkColor: Color;
  checkWidthRatio: number;
}

/** A polygon (closed, filled) or a polyline: SVG path data relative to the item's top-left,
 *  outlined with the given line (the path may reach outside the box). */
export interface PreparedPath extends ItemBase {
  kind: 'path';
  d: string;
  closed: boolean;
  fill: FillModel;
  color: Color;
  lineWidth: number;
  style: LineStyle;
  dashPattern: number[];
  /** Round line caps and joins (else butt caps and miter joins). */
  round?: boolean;
}

/** A barcode's bars or modules (its text is in text items of its own, printed after it). */
export interface PreparedBarcode extends ItemBase {
  kind: 'barcode';
  fill: FillModel;
  border: BorderModel;
  /** Clockwise: 0, 90, 180 or 270. */
  angle: number;
  /** The box less padding, relative to the item, before rotation: the paths are laid out in it
   *  with width and height swapped for 90° and 270° (see barcodeTransform). */
  area: { x: number; y: number; width: number; height: number };
  /** The bars' colour. */
  color: Color;
  /** SVG path data (nonzero fill), in the barcode's colour or in white. */
  paths: { d: string; white: boolean }[];
}

export type PreparedItem =
  | PreparedBarcode
  | PreparedPath
  | PreparedBox
  | PreparedText
  | PreparedLine
  | PreparedShape
  | PreparedPicture
  | PreparedCheckBox;

/** All text items of a page, in z-order (handy for tests and plain-text output). */
export function pageTexts(page: PreparedPage): PreparedText[] {
  return page.items.filter((i): i is PreparedText => i.kind === 'text');
}

/** What a text item shows, lines joined with "\n" (HtmlTags: the runs' text). */
export function shownText(item: PreparedText): string {
  if (item.html) return item.html.map((l) => l.runs.map((r) => r.text).join('')).join('\n');
  return item.lines.map((l) => l.text).join('\n');
}

/** The affine matrix [a, b, c, d, e, f] (x' = a·x + c·y + e, y' = b·x + d·y + f) from a barcode's
 *  path coordinates to the page: turned clockwise by its angle into its area. */
export function barcodeTransform(it: PreparedBarcode): [number, number, number, number, number, number] {
  const x = it.x + it.area.x;
  const y = it.y + it.area.y;
  const { width: w, height: h } = it.area;
  switch (it.angle) {
    case 90:
      return [0, 1, -1, 0, x + w, y];
    case 180:
      return [-1, 0, 0, -1, x + w, y + h];
    case 270:
      return [0, -1, 1, 0, x, y + h];
    default:
      return [1, 0, 0, 1, x, y];
  }
}

/** Moves an item by (dx, dy); a line's end points move with it. */
export function moveItem(it: PreparedItem, dx: number, dy: number): void {
  it.x += dx;
  it.y += dy;
  if (it.kind === 'line') {
    it.x1 += dx;
    it.x2 += dx;
    it.y1 += dy;
    it.y2 += dy;
  }
}
