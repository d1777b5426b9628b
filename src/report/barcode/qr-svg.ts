// A QR code as a standalone SVG document, for the service's own use (the TOTP enrolment's code).
// Encoded directly, not through encodeBarcode's cache: the texts are secrets and must not be
// kept in memory after the answer.
import { MATRIX } from './matrix2d.js';
import type { BarcodeSpec } from './types.js';

export interface QrSvgOptions {
  /** The side of one module in the SVG's user units (its width and height follow). */
  moduleSize?: number;
  /** QR error correction level. */
  errorCorrection?: 'L' | 'M' | 'Q' | 'H';
}

/** `text` as a QR code (UTF-8, with the 4-module quiet zone): one path of dark squares on white. */
export function qrCodeSvg(text: string, opts: QrSvgOptions = {}): string {
  const encodeQr = MATRIX['QR Code'];
  if (!encodeQr) throw new Error('the QR encoder is missing');
  const spec: BarcodeSpec = {
    symbology: 'QR Code',
    text,
    calcCheckSum: false,
    options: { ErrorCorrection: opts.errorCorrection ?? 'M', QuietZone: 'true' },
  };
  const symbol = encodeQr(text, spec, 2);
  if (symbol.kind !== 'matrix') throw new Error('the QR encoder gave no matrix');
  const size = opts.moduleSize ?? 4;
  const { columns, rows, dark } = symbol;
  // Runs of dark modules per row as one rectangle each keep the path short.
  const parts: string[] = [];
  for (let y = 0; y < rows; y++) {
    let x = 0;
    while (x < columns) {
      if (!dark[y * columns + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < columns && dark[y * columns + x]) x++;
      parts.push(`M${start} ${y}h${x - start}v1h-${x - start}z`);
    }
  }
  const width = columns * size;
  const height = rows * size;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${columns} ${rows}" shape-rendering="crispEdges" role="img" aria-label="QR code">` +
    `<rect width="${columns}" height="${rows}" fill="#fff"/><path fill="#000" d="${parts.join('')}"/></svg>`
  );
}
