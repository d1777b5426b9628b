// What a symbology encodes a text into, before layout: the bars of a linear code in modules, or
// the dark modules of a 2-D one. Widths are in FastReport's modules (one narrow bar; a wide one is
// WideBarRatio of them); heights are fractions of the bar area.

/** One bar or space of a linear code. */
export interface BarElement {
  /** Width in modules. */
  w: number;
  bar: boolean;
  /** A guard bar of EAN/UPC: reaches into the text band when the text shows. */
  long?: boolean;
  /** Top and bottom of the bar as fractions of the bar area's height, from the top (0 and 1 for a
   *  full bar; postal codes have shorter ones). */
  top?: number;
  bottom?: number;
}

/** A piece of the human-readable text, centred between x1 and x2 (modules from the first bar). */
export interface TextGroup {
  text: string;
  x1: number;
  x2: number;
  /** Drawn 2 pt smaller (UPC's outer digits). */
  small?: boolean;
}

export interface LinearSymbol {
  kind: 'linear';
  elements: BarElement[];
  /** The human-readable text as FastReport shows it (after its check digit rules). */
  text: string;
  /** Text groups; absent: `text` centred under the whole symbol. */
  groups?: TextGroup[];
  /** Fixed margins left and right of the bars, in modules (EAN/UPC's digits outside the bars). */
  extra1?: number;
  extra2?: number;
  /** The text prints above the bars (EAN-2/5 supplements). */
  textUp?: boolean;
  /** ITF-14's bearer bars (module width of their line, and whether the vertical ones print). */
  bearer?: { width: number; vertical: boolean };
  /** Blank modules added each side (ITF-14's quiet zones). */
  quiet?: number;
}

/** Rows of modules drawn as a grid (QR, Data Matrix, PDF417, Aztec, stacked DataBar). */
export interface MatrixSymbol {
  kind: 'matrix';
  columns: number;
  rows: number;
  /** Row-major, 1 = dark. */
  dark: Uint8Array;
  /** Size of one module at FastReport's natural size, px (PDF417's are 2 × 8). */
  moduleWidth: number;
  moduleHeight: number;
  /** The human-readable text (drawn under the symbol when ShowText is on). */
  text: string;
  /** Light modules each side that are the quiet zone (QR), included in columns and rows. */
  quiet?: number;
  /** Light modules are painted white (Data Matrix), not left transparent. */
  lightWhite?: boolean;
  /** Row heights in modules when they differ (stacked DataBar: its rows and separators). */
  rowHeights?: number[];
  /** The symbol keeps the box's height (stacked DataBar); else its natural height is its rows. */
  fixedHeight?: boolean;
  /** QR: the shape of the modules outside the finder patterns, drawn 10 % smaller when thin,
   *  and the angle a hexagon, star or snowflake is turned by. */
  shape?: string;
  thin?: boolean;
  shapeAngle?: number;
  /** QR: the top-left modules (column, row) of the 7 × 7 finder patterns, which keep square
   *  modules whatever the shape. */
  finders?: [number, number][];
  /** Swiss QR bill: the Swiss cross in the middle. */
  swissCross?: boolean;
}

/** MaxiCode: dark hexagons on its 33 × 30 grid and the bullseye. */
export interface MaxiCodeSymbol {
  kind: 'maxicode';
  /** Indices row × 30 + column of the dark hexagons. */
  dark: number[];
  text: string;
}

export type BarcodeSymbol = LinearSymbol | MatrixSymbol | MaxiCodeSymbol;

/** The properties of a BarcodeObject the encoding depends on. */
export interface BarcodeSpec {
  /** FastReport's name of the symbology ("Code128", "QR Code", …). */
  symbology: string;
  text: string;
  calcCheckSum: boolean;
  /** Barcode.WideBarRatio as written (undefined: the symbology's default). */
  wideBarRatio?: number;
  /** The symbology's other properties (Barcode.ErrorCorrection, …) by name without "Barcode.". */
  options: Readonly<Record<string, string>>;
}

/** A symbology property as written, trimmed ('' or absent: `def`). */
export const option = (spec: BarcodeSpec, name: string, def: string): string => spec.options[name]?.trim() || def;

/** A boolean symbology property ("true"/"false", any case; absent: `def`). */
export function flag(spec: BarcodeSpec, name: string, def: boolean): boolean {
  const v = spec.options[name]?.trim().toLowerCase();
  return v === undefined || v === '' ? def : v === 'true';
}

/** A text FastReport's barcode cannot encode: its message is drawn in red in the box. */
export class BarcodeError extends Error {}
