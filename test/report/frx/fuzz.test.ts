// Property tests: whatever is done to a real template, loading gives a model or a TemplateError,
// never another exception.

import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TemplateError } from '../../../src/report/errors.js';
import { loadFrx } from '../../../src/report/frx/load.js';
import { FIXTURES, fixtureBytes, frx } from './helpers.js';

const SOURCES = FIXTURES.map((name) => fixtureBytes(name));

const VALUES = [
  '',
  ' ',
  'true',
  'false',
  'NaN',
  '-1',
  '0',
  '1e400',
  '2147483648',
  'All',
  'None',
  'Bold',
  'Red',
  '1, 2, 3',
  '#FFF',
  'Glass',
  '__proto__',
  'Data1',
  '[x',
];

/** Makes a string safe inside a double-quoted attribute value. */
function escapeAttribute(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;');
}

const SNIPPETS = [
  '<ReportPage>',
  '<ReportPage Name="P9">',
  '</ReportPage>',
  '<DataBand Name="x">',
  '</DataBand>',
  '<GroupHeaderBand>',
  '<ChildBand/>',
  '<TextObject/>',
  '<TextObject Name="t" Text="[x]" Font="?" Format="Currency"/>',
  '<Highlight>',
  '<Condition/>',
  '<Formats><NumberFormat/></Formats>',
  '<Sort><Sort/></Sort>',
  '<Dictionary>',
  '<Total/>',
  '<Parameter><Parameter/></Parameter>',
  '<Column/>',
  '<TableObject><TableRow/></TableObject>',
  '<Report>',
  '<!DOCTYPE x>',
  '<![CDATA[',
  ']]>',
  '<!--',
  '-->',
  '<?pi x?>',
  '&amp;',
  '&bogus;',
  '&#0;',
  '&#x10FFFF;',
  '"',
  "'",
  '<',
  '>',
  '/>',
  '=',
  ' a="1"',
  ' Name=""',
  ' Left="NaN"',
  ' Border.Lines="All"',
  ' Fill="Glass"',
  '\u0000',
  '\uffff',
  '\ud800',
  'é',
  '\r\n',
];

type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate'; at: number; length: number }
  | { kind: 'attribute'; at: number; value: string }
  | { kind: 'drop'; at: number };

// Relative positions, roughly uniform (fc.double clusters near 0, i.e. the XML declaration).
const position = fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 1_000_000);
const mutation = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: position }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('flip' as const), at: position, byte: fc.integer({ min: 0, max: 255 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      at: position,
      text: fc.oneof(fc.constantFrom(...SNIPPETS), fc.string({ maxLength: 20 })),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      at: position,
      length: fc.integer({ min: 1, max: 200 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('duplicate' as const),
      at: position,
      length: fc.integer({ min: 1, max: 400 }),
    }),
  },
  // These two keep the XML well-formed, so the model builder gets exercised too.
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('attribute' as const),
      at: position,
      value: fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 12 })),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('drop' as const), at: position }) },
) as fc.Arbitrary<Mutation>;

/** Replaces the match of `re` nearest after the relative position `at` with `f(match)`. */
function replaceNth(input: Buffer, re: RegExp, at: number, f: (m: string) => string): Buffer {
  const text = input.toString('utf8');
  const matches = [...text.matchAll(re)];
  if (matches.length === 0) return input;
  const m = matches[Math.min(matches.length - 1, Math.floor(at * matches.length))] as RegExpMatchArray;
  const index = m.index ?? 0;
  return Buffer.from(text.slice(0, index) + f(m[0]) + text.slice(index + m[0].length));
}

function apply(input: Buffer, m: Mutation): Buffer {
  const at = Math.min(input.length, Math.floor(m.at * input.length));
  switch (m.kind) {
    case 'truncate':
      return input.subarray(0, at);
    case 'flip': {
      const out = Buffer.from(input);
      if (at < out.length) out[at] = m.byte;
      return out;
    }
    case 'insert':
      return Buffer.concat([input.subarray(0, at), Buffer.from(m.text), input.subarray(at)]);
    case 'delete':
      return Buffer.concat([input.subarray(0, at), input.subarray(at + m.length)]);
    case 'duplicate':
      return Buffer.concat([input.subarray(0, at + m.length), input.subarray(at)]);
    case 'attribute':
      return replaceNth(input, /="[^"]*"/g, m.at, () => `="${escapeAttribute(m.value)}"`);
    case 'drop':
      return replaceNth(input, /<[A-Za-z][^<>]*\/>/g, m.at, () => '');
  }
}

/** Loads and classifies: 'model' or 'template-error'; anything else fails the property. */
function outcome(input: Buffer | string): 'model' | 'template-error' {
  try {
    const { report, warnings } = loadFrx(input);
    expect(Array.isArray(report.pages)).toBe(true);
    expect(warnings.every((w) => typeof w === 'string')).toBe(true);
    // The model is plain data: it survives structured cloning (e.g. to a worker thread).
    structuredClone(report);
    return 'model';
  } catch (err) {
    if (err instanceof TemplateError) return 'template-error';
    throw err;
  }
}

describe('mutated fixtures', () => {
  it('give a model or a TemplateError, never another exception', () => {
    const seen = { model: 0, 'template-error': 0 };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: SOURCES.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (i, ms) => {
          const input = ms.reduce(apply, SOURCES[i] as Buffer);
          seen[outcome(input)]++;
        },
      ),
      { numRuns: 400 },
    );
    // Both outcomes really happen, so the property is not vacuous.
    expect(seen.model).toBeGreaterThan(10);
    expect(seen['template-error']).toBeGreaterThan(10);
  });

  it('do so as text and as gzip too', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: SOURCES.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (i, ms, zip) => {
          const mutated = ms.reduce(apply, SOURCES[i] as Buffer);
          outcome(zip ? gzipSync(mutated) : mutated.toString('utf8'));
          if (zip) outcome(apply(gzipSync(SOURCES[i] as Buffer), ms[0] as Mutation));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('arbitrary attribute values', () => {
  const KEYS = [
    'Left',
    'Top',
    'Width',
    'Height',
    'Visible',
    'Font',
    'Fill',
    'Fill.Color',
    'Fill.StartColor',
    'Fill.Angle',
    'Fill.Focus',
    'TextFill',
    'TextFill.Color',
    'Border.Lines',
    'Border.Color',
    'Border.Width',
    'Border.Style',
    'Border.LeftLine.Width',
    'Border.ShadowWidth',
    'Padding',
    'HorzAlign',
    'VertAlign',
    'Angle',
    'WordWrap',
    'Format',
    'Format.DecimalDigits',
    'Format.UseLocale',
    'PrintOn',
    'Anchor',
    'Dock',
    'Duplicates',
    'TextRenderType',
    'HtmlTags',
    'TabPositions',
    'MergeMode',
    'Hyperlink.Kind',
    'ShiftMode',
    'Text',
    'Name',
    'BeforePrintEvent',
    'CheckWidthRatio',
    'Trimming',
  ];
  const value = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...VALUES), fc.double().map(String));

  it('never make a well-formed template fail: they give warnings and defaults', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 12 }),
        fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 6 }),
        (textAttrs, bandAttrs) => {
          const attrs = (r: Record<string, string>) =>
            Object.entries(r)
              .map(([k, v]) => ` ${k}="${escapeAttribute(v)}"`)
              .join('');
          const xml = frx(
            `<DataBand${attrs(bandAttrs)}><TextObject${attrs(textAttrs)}/><CheckBoxObject${attrs(textAttrs)}/` +
              `><LineObject${attrs(textAttrs)}/></DataBand>`,
          );
          const { report } = loadFrx(xml);
          const band = report.pages[0]?.bands[0];
          expect(band?.objects).toHaveLength(3);
          for (const o of band?.objects ?? []) {
            for (const n of [o.left, o.top, o.width, o.height, o.border.leftLine.width])
              expect(Number.isFinite(n)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
