// The graphics state every drawing module of the PDF exporter shares: the document, pdfkit's
// fill/stroke opacities tracked per save level, and number formatting for content streams.
//
// Units: each page's content starts with a scale of 0.75 (FastReport px at 96 dpi → PDF points),
// on top of pdfkit's own flip to a top-left origin. So everything below draws in the prepared
// report's own pixels, y downwards, and only the page size is converted.

import type { Color } from '../../frx/model.js';
import type { Doc } from './kit.js';

/** PDF points per FastReport pixel. */
export const PT_PER_PX = 72 / 96;

/** A number for a content stream: at most 3 decimals, no exponent, no "-0". */
export function num(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const v = Math.round(n * 1000) / 1000;
  return v === 0 ? '0' : String(v);
}

/** The value num(n) writes. */
export function round3(n: number): number {
  if (!Number.isFinite(n)) return 0;
  const v = Math.round(n * 1000) / 1000;
  return v === 0 ? 0 : v;
}

export const rgb = (c: Color): [number, number, number] => [c.r, c.g, c.b];

const isByte = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= 255;

export const isTransparent = (c: Color): boolean => c.a === 0;

/** A rectangle in px (x, y: top-left). */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface AlphaState {
  fill: number;
  stroke: number;
}

export class PdfGraphics {
  // pdfkit writes an opacity only when given one and never resets it, so the current opacities
  // are tracked per save level: a colour's alpha is written only when it differs.
  private alpha: AlphaState = { fill: 1, stroke: 1 };
  private readonly stack: AlphaState[] = [];
  // "r g b rg" / "r g b RG" per 8-bit colour (keyed 0xRRGGBB): every text object sets its colour.
  private readonly fillOps = new Map<number, string>();
  private readonly strokeOps = new Map<number, string>();

  constructor(readonly doc: Doc) {}

  save(): void {
    this.stack.push({ ...this.alpha });
    this.doc.save();
  }

  restore(): void {
    this.alpha = this.stack.pop() ?? { fill: 1, stroke: 1 };
    this.doc.restore();
  }

  /** Called at the start of each page (a fresh graphics state). */
  resetState(): void {
    this.alpha = { fill: 1, stroke: 1 };
    this.stack.length = 0;
  }

  // pdfkit writes a colour as `/DeviceRGB cs` plus the components at full precision; `rg`/`RG`
  // with 3 decimals is the same colour in fewer bytes (any 8-bit value is 3 decimals / 255 away
  // from its neighbours by far more than 0.001).
  setFill(c: Color): void {
    const a = c.a / 255;
    if (a !== this.alpha.fill) {
      this.doc.fillColor(rgb(c), a);
      this.alpha.fill = a;
    } else {
      const op = this.colorOperator(c, 'rg');
      if (op !== undefined) this.doc.addContent(op);
      else this.doc.fillColor(rgb(c));
    }
  }

  /**
   * The operator that sets an opaque fill colour, for a caller that batches its content into
   * one string; undefined when the colour has an alpha or one is in effect (then setFill).
   */
  fillOperator(c: Color): string | undefined {
    if (c.a !== 255 || this.alpha.fill !== 1) return undefined;
    return this.colorOperator(c, 'rg') ?? `${num(c.r / 255)} ${num(c.g / 255)} ${num(c.b / 255)} rg`;
  }

  /** `r g b rg` (or `RG`) of an 8-bit colour; undefined for other component values. */
  private colorOperator(c: Color, op: 'rg' | 'RG'): string | undefined {
    if (!(isByte(c.r) && isByte(c.g) && isByte(c.b))) return undefined;
    const ops = op === 'rg' ? this.fillOps : this.strokeOps;
    const key = c.r * 65536 + c.g * 256 + c.b;
    let s = ops.get(key);
    if (s === undefined) {
      s = `${num(c.r / 255)} ${num(c.g / 255)} ${num(c.b / 255)} ${op}`;
      if (ops.size < 4096) ops.set(key, s);
    }
    return s;
  }

  setStroke(c: Color): void {
    const a = c.a / 255;
    if (a !== this.alpha.stroke) {
      this.doc.strokeColor(rgb(c), a);
      this.alpha.stroke = a;
    } else {
      const op = this.colorOperator(c, 'RG');
      if (op !== undefined) this.doc.addContent(op);
      else this.doc.strokeColor(rgb(c));
    }
  }

  /** Sets the non-stroking opacity: what images (and fills) are drawn with from here on. */
  setFillOpacity(a: number): void {
    if (a !== this.alpha.fill) {
      this.doc.fillOpacity(a);
      this.alpha.fill = a;
    }
  }
}
