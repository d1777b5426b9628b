// UTF-8 bytes of a document written in pieces, in ONE buffer that owns its memory. Collecting
// the pieces as buffers and concatenating them at the end holds the document twice (a 100,000-row
// list's HTML is over 100 MB); a resizable ArrayBuffer grows in place instead: the address space
// is reserved once, pages are only committed as bytes are written into them, and the buffer is
// shrunk to the document's size at the end (it is then transferred to the caller's thread as it
// is, see srs/render-pool/render-job.ts ownBytes). Where the reservation is refused (a limit on
// address space), the pieces are collected and concatenated as before.

import { constants } from 'node:buffer';

/** The largest document: Node's Buffer limit. Only address space is reserved up front. */
const MAX_BYTES = Math.min(constants.MAX_LENGTH, 2 ** 32);
/** The first size made usable; it grows by a quarter at a time (in place: no copy, only a
 *  change of page protection, so steps can be small and little is left over at the end). */
const FIRST_BYTES = 1 << 20;

type Resizable = ArrayBuffer & { resize(n: number): void; readonly maxByteLength: number };

function reserve(): Resizable | undefined {
  try {
    const ab = new (ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => Resizable)(0, {
      maxByteLength: MAX_BYTES,
    });
    return typeof ab.resize === 'function' && ab.maxByteLength === MAX_BYTES ? ab : undefined;
  } catch {
    return undefined;
  }
}

export class ByteSink {
  private readonly ab: Resizable | undefined;
  private view = Buffer.alloc(0);
  private length = 0;
  /** Used only without a resizable buffer. */
  private readonly pieces: Buffer[] = [];

  /** The bytes written so far. */
  get size(): number {
    return this.length;
  }

  /** `resizable: false` collects and concatenates (what happens where the reservation fails). */
  constructor(resizable = true) {
    this.ab = resizable ? reserve() : undefined;
  }

  write(s: string): void {
    const ab = this.ab;
    if (!ab) {
      const b = Buffer.from(s, 'utf8');
      this.pieces.push(b);
      this.length += b.length;
      return;
    }
    // At most 3 bytes per UTF-16 unit; growing past what is written commits no memory.
    const need = this.length + s.length * 3;
    if (need > ab.byteLength) {
      if (need > MAX_BYTES) throw new RangeError('the HTML document is larger than a buffer may be');
      ab.resize(Math.min(MAX_BYTES, Math.max(need, ab.byteLength + (ab.byteLength >> 2), FIRST_BYTES)));
      this.view = Buffer.from(ab, 0, ab.byteLength);
    }
    this.length += this.view.write(s, this.length, 'utf8');
  }

  /** Puts `s` before everything written so far: the head of a document whose pages were written
   *  first (the head is made from them). The bytes move up inside the same buffer (one memmove,
   *  no second copy of the document); without a resizable buffer the pieces are concatenated
   *  with it at the end, as they are anyway. */
  prepend(s: string): void {
    const head = Buffer.from(s, 'utf8');
    const ab = this.ab;
    if (!ab) {
      this.pieces.unshift(head);
      this.length += head.length;
      return;
    }
    const total = this.length + head.length;
    if (total > MAX_BYTES) throw new RangeError('the HTML document is larger than a buffer may be');
    if (total > ab.byteLength) {
      ab.resize(total);
      this.view = Buffer.from(ab, 0, ab.byteLength);
    }
    this.view.copyWithin(head.length, 0, this.length);
    head.copy(this.view, 0);
    this.length = total;
  }

  /** The bytes written, in a buffer of exactly their size. */
  bytes(): Buffer {
    if (!this.ab) return Buffer.concat(this.pieces, this.length);
    this.ab.resize(this.length);
    return Buffer.from(this.ab, 0, this.length);
  }
}
