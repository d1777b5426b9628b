// Barcodes: FastReport's BarcodeObject symbologies encoded (bwip-js under FastReport's text
// rules) and laid out with FastReport's geometry as vector paths. Part of the report library;
// the engine enters through this file only.
//
//   encodeBarcode(spec)        text → symbol (bars in modules, or rows of modules)
//   naturalSize(symbol, …)     what AutoSize sizes the object to
//   layoutBarcode(symbol, …)   the symbol in the object's box: paths and text labels

import { BoundedCache } from '../bounded-cache.js';
import { LINEAR } from './linear.js';
import { MATRIX } from './matrix2d.js';
import { BarcodeError, type BarcodeSpec, type BarcodeSymbol } from './types.js';

export { layoutBarcode, naturalSize, ONE_BAR_WIDTH } from './layout.js';
export type { BarcodeDrawing, BarcodeFont, BarcodeLabel } from './layout.js';
export { BarcodeError } from './types.js';
export type { BarcodeSpec, BarcodeSymbol } from './types.js';

/** The symbology names FastReport writes in Barcode="…". */
export const SYMBOLOGIES: readonly string[] = [...Object.keys(LINEAR), ...Object.keys(MATRIX)];

/** FastReport's default symbology (a BarcodeObject without Barcode="…"). */
export const DEFAULT_SYMBOLOGY = 'Code39';

/** Longest text encoded (a QR code holds at most 7089 digits; anything longer is a mistake). */
const MAX_TEXT = 8000;

function ratio(spec: BarcodeSpec, r: { def: number; min: number; max: number }): number {
  const v = spec.wideBarRatio;
  if (v === undefined || !Number.isFinite(v)) return r.def;
  return Math.min(r.max, Math.max(r.min, v));
}

function encode(spec: BarcodeSpec): BarcodeSymbol {
  if (spec.text.length > MAX_TEXT)
    throw new BarcodeError(`Text too long for a barcode (${spec.text.length} characters)`);
  const linear = LINEAR[spec.symbology];
  if (linear) return linear.encode(spec.text, ratio(spec, linear.ratio), spec);
  const matrix = MATRIX[spec.symbology];
  if (matrix) return matrix(spec.text, spec, ratio(spec, { def: 2, min: 0.1, max: 100 }));
  throw new BarcodeError(`Unknown barcode type "${spec.symbology}"`);
}

/** A symbol, or the message FastReport draws instead. */
export type Encoded = { symbol: BarcodeSymbol } | { error: string };

// A report prints the same codes again and again (a label per row, page headers); QR and the
// other 2-D encoders take milliseconds each.
const cache = new BoundedCache<string, Encoded>(512, (key) => {
  try {
    return { symbol: encode(JSON.parse(key) as BarcodeSpec) };
  } catch (e) {
    if (e instanceof BarcodeError) return { error: e.message };
    throw e;
  }
});

/** The symbol for a text, or the message FastReport draws in its place (red, in the box) when the
 *  text cannot be encoded. The answer is shared: do not change it. */
export function encodeBarcode(spec: BarcodeSpec): Encoded {
  const key = JSON.stringify({
    symbology: spec.symbology,
    text: spec.text,
    calcCheckSum: spec.calcCheckSum,
    wideBarRatio: spec.wideBarRatio,
    options: spec.options,
  });
  return cache.get(key);
}
