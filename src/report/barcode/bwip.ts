// The encoder library (bwip-js, a port of Barcode Writer in Pure PostScript), loaded on first use:
// it is 2 MB of JavaScript that a report without barcodes never needs. Its `raw` answer is the
// symbol's structure (bar/space widths, or rows of modules), which our layout draws itself.

import { createRequire } from 'node:module';
import type BwipJs from 'bwip-js';
import { BarcodeError } from './types.js';

type Bwip = typeof BwipJs;
let loaded: Bwip | undefined;

function bwip(): Bwip {
  loaded ??= createRequire(import.meta.url)('bwip-js') as Bwip;
  return loaded;
}

export interface RawLinear {
  sbs: number[];
  bhs: number[];
  bbs: number[];
}
export interface RawMatrix {
  pixs: number[];
  pixx: number;
  pixy: number;
}

// BWIPP's errors read "bwipp.ean13badLength#4020: EAN-13 must be 12 or 13 digits": the part after
// the colon is for people.
function message(e: unknown): string {
  const s = e instanceof Error ? e.message : String(e);
  const m = /^bwipp\.\w+#\d+:\s*(.*)$/s.exec(s);
  return (m?.[1] ?? s).trim() || 'the text cannot be encoded';
}

// raw(bcid, text, options): the overload this module uses, typed loosely (its option type lists
// every symbology's options).
type Raw = (bcid: string, text: string, opts: Record<string, unknown>) => unknown[];

function raw(bcid: string, text: string, opts: Record<string, unknown>): unknown[] {
  try {
    return (bwip().raw as unknown as Raw)(bcid, text, opts);
  } catch (e) {
    throw new BarcodeError(message(e));
  }
}

export function rawLinear(bcid: string, text: string, opts: Record<string, unknown> = {}): RawLinear {
  const r = raw(bcid, text, opts)[0] as Partial<RawLinear> | undefined;
  if (!r?.sbs) throw new BarcodeError(`${bcid}: no bars`);
  return { sbs: r.sbs, bhs: r.bhs ?? [], bbs: r.bbs ?? [] };
}

export function rawMatrix(bcid: string, text: string, opts: Record<string, unknown> = {}): RawMatrix {
  const r = raw(bcid, text, opts)[0] as Partial<RawMatrix> | undefined;
  if (!r?.pixs || !r.pixx || !r.pixy) throw new BarcodeError(`${bcid}: no modules`);
  return { pixs: r.pixs, pixx: r.pixx, pixy: r.pixy };
}

/** MaxiCode: the indices of its dark hexagons. */
export function rawMaxiCode(text: string, opts: Record<string, unknown>): number[] {
  const r = raw('maxicode', text, opts)[0] as { pixs?: number[] } | undefined;
  if (!r?.pixs) throw new BarcodeError('maxicode: no modules');
  return r.pixs;
}
