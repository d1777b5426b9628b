// The 2-D symbologies (and the stacked GS1 DataBar, which is drawn as rows of modules): bwip-js
// encodes, FastReport's properties choose the options, and the symbol keeps FastReport's module
// sizes so the object's natural size is FastReport's.

import { rawMatrix, rawMaxiCode } from './bwip.js';
import { gs1Gtin } from './check-digits.js';
import { BarcodeError, type BarcodeSpec, flag, type MatrixSymbol, type MaxiCodeSymbol, option } from './types.js';

function grid(
  raw: { pixs: number[]; pixx: number; pixy: number },
  text: string,
  module: { w: number; h: number },
  quiet = 0,
): MatrixSymbol {
  // Rows as given (stacked DataBar's pixy is its height, each row given once).
  const given = Math.floor(raw.pixs.length / raw.pixx);
  const columns = raw.pixx + 2 * quiet;
  const rows = given + 2 * quiet;
  const dark = new Uint8Array(columns * rows);
  for (let y = 0; y < given; y++)
    for (let x = 0; x < raw.pixx; x++) if (raw.pixs[y * raw.pixx + x]) dark[(y + quiet) * columns + x + quiet] = 1;
  return { kind: 'matrix', columns, rows, dark, moduleWidth: module.w, moduleHeight: module.h, text, quiet };
}

/** Swiss QR bill payloads ("SPC" first): FastReport re-reads and writes them back, which gives
 *  the amount two decimals and drops trailing line breaks. */
function swissPayload(text: string): string {
  const lines = text.replace(/[\r\n]+$/, '').split(/\r\n|\n/);
  const amount = lines[18];
  if (amount !== undefined && /^\d+(\.\d*)?$/.test(amount.trim())) lines[18] = Number(amount).toFixed(2);
  return lines.join('\r\n');
}

function qr(text: string, spec: BarcodeSpec): MatrixSymbol {
  const swiss = text.startsWith('SPC');
  const data = swiss ? swissPayload(text) : text;
  const ec = swiss ? 'M' : option(spec, 'ErrorCorrection', 'L').toUpperCase();
  if (!/^[LMQH]$/.test(ec)) throw new BarcodeError(`Unknown QR error correction level "${ec}"`);
  // ISO 8859-1 writes one byte per character; the other encodings are written as UTF-8, which
  // every reader of today's QR codes expects.
  const latin1 = option(spec, 'Encoding', 'UTF8') === 'ISO8859_1' && !/[^\x00-\xff]/.test(data);
  const raw = rawMatrix('qrcode', data, { eclevel: ec, ...(latin1 ? { binarytext: true } : {}) });
  const quiet = flag(spec, 'QuietZone', true) ? 4 : 0;
  const s = grid(raw, data, { w: 4, h: 4 }, quiet);
  s.shape = swiss ? 'Rectangle' : option(spec, 'Shape', 'Rectangle');
  s.thin = !swiss && flag(spec, 'UseThinModules', false);
  s.shapeAngle = Number(option(spec, 'Angle', '0')) || 0;
  s.finders = [
    [quiet, quiet],
    [quiet + raw.pixx - 7, quiet],
    [quiet, quiet + raw.pixs.length / raw.pixx - 7],
  ];
  if (swiss) s.swissCross = true;
  return s;
}

/** Data Matrix's SymbolSize "Size24x24" (rows × columns) → bwip-js's version "24x24". */
function dataMatrix(gs1: boolean): (text: string, spec: BarcodeSpec) => MatrixSymbol {
  return (text, spec) => {
    const size = /^Size(\d+)x(\d+)$/.exec(option(spec, 'SymbolSize', 'Auto'));
    const opts: Record<string, unknown> = {};
    if (size) {
      opts.version = `${size[1]}x${size[2]}`;
      if (size[1] !== size[2]) opts.format = 'rectangle';
    }
    const px = Number(option(spec, 'PixelSize', '3')) || 3;
    const raw = gs1
      ? rawMatrix('gs1datamatrix', text.trim(), { ...opts, dontlint: true })
      : rawMatrix('datamatrix', text.replace(/\^/g, '^094').replace(/&1;/g, '^FNC1'), { ...opts, parsefnc: true });
    const s = grid(raw, text, { w: px, h: px });
    s.lightWhite = true;
    return s;
  };
}

function pdf417(text: string, spec: BarcodeSpec): MatrixSymbol {
  const [w = 2, h = 8] = option(spec, 'PixelSize', '2, 8')
    .split(',')
    .map((v) => Number(v.trim()));
  const opts: Record<string, unknown> = { rowmult: 1 };
  const columns = Number(option(spec, 'Columns', '0'));
  const rows = Number(option(spec, 'Rows', '0'));
  if (columns > 0) opts.columns = Math.min(30, columns);
  if (rows > 0) opts.rows = Math.min(90, Math.max(3, rows));
  const ec = /^Level([0-8])$/.exec(option(spec, 'ErrorCorrection', 'Auto'));
  if (ec) opts.eclevel = Number(ec[1]);
  if (option(spec, 'CompactionMode', 'Auto') === 'Numeric' && /^\d+$/.test(text)) opts.compact = false;
  return grid(rawMatrix('pdf417', text, opts), text, { w: w > 0 ? w : 2, h: h > 0 ? h : 8 });
}

function aztec(text: string, spec: BarcodeSpec): MatrixSymbol {
  const ec = Math.min(95, Math.max(5, Number(option(spec, 'ErrorCorrection', '33')) || 33));
  return grid(rawMatrix('azteccode', text, { eclevel: ec }), text, { w: 4, h: 4 });
}

function stackedDataBar(bcid: string): (text: string, spec: BarcodeSpec, ratio: number) => MatrixSymbol {
  return (text, spec, ratio) => {
    const gtin = gs1Gtin(text);
    const opts: Record<string, unknown> = {};
    if (bcid === 'databarexpandedstacked') opts.segments = Number(option(spec, 'Segments', '4')) || 4;
    const s = grid(rawMatrix(bcid, bcid === 'databarexpandedstacked' ? text : gtin, opts), gtin, {
      w: 1.25 * ratio,
      h: 1.25 * ratio,
    });
    // bwip-js gives each row once: DataBar Stacked's rows are 5 and 7 modules high around a
    // separator, the omnidirectional ones 33 around three separators of one (ISO/IEC 24724).
    s.rowHeights =
      bcid === 'databarstacked'
        ? [5, 1, 7]
        : Array.from({ length: s.rows }, (_, i) => (i % 4 === 0 ? (bcid === 'databarstackedomni' ? 33 : 34) : 1));
    s.fixedHeight = true;
    return s;
  };
}

function maxiCode(text: string, spec: BarcodeSpec): MaxiCodeSymbol {
  const mode = Number(option(spec, 'Mode', '4'));
  return { kind: 'maxicode', dark: rawMaxiCode(text, { mode: mode >= 2 && mode <= 6 ? mode : 4 }), text };
}

export const MATRIX: Readonly<
  Record<string, (text: string, spec: BarcodeSpec, ratio: number) => MatrixSymbol | MaxiCodeSymbol>
> = {
  'QR Code': qr,
  Datamatrix: dataMatrix(false),
  'GS1 Datamatrix': dataMatrix(true),
  PDF417: pdf417,
  Aztec: aztec,
  MaxiCode: maxiCode,
  'GS1 DataBar Stacked': stackedDataBar('databarstacked'),
  'GS1 DataBar Stacked Omnidirectional': stackedDataBar('databarstackedomni'),
  'GS1 DataBar Expanded Stacked': stackedDataBar('databarexpandedstacked'),
};
