// ByteSink: UTF-8 bytes of pieces in one buffer grown in place, or concatenated without a
// resizable buffer; either way exactly the pieces' bytes, in a buffer that owns its memory.

import { describe, expect, it } from 'vitest';
import { ByteSink } from '../../../src/report/export/html-bytes.js';
import { ownBytes } from '../../../src/srs/render-pool/render-job.js';

// Pieces crossing the first 1 MiB and later doublings, with characters of 1 to 4 UTF-8 bytes.
const pieces = [
  'plain ascii <div class="p">',
  'é'.repeat(300_000),
  '€ 中文 😀 \u0007',
  'x'.repeat(1_500_000),
  '',
  'Ω'.repeat(700_000),
  '</body>\n',
];

describe('ByteSink', () => {
  it.each([true, false])('resizable %s: the bytes of the pieces, in a buffer of their own', (resizable) => {
    const sink = new ByteSink(resizable);
    for (const p of pieces) sink.write(p);
    const out = sink.bytes();
    expect(out.equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
    expect(out.byteOffset).toBe(0);
    expect(out.buffer.byteLength).toBe(out.length);
    // Transferable as it is: the worker does not copy it again.
    expect(ownBytes(out)).toBe(out);
  });

  it.each([true, false])('resizable %s: a prepended head goes before the pieces written', (resizable) => {
    const sink = new ByteSink(resizable);
    for (const p of pieces) sink.write(p);
    // Longer than what the buffer has spare, with multi-byte characters.
    const head = `<head>${'ü'.repeat(400_000)}</head>`;
    sink.prepend(head);
    const out = sink.bytes();
    expect(out.equals(Buffer.from(head + pieces.join(''), 'utf8'))).toBe(true);
    expect(ownBytes(out)).toBe(out);
  });

  it('gives an empty buffer for nothing written', () => {
    expect(new ByteSink().bytes().length).toBe(0);
  });
});
