import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  breakRuns,
  decodeEntities,
  fontSpec,
  lineHeightPx,
  measureHtmlBlock,
  measureWidth,
  parseHtmlTags,
  runFont,
  type StyledRun,
  FontService,
} from '../../../src/report/text/index.js';

const arial10 = fontSpec('Arial', 10);

/** Runs as [text, flags] for compact expectations; flags: b i u s _ ^ (sub, sup). */
function brief(runs: StyledRun[]): Array<[string, string]> {
  return runs.map((r) => [
    r.text,
    `${r.bold ? 'b' : ''}${r.italic ? 'i' : ''}${r.underline ? 'u' : ''}` +
      `${r.strike ? 's' : ''}${r.sub ? '_' : ''}${r.sup ? '^' : ''}`,
  ]);
}

describe('parseHtmlTags: tags', () => {
  it('switches b, i, u, strike, sub and sup on and off', () => {
    expect(brief(parseHtmlTags('a<b>b</b><i>i</i><u>u</u><strike>s</strike>H<sub>2</sub>O x<sup>2</sup>'))).toEqual([
      ['a', ''],
      ['b', 'b'],
      ['i', 'i'],
      ['u', 'u'],
      ['s', 's'],
      ['H', ''],
      ['2', '_'],
      ['O x', ''],
      ['2', '^'],
    ]);
  });

  it('nests, and closing tags are flags, not a stack (FastReport)', () => {
    expect(brief(parseHtmlTags('<b>bold <i>both</i> bold</b>'))).toEqual([
      ['bold ', 'b'],
      ['both', 'bi'],
      [' bold', 'b'],
    ]);
    expect(brief(parseHtmlTags('<b><b>x</b>y</b>z'))).toEqual([
      ['x', 'b'],
      ['yz', ''],
    ]);
    expect(brief(parseHtmlTags('<b>a<i>b</b>c</i>d'))).toEqual([
      ['a', 'b'],
      ['b', 'bi'],
      ['c', 'i'],
      ['d', ''],
    ]);
  });

  it('leaves an unclosed tag in force to the end', () => {
    expect(brief(parseHtmlTags('plain <b>bold to the end'))).toEqual([
      ['plain ', ''],
      ['bold to the end', 'b'],
    ]);
  });

  it('matches tag names in any case', () => {
    expect(brief(parseHtmlTags('<B>x</B><I>y</i><STRIKE>z</Strike>'))).toEqual([
      ['x', 'b'],
      ['y', 'i'],
      ['z', 's'],
    ]);
  });

  it("starts from the object's style; a closing tag turns it off", () => {
    expect(brief(parseHtmlTags('a</b>b', { bold: true, italic: true }))).toEqual([
      ['a', 'bi'],
      ['b', 'i'],
    ]);
  });

  it('makes sub and sup exclusive, and either closing tag returns to the baseline', () => {
    expect(brief(parseHtmlTags('<sub>a<sup>b</sub>c'))).toEqual([
      ['a', '_'],
      ['b', '^'],
      ['c', ''],
    ]);
  });

  it('accepts <s> as <strike> (an addition: FastReport shows it as text)', () => {
    expect(brief(parseHtmlTags('<s>gone</s> kept'))).toEqual([
      ['gone', 's'],
      [' kept', ''],
    ]);
  });

  it('turns <br>, <br/>, <br /> and newlines into line breaks; <BR> is text, as in FastReport', () => {
    const runs = parseHtmlTags('a<br>b<br/>c<br />d\r\ne\nf<BR>g');
    expect(runs.map((r) => r.text)).toEqual(['a', '\n', 'b', '\n', 'c', '\n', 'd', '\n', 'e', '\n', 'f<BR>g']);
  });

  it('shows unknown tags and stray "<" as text', () => {
    expect(
      parseHtmlTags('<p>para</p> <span class="x">s</span> a < b <b >x')
        .map((r) => r.text)
        .join(''),
    ).toBe('<p>para</p> <span class="x">s</span> a < b <b >x');
    expect(
      parseHtmlTags('1 <2 and 3 > 2')
        .map((r) => r.text)
        .join(''),
    ).toBe('1 <2 and 3 > 2');
  });

  it('gives an <img> its alt text (the picture is never fetched)', () => {
    const runs = parseHtmlTags('a<img src="http://x/y.png" alt="logo">b<img src="z">');
    expect(runs.map((r) => [r.text, r.imageSrc])).toEqual([
      ['a', undefined],
      ['logo', 'http://x/y.png'],
      ['b', undefined],
      [' ', 'z'],
    ]);
  });
});

describe('parseHtmlTags: font', () => {
  it('reads color="#RRGGBB"', () => {
    const runs = parseHtmlTags('x<font color="#FF0000">red</font>y');
    expect(runs.map((r) => [r.text, r.color])).toEqual([
      ['x', undefined],
      ['red', '#ff0000'],
      ['y', undefined],
    ]);
  });

  it('reads hex digits as a number, like FastReport (#F00 is #000F00), and names as names', () => {
    expect(parseHtmlTags('<font color="#F00">x')[0]?.color).toBe('#000f00');
    expect(parseHtmlTags('<font color="DarkBlue">x')[0]?.color).toBe('darkblue');
    expect(parseHtmlTags('<font color="#GG0000">x')[0]?.color).toBeUndefined();
  });

  it('reads face and size (points; +n / -n relative to the current size)', () => {
    const runs = parseHtmlTags(
      '<font face="Courier New" size="14">a</font><font size="+2">b<font size="-1">c</font>d',
      {
        sizePt: 10,
      },
    );
    expect(runs.map((r) => [r.text, r.face, r.sizePt])).toEqual([
      ['a', 'Courier New', 14],
      ['b', undefined, 12],
      ['c', undefined, 11],
      ['d', undefined, undefined],
    ]);
  });

  it("sets face even when absent: a nested <font color> returns to the object's face (FastReport)", () => {
    const runs = parseHtmlTags('<font face="Times New Roman">a<font color="red">b</font>c');
    expect(runs.map((r) => [r.text, r.face, r.color])).toEqual([
      ['a', 'Times New Roman', undefined],
      ['b', undefined, 'red'],
      ['c', undefined, undefined],
    ]);
  });

  it('ignores single-quoted or unquoted attributes, and an unparsable size', () => {
    const runs = parseHtmlTags('<font color=\'red\' size=3>a</font><font size="big">b');
    expect(runs.map((r) => [r.text, r.color, r.sizePt])).toEqual([['ab', undefined, undefined]]);
  });

  it('treats "<font" without a closing ">" as text', () => {
    expect(
      parseHtmlTags('a <font color="red" b')
        .map((r) => r.text)
        .join(''),
    ).toBe('a <font color="red" b');
  });

  it('only reads attributes inside the tag', () => {
    expect(parseHtmlTags('<font>x color="red"')[0]?.color).toBeUndefined();
  });
});

describe('parseHtmlTags: entities', () => {
  it('decodes &amp; &lt; &gt; &quot; &nbsp; and numeric references', () => {
    expect(
      parseHtmlTags('&amp;&lt;b&gt;&quot;&nbsp;&#65;&#x42;&#8364;&euro;&#128512;')
        .map((r) => r.text)
        .join(''),
    ).toBe('&<b>"\u00a0AB€€😀');
  });

  it('does not treat a decoded "<" as a tag', () => {
    expect(brief(parseHtmlTags('&lt;b&gt;x'))).toEqual([['<b>x', '']]);
  });

  it('leaves unknown or malformed references as text, as FastReport does', () => {
    expect(decodeEntities('a & b &unknown; &#X41; &#; &#12a; &amp &AMP; &#1114112;')).toBe(
      'a & b &unknown; &#X41; &#; &#12a; &amp & &#1114112;',
    );
    // The reference runs to the first ';', so a later ';' does not rescue "&amp ".
    expect(decodeEntities('&amp x;')).toBe('&amp x;');
  });

  it('are case-sensitive', () => {
    expect(decodeEntities('&Eacute;&eacute;&EACUTE;')).toBe('Éé&EACUTE;');
  });
});

describe('parseHtmlTags never throws', () => {
  const atoms = [
    '<',
    '>',
    '/',
    'b',
    'i',
    'font',
    ' color="',
    '#',
    'F',
    '"',
    'size="',
    '+',
    '-',
    '9',
    '&',
    '#x',
    ';',
    'amp',
    '\n',
    '\r',
    'br',
    ' ',
    'x',
    'sub',
    'img ',
    'alt="',
    '\u0000',
    '\ud800',
  ];
  it('on arbitrary tag-like input, and keeps plain text as it is', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...atoms), { maxLength: 60 }).map((a) => a.join('')),
        (text) => {
          const runs = parseHtmlTags(text);
          for (const r of runs) expect(typeof r.text).toBe('string');
          breakRuns(runs, arial10, 80);
        },
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }).filter((s) => !/[<&\r\n]/.test(s)),
        (text) => {
          expect(
            parseHtmlTags(text)
              .map((r) => r.text)
              .join(''),
          ).toBe(text);
        },
      ),
    );
  });
});

describe('breakRuns', () => {
  const svc = new FontService();

  it('measures each run with its own font', () => {
    const runs = parseHtmlTags('Total <b>1 234</b> <font face="Courier New">EUR</font>');
    const [line] = breakRuns(runs, arial10, 1000);
    expect(line?.pieces.map((p) => [p.text, p.font.family, p.font.bold])).toEqual([
      ['Total ', 'Arial', false],
      ['1 234', 'Arial', true],
      [' ', 'Arial', false],
      ['EUR', 'Courier New', false],
    ]);
    let x = 0;
    for (const p of line?.pieces ?? []) {
      expect(p.xPx).toBeCloseTo(x, 10);
      expect(p.widthPx).toBeCloseTo(measureWidth(p.text, p.font), 10);
      x += p.widthPx;
    }
    expect(line?.widthPx).toBeCloseTo(x, 10);
    expect(measureWidth('Total', fontSpec('Arial', 10, { bold: true }))).toBeGreaterThan(
      measureWidth('Total', arial10),
    );
  });

  it('draws sub and sup at 0.6 × the size, shifted like FastReport', () => {
    const [line] = breakRuns(parseHtmlTags('H<sub>2</sub>O<sup>+</sup>'), arial10, 1000);
    const [h, sub, , sup] = line?.pieces ?? [];
    expect(sub?.font.sizePt).toBeCloseTo(6, 10);
    expect(sup?.font.sizePt).toBeCloseTo(6, 10);
    const lh = lineHeightPx(arial10);
    // Sub and sup without face/size keep the object's line height and cell ascent for placement.
    expect(line?.heightPx).toBeCloseTo(lh, 10);
    expect(sub?.topPx).toBeCloseTo((h?.topPx ?? 0) + lh * 0.45, 10);
    expect(sup?.topPx).toBeCloseTo((h?.topPx ?? 0) - lh * 0.15, 10);
    expect(sub?.baselinePx).toBeGreaterThan(h?.baselinePx ?? 0);
    expect(sup?.baselinePx).toBeLessThan(h?.baselinePx ?? 0);
  });

  it('makes a line as tall as its tallest run, on a common baseline', () => {
    const lines = breakRuns(parseHtmlTags('small <font size="20">BIG</font><br>next'), arial10, 1000);
    const big = svc.resolve(fontSpec('Arial', 20));
    expect(lines[0]?.heightPx).toBeCloseTo(big.lineHeightPx, 10);
    expect(lines[0]?.baselinePx).toBeCloseTo(big.ascentPx, 10);
    for (const p of lines[0]?.pieces ?? []) expect(p.baselinePx).toBeCloseTo(big.ascentPx, 10);
    expect(lines[1]?.heightPx).toBeCloseTo(lineHeightPx(arial10), 10);
  });

  it('keeps empty lines, drops line breaks at the end', () => {
    const lines = breakRuns(parseHtmlTags('a<br><br>b<br>'), arial10, 1000);
    expect(lines.map((l) => l.pieces.map((p) => p.text).join(''))).toEqual(['a', '', 'b']);
    expect(lines[1]?.heightPx).toBeCloseTo(lineHeightPx(arial10), 10);
  });

  it("wraps styled text at spaces, across runs, and keeps a word's runs together", () => {
    const runs = parseHtmlTags('one <b>two</b> thr<i>ee</i> four');
    const max = measureWidth('thr four', arial10) + measureWidth('ee', fontSpec('Arial', 10, { italic: true })) + 0.01;
    const lines = breakRuns(runs, arial10, max);
    expect(lines.map((l) => l.pieces.map((p) => p.text).join(''))).toEqual(['one two', 'three four']);
    expect(lines[1]?.pieces.map((p) => [p.text, p.font.italic])).toEqual([
      ['thr', false],
      ['ee', true],
      [' four', false],
    ]);
  });

  it('does not wrap when wordWrap is false', () => {
    expect(breakRuns(parseHtmlTags('a <b>b</b> c d e f'), arial10, 5, { wordWrap: false })).toHaveLength(1);
  });

  it('uses a LineHeight for runs that set no face or size', () => {
    const lines = breakRuns(parseHtmlTags('a<br><font size="30">b</font>'), arial10, 1000, { lineHeightPx: 25 });
    expect(lines[0]?.heightPx).toBe(25);
    expect(lines[1]?.heightPx).toBeCloseTo(lineHeightPx(fontSpec('Arial', 30)), 10);
  });

  it('measures Greek and Cyrillic with faces that have them', () => {
    const [line] = breakRuns(parseHtmlTags('<b>Ωμέγα</b> Жёлтый'), fontSpec('Courier New', 10), 1000);
    for (const p of line?.pieces ?? []) {
      for (const run of svc.runs(p.text, p.font)) {
        for (const ch of run.text) expect(run.face.hasGlyph(ch.codePointAt(0) ?? 0)).toBe(true);
      }
    }
  });

  it('fits every line unless it holds a single character (property)', () => {
    const atoms = [
      'a',
      'W',
      ' ',
      '  ',
      '<b>',
      '</b>',
      '<i>',
      '<sub>',
      '</sub>',
      '<font size="16">',
      '</font>',
      '<br>',
      'xxxxxxxx',
      'Ж',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...atoms), { maxLength: 30 }).map((a) => a.join('')),
        fc.double({ min: 0, max: 200, noNaN: true }),
        (text, max) => {
          const lines = breakRuns(parseHtmlTags(text), arial10, max);
          for (const l of lines) {
            const shown = l.pieces.map((p) => p.text).join('');
            expect(shown.endsWith(' ')).toBe(false);
            if (l.widthPx > max + 1e-6) expect([...shown.replace(/^ +/, '')]).toHaveLength(1);
          }
          const plain = parseHtmlTags(text)
            .filter((r) => r.text !== '\n')
            .map((r) => r.text)
            .join('');
          expect(
            lines
              .map((l) => l.pieces.map((p) => p.text).join(''))
              .join('')
              .replace(/ /g, ''),
          ).toBe(plain.replace(/ /g, ''));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('measureHtmlBlock', () => {
  it('gives CanGrow heights for HtmlTags text: sum of line heights + padding + 1', () => {
    const b = measureHtmlBlock('line one<br><font size="20">big</font>', arial10, 200, {
      left: 2,
      top: 1,
      right: 2,
      bottom: 1,
    });
    expect(b.lines).toHaveLength(2);
    expect(b.heightPx).toBeCloseTo(lineHeightPx(arial10) + lineHeightPx(fontSpec('Arial', 20)) + 2 + 1, 10);
    expect(measureHtmlBlock('', arial10, 100).heightPx).toBe(0);
  });

  it('wraps to the width inside the padding', () => {
    const b = measureHtmlBlock('<b>aaa bbb ccc ddd eee</b>', arial10, 60);
    expect(b.lines.length).toBeGreaterThan(1);
    for (const l of b.lines) expect(l.widthPx).toBeLessThanOrEqual(56 + 1e-6);
  });

  it("starts from the object's style", () => {
    const b = measureHtmlBlock('x</b>y', fontSpec('Arial', 10, { bold: true }), 100);
    expect(b.runs.map((r) => r.bold)).toEqual([true, false]);
    expect(runFont(b.runs[0] as StyledRun, fontSpec('Arial', 10)).bold).toBe(true);
  });
});
