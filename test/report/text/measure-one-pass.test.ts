// breakLinesMeasured (lines and unwrapped width from one pass, a one-line paragraph measured
// without atoms) against the line breaker's rules applied the long way: atoms of every code
// point with the font service's advances, wrapParagraph with and without word wrap. Equal to the
// last bit: the exporters draw at the measured positions.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  breakLines,
  breakLinesMeasured,
  defaultFontService,
  fontSpec,
  paragraphRanges,
} from '../../../src/report/text/index.js';
import { kindOf, wrapParagraph, type AtomParagraph } from '../../../src/report/text/wrap.js';

const fonts = defaultFontService();

function reference(text: string, family: string, sizePt: number, max: number, wordWrap: boolean, tabWidth: number) {
  const r = fonts.resolve(fontSpec(family, sizePt));
  const lines: { text: string; widthPx: number; start: number; end: number; hardBreak: boolean }[] = [];
  let widest = 0;
  for (const [start, end] of paragraphRanges(text)) {
    const p: AtomParagraph & { offsets: number[] } = { cps: [], widths: [], kinds: [], offsets: [] };
    let off = start;
    for (const ch of text.slice(start, end)) {
      const cp = ch.codePointAt(0) ?? 0;
      p.cps.push(ch);
      p.kinds.push(kindOf(cp));
      p.widths.push(cp === 0x09 ? 0 : fonts.advancePx(cp, r));
      p.offsets.push(off);
      off += ch.length;
    }
    p.offsets.push(end);
    const raw = wrapParagraph(p, max, { wordWrap, breakLongWords: true, tabWidth });
    raw.forEach((l, i) => {
      const s = p.offsets[l.from] as number;
      const e = p.offsets[l.to] as number;
      lines.push({ text: text.slice(s, e), widthPx: l.width, start: s, end: e, hardBreak: i === raw.length - 1 });
    });
    for (const l of wrapParagraph(p, max, { wordWrap: false, breakLongWords: true, tabWidth }))
      widest = Math.max(widest, l.width);
  }
  return { lines, widest };
}

const pieces = [
  'a',
  'W',
  'word',
  'Longerwordthanmost',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  'Αθήνα',
  'Москва',
  '😀',
  '\uD83D',
  'e\u0301',
  '\u200B',
  '\u0007',
  '1,234.56',
  '&',
];
const textArb = fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((a) => a.join(''));

describe('breakLinesMeasured', () => {
  it('gives the lines and the unwrapped width of the long way, exactly', () => {
    fc.assert(
      fc.property(
        textArb,
        fc.constantFrom(['Arial', 9], ['Tahoma', 14], ['Times New Roman', 11], ['Courier New', 8], ['Verdana', 10]),
        fc.oneof(fc.double({ min: -5, max: 400, noNaN: true }), fc.constantFrom(0, 1, 1e9)),
        fc.boolean(),
        fc.constantFrom(58, 20, 0),
        (text, [family, size], max, wordWrap, tabWidth) => {
          const font = fontSpec(family as string, size as number);
          const ref = reference(text, family as string, size as number, max, wordWrap, tabWidth);
          const got = breakLinesMeasured(text, font, max, { wordWrap, tabWidthPx: tabWidth, fonts });
          const strip = (ls: typeof got.lines) =>
            ls.map(({ text: t, widthPx, start, end, hardBreak }) => ({ text: t, widthPx, start, end, hardBreak }));
          expect(strip(got.lines)).toEqual(ref.lines);
          expect(Object.is(got.naturalWidthPx, ref.widest)).toBe(true);
          expect(breakLines(text, font, max, { wordWrap, tabWidthPx: tabWidth, fonts })).toEqual(got.lines);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
