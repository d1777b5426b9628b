// The safe XML reader on well-formed input.

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_XML_LIMITS, parseXml } from '../../../src/report/frx/xml.js';
import { templateError } from './helpers.js';

describe('parseXml', () => {
  it('builds the element tree with attributes, text and line numbers', () => {
    const { root } = parseXml(
      '<?xml version="1.0"?>\n<a x="1" y="&lt;&amp;&gt;&quot;&apos;&#13;&#10;&#x41;">\n  <b>hi &amp; ' +
        'bye</b>\n  <c/><![CDATA[<raw>]]>\n</a>',
    );
    expect(root.name).toBe('a');
    expect(root.line).toBe(2);
    expect({ ...root.attrs }).toEqual({ x: '1', y: '<&>"\'\r\nA' });
    expect(root.children.map((c) => [c.name, c.text, c.line])).toEqual([
      ['b', 'hi & bye', 3],
      ['c', '', 4],
    ]);
    expect(root.text).toContain('<raw>');
  });
  it('keeps any attribute name as a plain key (no prototype)', () => {
    const { root } = parseXml('<a __proto__="x" constructor="y"/>');
    expect(Object.getPrototypeOf(root.attrs)).toBeNull();
    // biome-ignore lint/suspicious/noProto: the point: `__proto__` is an ordinary key here
    expect(root.attrs.__proto__).toBe('x');
    expect(root.attrs.constructor).toBe('y');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
  it('tolerates a UTF-8 BOM and reads UTF-16 with a BOM', () => {
    const xml = '<a t="Grüße €"/>';
    expect(parseXml(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)])).root.attrs.t).toBe('Grüße €');
    expect(parseXml(`\ufeff${xml}`).root.attrs.t).toBe('Grüße €');
    expect(parseXml(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')])).root.attrs.t).toBe(
      'Grüße €',
    );
  });
  it('replaces invalid UTF-8 with a warning', () => {
    const doc = parseXml(Buffer.from([...Buffer.from('<a t="'), 0xff, ...Buffer.from('"/>')]));
    expect(doc.root.attrs.t).toBe('\ufffd');
    expect(doc.warnings[0]).toMatch(/not valid UTF-8/);
  });
  it('inflates gzip input', () => {
    const doc = parseXml(gzipSync(Buffer.from('<a><b/></a>')));
    expect(doc.root.children[0]?.name).toBe('b');
  });
  it('has documented default limits', () => {
    expect(DEFAULT_XML_LIMITS).toEqual({
      maxInputBytes: 20 * 1024 * 1024,
      maxDepth: 200,
      maxElements: 200_000,
      maxAttributeValueLength: 8 * 1024 * 1024,
    });
  });
  it('applies each limit, naming it and the line', () => {
    expect(templateError(() => parseXml('<a><b><c/></b></a>', { maxDepth: 2 })).message).toBe(
      'line 1: elements nested deeper than maxDepth (2)',
    );
    expect(templateError(() => parseXml('<a>\n<b/>\n<b/>\n</a>', { maxElements: 2 })).message).toBe(
      'line 3: more than maxElements (2) elements',
    );
    expect(templateError(() => parseXml('<a>\n<b x="12345"/></a>', { maxAttributeValueLength: 4 })).message).toBe(
      'line 2: attribute b/@x is longer than maxAttributeValueLength (4)',
    );
    expect(templateError(() => parseXml(Buffer.from('<a>0123456789</a>'), { maxInputBytes: 10 })).message).toBe(
      'input: input of 17 bytes is larger than maxInputBytes (10)',
    );
    expect(templateError(() => parseXml('<a>0123456789</a>', { maxInputBytes: 10 })).message).toBe(
      'input: input of at least 17 bytes is larger than maxInputBytes (10)',
    );
    // Counted in UTF-8 bytes, not characters.
    expect(templateError(() => parseXml('<a>€€€€€</a>', { maxInputBytes: 20 })).message).toMatch(/input of 22 bytes/);
    expect(templateError(() => parseXml(gzipSync(Buffer.alloc(1000, 'a')), { maxInputBytes: 100 })).message).toMatch(
      /inflates to more than maxInputBytes \(100\)/,
    );
    expect(() => parseXml('<a/>', { maxDepth: -1 })).toThrow(TypeError);
  });
  it('refuses malformed input with the line', () => {
    const e = templateError(() => parseXml('<a>\n<b>\n</a>'));
    expect(e.where).toBe('line 3');
    expect(e.message).toMatch(/^line 3: malformed XML: /);
    expect(templateError(() => parseXml('')).message).toMatch(/malformed XML/);
    expect(templateError(() => parseXml('   ')).message).toMatch(/malformed XML/);
    expect(templateError(() => parseXml('<a x=1/>')).message).toMatch(/malformed XML/);
    expect(templateError(() => parseXml('<a x="1" x="2"/>')).message).toMatch(/duplicate attribute/);
    expect(templateError(() => parseXml('<a/><b/>')).message).toMatch(/malformed XML/);
    expect(templateError(() => parseXml('<a>&nbsp;</a>')).message).toMatch(/undefined entity/);
    expect(templateError(() => parseXml('<a>&#0;</a>')).message).toMatch(/malformed XML/);
    expect(templateError(() => parseXml(gzipSync(Buffer.from('<a/>')).subarray(0, 12))).message).toMatch(
      /gzip input is corrupt/,
    );
  });
});
