// The page content stream itself: texts in a row share one text object (BT…ET) and write their
// colour and font only when they change, never a path or a q/Q inside a text object; fills in
// between (q…Q) give back the colour and font they found. Page content is deflated at the
// level asked for, and the content inflates to the same operators at every level.

import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { exportPdfSync } from '../../../src/report/export/pdf/index.js';
import { renderReport } from '../../../src/report/render.js';
import { FIXED_NOW, runFixture } from '../engine/helpers.js';

const TEMPLATE =
  `<?xml version="1.0" encoding="utf-8"?>
<Report><ReportPage Name="Page1">
  <ReportTitleBand Name="Title" Width="718.2" Height="200">
    <TextObject Name="A" Left="10" Top="10" Width="100" Height="20" Text="Red one" TextFill.Color="Red"/>
    <TextObject Name="B" Left="120" Top="10" Width="100" Height="20" Text="Red two" TextFill.Color="Red"/>
    <TextObject Name="C" Left="10" Top="40" Width="100" Height="20" Text="Black on yellow" Fill.Color="Yellow"/>
    <TextObject Name="D" Left="120" Top="40" Width="100" Height="20" Text="Red three" TextFill.Color="Red"/>
    <TextObject Name="E" Left="230" Top="40" Width="100" Height="20" Text="Red bold" TextFill.Color="Red" ` +
  `Font="Arial, 10pt, style=Bold"/>
    <TextObject Name="F" Left="10" Top="70" Width="200" Height="20" Text="Underlined" TextFill.Color="Red" ` +
  `Font="Arial, 10pt, style=Underline"/>
    <TextObject Name="G" Left="230" Top="70" Width="100" Height="20" Text="Red again" TextFill.Color="Red"/>
  </ReportTitleBand>
</ReportPage></Report>`;

/** Text that takes the other paths: shaped and right to left, HtmlTags runs with colours and a
 *  background, rotated, clipped, in a gradient brush, with an alpha colour. */
const MIXED =
  `<?xml version="1.0" encoding="utf-8"?>
<Report><ReportPage Name="Page1">
  <ReportTitleBand Name="Title" Width="718.2" Height="300">
    <TextObject Name="Rtl" Left="10" Top="10" Width="200" Height="20" Text="שלום עולם 123" RightToLeft="true"/>
    <TextObject Name="Deva" Left="220" Top="10" Width="200" Height="20" Text="नमस्ते दुनिया"/>
    <TextObject Name="Html" Left="10" Top="40" Width="300" Height="20" HtmlTags="true" ` +
  `Text="a &lt;b&gt;bold&lt;/b&gt; &lt;font color=&quot;red&quot;&gt;red&lt;/font&gt; ` +
  `&lt;span style=&quot;background-color:yellow&quot;&gt;marked&lt;/span&gt; end"/>
    <TextObject Name="Rot" Left="10" Top="70" Width="40" Height="150" Text="Rotated" Angle="90"/>
    <TextObject Name="Clip" Left="60" Top="70" Width="40" Height="20" Text="WWWWWWWW" WordWrap="false"/>
    <TextObject Name="Brush" Left="110" Top="70" Width="200" Height="40" Text="Gradient" Font="Arial, 20pt" ` +
  `TextFill="LinearGradient" TextFill.StartColor="Red" TextFill.EndColor="Blue"/>
    <TextObject Name="Alpha" Left="320" Top="70" Width="200" Height="20" Text="Half" TextFill.Color="128, 255, 0, 0"/>
    <TextObject Name="After" Left="320" Top="100" Width="200" Height="20" Text="After"/>
  </ReportTitleBand>
</ReportPage></Report>`;

/** The content streams of the pages, inflated when compressed, as text. */
function pageContents(pdf: Buffer): string[] {
  const s = pdf.toString('latin1');
  return [...s.matchAll(/\/Contents (\d+) 0 R/g)].map((m) => {
    const at = s.indexOf(`\n${m[1]} 0 obj\n`);
    const start = s.indexOf('stream\n', at) + 'stream\n'.length;
    const end = s.indexOf('\nendstream', start);
    const dict = s.slice(at, start);
    const raw = pdf.subarray(start, end);
    return (dict.includes('/FlateDecode') ? inflateSync(raw) : raw).toString('latin1');
  });
}

/** Operators (the last word of each line) with the problems of text object nesting. */
function textObjectErrors(content: string): string[] {
  const errors: string[] = [];
  let open = false;
  // Inside BT…ET: text state, positioning and showing, colour, marked content (PDF 32000 8.2).
  const allowed = /^(Tf|Tm|Td|TJ|Tj|Tc|Tw|Tz|TL|Ts|Tr|rg|RG|g|G|k|K|cs|CS|sc|scn|SC|SCN|gs|BDC|BMC|EMC)$/;
  for (const line of content.split('\n')) {
    const op = line.slice(line.lastIndexOf(' ') + 1);
    if (op === 'BT') {
      if (open) errors.push('BT inside a text object');
      open = true;
    } else if (op === 'ET') {
      if (!open) errors.push('ET outside a text object');
      open = false;
    } else if (open && op !== '' && !allowed.test(op)) errors.push(`${line} inside a text object`);
  }
  if (open) errors.push('text object not ended');
  return errors;
}

const opsOf = (content: string, op: string): string[] => content.split('\n').filter((l) => l.endsWith(` ${op}`));

describe('text objects in the page content', () => {
  const prepared = renderReport({ template: TEMPLATE, format: 'html', now: FIXED_NOW }).prepared;
  const content = pageContents(exportPdfSync(prepared, { compress: false, creationDate: FIXED_NOW }))[0] ?? '';

  it('texts in a row share one text object; a fill or an underline ends it', () => {
    expect(textObjectErrors(content)).toEqual([]);
    const lines = content.split('\n');
    // A and B; C, D, E and F after C's fill, up to F's underline; G after it.
    expect(lines.filter((l) => l === 'BT')).toHaveLength(3);
    expect(lines.filter((l) => l.endsWith(' TJ'))).toHaveLength(7);
  });

  it('writes a colour only when it changes, knowing that Q restores the one before q', () => {
    // Red (A, B), yellow (C's fill, inside q…Q), black (C's text: after the Q the colour is red
    // again), red (D, E, F, its underline, G).
    expect(opsOf(content, 'rg')).toEqual(['1 0 0 rg', '1 1 0 rg', '0 0 0 rg', '1 0 0 rg']);
    expect(content).not.toContain('DeviceRGB');
  });

  it('writes a font only when it changes (the font outlives ET and is restored by Q)', () => {
    // Regular for A–D, bold for E, regular again for F (underline is a decoration, same face).
    const fonts = opsOf(content, 'Tf').map((l) => l.split(' ')[0]);
    expect(fonts).toHaveLength(3);
    expect(fonts[0]).toBe(fonts[2]);
    expect(fonts[1]).not.toBe(fonts[0]);
  });

  it('keeps text objects well formed in reports with every kind of item and text', () => {
    const names = ['Double Pass, Total Pages.frx', 'Text.frx', 'Purchase Order.frx', 'Lines and Shapes.frx'];
    const reports = names.map((name) => ({ name, prepared: runFixture(name).prepared }));
    reports.push({
      name: 'mixed',
      prepared: renderReport({ template: MIXED, format: 'html', now: FIXED_NOW }).prepared,
    });
    for (const { name, prepared } of reports) {
      const pdf = exportPdfSync(prepared, { compress: false, creationDate: FIXED_NOW });
      for (const c of pageContents(pdf)) expect(textObjectErrors(c), name).toEqual([]);
    }
  });
});

describe('page content compression', () => {
  const prepared = runFixture('Double Pass, Total Pages.frx').prepared;
  const opts = { creationDate: FIXED_NOW };
  const plain = pageContents(exportPdfSync(prepared, { ...opts, compress: false }));

  it('inflates to the same operators at every level; a higher level gives a smaller file', () => {
    const sizes: number[] = [];
    for (const level of [1, 3, 6, 9]) {
      const pdf = exportPdfSync(prepared, { ...opts, contentDeflateLevel: level });
      expect(pageContents(pdf)).toEqual(plain);
      sizes.push(pdf.length);
    }
    expect(sizes[0]).toBeGreaterThan(sizes[3] ?? 0);
    // The default is level 3.
    expect(exportPdfSync(prepared, opts).equals(exportPdfSync(prepared, { ...opts, contentDeflateLevel: 3 }))).toBe(
      true,
    );
  });

  it('refuses a level zlib does not have', () => {
    expect(() => exportPdfSync(prepared, { ...opts, contentDeflateLevel: 10 })).toThrow(RangeError);
    expect(() => exportPdfSync(prepared, { ...opts, contentDeflateLevel: 2.5 })).toThrow(RangeError);
  });
});
