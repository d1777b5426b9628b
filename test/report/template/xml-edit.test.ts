// The in-place XML editing under merged templates: the scanner finds the same elements and
// attributes as the XML parser on every FastReport demo and on random documents, and merging
// into a demo changes nothing but the inserted connection.

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseXml, readXmlText, type XmlElement } from '../../../src/report/frx/index.js';
import { renderReport } from '../../../src/report/index.js';
import { mergeDataIntoTemplate } from '../../../src/report/template/index.js';
import { applyEdits, scanElements, type ElementSpan } from '../../../src/report/template/xml-scan.js';
import { escapeXmlAttribute, formatNumber, isXmlText } from '../../../src/report/template/xml-text.js';
import { CORE_DEMOS, DEMO_REPORTS_DIR } from '../../support/fastreport-demos.js';

const FIXTURES = [...CORE_DEMOS];

/** An attribute value as an XML parser reports it: references decoded, whitespace normalised. */
function decodeAttribute(raw: string): string {
  return raw.replace(/[\t\n\r]/g, ' ').replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e] as string;
  });
}

function sameTree(span: ElementSpan, el: XmlElement): void {
  expect(span.name).toBe(el.name);
  expect(Object.fromEntries(span.attrs.map((a) => [a.name, decodeAttribute(a.raw)]))).toEqual({ ...el.attrs });
  expect(span.children.map((c) => c.name)).toEqual(el.children.map((c) => c.name));
  span.children.forEach((c, i) => {
    sameTree(c, el.children[i] as XmlElement);
  });
}

describe('scanElements', () => {
  it.each(FIXTURES)('finds what the XML parser finds in %s', (f) => {
    const { text } = readXmlText(readFileSync(DEMO_REPORTS_DIR + f));
    const root = scanElements(text);
    sameTree(root, parseXml(text).root);
    // Spans point at the text: every start tag is where the scan says.
    const walk = (s: ElementSpan): void => {
      expect(text.slice(s.start, s.start + 1 + s.name.length)).toBe(`<${s.name}`);
      expect(text[s.openEnd - 1]).toBe('>');
      if (!s.selfClosing) expect(text.slice(s.closeStart, s.closeEnd)).toBe(`</${s.name}>`);
      s.children.forEach(walk);
    };
    walk(root);
  });

  it('skips comments, CDATA and processing instructions, and reads either quote', () => {
    const text =
      `<?xml version="1.0"?>\n<!-- <Fake a="1"/> -->\n<R a='x"y' b = "it's &gt; &amp;"><?pi <X/> ?><![CDATA[<Y ` +
      `z="1"/>]]><C/>text &lt;<D e="&#10;"></D></R>`;
    const root = scanElements(text);
    sameTree(root, parseXml(text).root);
    expect(root.children.map((c) => c.name)).toEqual(['C', 'D']);
  });

  it('agrees with the parser on random attribute values (escaped by escapeXmlAttribute)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.stringMatching(/^[A-Za-z_][\w.]{0,8}$/),
            fc.string({ unit: 'binary', maxLength: 20 }).filter(isXmlText),
          ),
          { maxLength: 5 },
        ),
        (pairs) => {
          const unique = [...new Map(pairs).entries()];
          const attrs = unique.map(([k, v]) => `${k}="${escapeXmlAttribute(v)}"`).join(' ');
          const text = `<Report ${attrs}><Dictionary ${attrs}/></Report>`;
          const el = parseXml(text).root;
          expect({ ...el.attrs }).toEqual(Object.fromEntries(unique));
          sameTree(scanElements(text), el);
        },
      ),
    );
  });

  it('applies edits at their offsets and refuses overlapping ones', () => {
    expect(
      applyEdits('abcdef', [
        { start: 4, end: 5, text: 'E' },
        { start: 1, end: 1, text: '+' },
      ]),
    ).toBe('a+bcdEf');
    expect(() =>
      applyEdits('abc', [
        { start: 0, end: 2, text: '' },
        { start: 1, end: 3, text: '' },
      ]),
    ).toThrow();
  });
});

describe('xml-text', () => {
  it('formats lengths as FastReport writes them', () => {
    expect([718.2, 18.9, 0, -0.001, 1 / 3, 210].map(formatNumber)).toEqual(['718.2', '18.9', '0', '0', '0.33', '210']);
  });

  it('knows what XML cannot carry', () => {
    expect(isXmlText('tab\tnewline\n€ 😀')).toBe(true);
    for (const bad of ['\u0000', '\u0001', '\ufffe', '\uffff', '\ud800', 'x\udc00']) expect(isXmlText(bad)).toBe(false);
  });
});

describe('merging into the FastReport demos', () => {
  it.each(FIXTURES)('%s: only a connection is inserted', (f) => {
    const bytes = readFileSync(DEMO_REPORTS_DIR + f);
    const { text } = readXmlText(bytes);
    const merged = mergeDataIntoTemplate(bytes, { rows: [{ a: 1 }] });
    expect(merged.charCodeAt(0)).toBe(0xfeff); // the BOM comes back too
    const inserted = /\r?\n[ \t]*<JsonDataSourceConnection Name="Connection" [\s\S]*?<\/JsonDataSourceConnection>/g;
    expect(merged.match(inserted)).toHaveLength(1);
    let back = merged.slice(1).replace(inserted, '');
    // A self-closing <Dictionary/> had to be opened to hold the connection.
    if (text.includes('<Dictionary/>')) back = back.replace(/<Dictionary>\r?\n[ \t]*<\/Dictionary>/, '<Dictionary/>');
    expect(back).toBe(text);
  });

  it('a demo with the connection added still renders the same', () => {
    const file = 'Simple List.frx';
    const bytes = readFileSync(DEMO_REPORTS_DIR + file);
    const datasetXml = readFileSync(`${DEMO_REPORTS_DIR}nwind.xml`);
    const now = new Date(Date.UTC(2024, 4, 17));
    const before = renderReport({ template: bytes, format: 'html', now, data: { datasetXml } }).output;
    const after = renderReport({
      template: mergeDataIntoTemplate(bytes, { rows: [] }),
      format: 'html',
      now,
      data: { datasetXml },
    }).output;
    expect(after).toBe(before);
  });
});
