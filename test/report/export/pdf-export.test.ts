// The PDF exporter feature by feature, on a template made for it, checked in the file itself
// (uncompressed), with pdftotext/pdffonts, and on pixels: the page rasterised by pdftoppm at
// 96 dpi, so one device pixel is one report pixel and positions can be checked directly.
// Also: document info, links, fonts and fallback, pictures (good, bad, unsupported), streaming.
//
// The PDF-tool parts are skipped with a message when the tools are missing (an error under
// REQUIRE_POPPLER=1); the rest always runs.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { PreparedReport, PreparedText } from '../../../src/report/engine/prepared.js';
import { exportPdf, exportPdfSync, exportPdfToStream, PdfWriter } from '../../../src/report/export/pdf/index.js';
import { renderReport } from '../../../src/report/render.js';
import {
  pdfFonts,
  pdfWords,
  POPPLER_AVAILABLE,
  qpdfCheck,
  rasterPage,
  runTool,
  type RasterPage,
} from '../../support/poppler.js';
import { FIXED_NOW, FIXTURE_DIR, runFixture } from '../engine/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pdf-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A solid-colour RGB PNG of w × h pixels (filter 0 rows). */
function solidPng(w: number, h: number, rgb: [number, number, number]): string {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer): number => {
    let c = 0xffffffff;
    for (const x of b) c = (crcTable[(c ^ x) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: h }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return png.toString('base64');
}

const RED_PNG = solidPng(10, 10, [255, 0, 0]);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64').toString('base64');
const BROKEN_PNG = Buffer.from(RED_PNG, 'base64').subarray(0, 60).toString('base64');

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const TEMPLATE =
  `<?xml version="1.0" encoding="utf-8"?>
<Report ReportInfo.Name="Ωmega report" ReportInfo.Author="Jane Doe" ReportInfo.Description="Feature check">
<ReportPage Name="Page1">
  <ReportTitleBand Name="Title" Width="718.2" Height="1000">
    <TextObject Name="Link" Left="10" Top="10" Width="200" Height="20" Text="Example link" ` +
  `Hyperlink.Value="https://example.com/a?b=1&amp;c=&quot;d&quot;"/>
    <TextObject Name="Js" Left="220" Top="10" Width="150" Height="20" Text="Bad link" ` +
  `Hyperlink.Value="javascript:alert(1)"/>
    <TextObject Name="Mail" Left="380" Top="10" Width="150" Height="20" Text="Mail link" ` +
  `Hyperlink.Value="mailto:someone@example.com"/>
    <TextObject Name="Rot" Left="10" Top="40" Width="40" Height="200" Text="Rotated text" Angle="90" ` +
  `Font="Arial, 12pt"/>
    <TextObject Name="Clip" Left="60" Top="40" Width="60" Height="40" Text="WWWWWW" Font="Arial, 30pt" ` +
  `WordWrap="false"/>
    <TextObject Name="NoClip" Left="60" Top="100" Width="60" Height="40" Text="WWWWWW" Font="Arial, ` +
  `30pt" WordWrap="false" Clip="false"/>
    <TextObject Name="Html" Left="300" Top="40" Width="400" Height="60" TextRenderType="HtmlTags" ` +
  `Font="Arial, 20pt" ` +
  `Text="${esc('<b>Bold</b> <i>Italic</i> H<sub>2</sub>O <font color="#ff0000">Red</font> x<sup>3</sup>')}"` +
  `/>
    <TextObject Name="Fallback" Left="300" Top="110" Width="400" Height="30" Text="Rubles ₽ check ✓ ` +
  `Ωmega Жук" Font="Courier New, 12pt"/>
    <TextObject Name="Under" Left="300" Top="150" Width="300" Height="30" Text="Underlined" ` +
  `Font="Arial, 16pt, style=Underline"/>
    <TextObject Name="Borders" Left="200" Top="250" Width="100" Height="60" Border.Lines="Left, Bottom" ` +
  `Border.LeftLine.Color="Red" Border.LeftLine.Width="4" Border.BottomLine.Color="Blue" ` +
  `Border.BottomLine.Width="6"/>
    <TextObject Name="Gradient" Left="350" Top="250" Width="200" Height="60" Fill="LinearGradient" ` +
  `Fill.StartColor="Red" Fill.EndColor="Blue" Fill.Angle="0" Fill.Focus="1"/>
    <ShapeObject Name="Ellipse" Left="10" Top="330" Width="100" Height="60" Shape="Ellipse" ` +
  `Fill.Color="Lime" Border.Width="1"/>
    <LineObject Name="Dashed" Left="150" Top="360" Width="400" Border.Width="2" Border.Style="Dash"/>
    <CheckBoxObject Name="Check" Left="600" Top="330" Width="40" Height="40" Border.Lines="All" Checked="true"/>
    <TextObject Name="Glass" Left="10" Top="500" Width="100" Height="60" Fill="Glass" Fill.Color="Navy" ` +
  `Fill.Blend="0.5"/>
    <TextObject Name="Hatch" Left="130" Top="500" Width="100" Height="60" Fill="Hatch" ` +
  `Fill.ForeColor="Black" Fill.BackColor="Yellow"/>
    <TextObject Name="Radial" Left="250" Top="500" Width="100" Height="60" Fill="PathGradient" ` +
  `Fill.CenterColor="White" Fill.EdgeColor="Black" Fill.Style="Rectangular"/>
    <TextObject Name="Texture" Left="370" Top="500" Width="35" Height="25" Fill="Texture" Fill.ImageData="${RED_PNG}"/>
    <PictureObject Name="Normal" Left="10" Top="420" Width="100" Height="50" SizeMode="Normal" Image="${RED_PNG}"/>
    <PictureObject Name="Zoom" Left="150" Top="420" Width="100" Height="50" SizeMode="Zoom" Image="${RED_PNG}"/>
    <PictureObject Name="Gif" Left="300" Top="420" Width="50" Height="50" Image="${GIF}"/>
    <PictureObject Name="Broken" Left="400" Top="420" Width="50" Height="50" Image="${BROKEN_PNG}"/>
  </ReportTitleBand>
</ReportPage></Report>`;

const result = renderReport({ template: TEMPLATE, format: 'pdf', now: FIXED_NOW });
const pdf = result.output as Buffer;
const prepared = result.prepared;
const file = join(dir, 'features.pdf');
writeFileSync(file, pdf);
const plain = exportPdfSync(prepared, { compress: false, creationDate: FIXED_NOW, title: 'T' }).toString('latin1');

const item = (name: string): PreparedReport['pages'][number]['items'][number] => {
  const it = prepared.pages[0]?.items.find((i) => i.name === name);
  if (!it) throw new Error(`no item ${name}`);
  return it;
};

describe('the PDF file', () => {
  it('is a PDF 1.4 file with document info and the warnings of left-out pictures', () => {
    expect(pdf.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(pdf.subarray(-6).toString('latin1')).toMatch(/%%EOF\n?$/);
    expect(result.warnings.some((w) => w.includes('Gif') && w.includes('only JPEG, PNG, BMP and ICO'))).toBe(true);
    expect(result.warnings.some((w) => w.includes('Broken') && w.includes('picture left out'))).toBe(true);
  });

  it('links only http, https and mailto targets, as URI actions over the object', () => {
    const uris = [...plain.matchAll(/\/URI \(([^)]*(?:\\\)[^)]*)*)\)/g)].map((m) => m[1]);
    expect(uris).toEqual(['https://example.com/a?b=1&c=%22d%22', 'mailto:someone@example.com']);
    expect(plain).not.toContain('javascript');
    // The link's rectangle is the object's box in points (y from the bottom of the page).
    const rect = /\/Rect \[([\d. -]+)\]/.exec(plain)?.[1]?.split(' ').map(Number) ?? [];
    const link = item('Link');
    const pageH = (prepared.pages[0]?.heightPx ?? 0) * 0.75;
    expect(rect[0]).toBeCloseTo(link.x * 0.75, 2);
    expect(rect[1]).toBeCloseTo(pageH - (link.y + link.height) * 0.75, 2);
    expect(rect[2]).toBeCloseTo((link.x + link.width) * 0.75, 2);
    expect(rect[3]).toBeCloseTo(pageH - link.y * 0.75, 2);
  });

  it('draws rotated text by rotating the frame, clipped text inside a clip path', () => {
    // 90°: cos 0, sin 1 in the user space (y down).
    expect(plain).toMatch(/\n0 1 -1 0 [\d.]+ [\d.]+ cm\n/);
    expect(plain).toMatch(/\n[\d.]+ [\d.]+ 60 40 re\nW n\n/);
  });

  it('keeps a report of many pages small: fonts subset, streams compressed', () => {
    const big = runFixture('Double Pass, Total Pages.frx').prepared;
    const bytes = exportPdfSync(big);
    // 25 pages of text in three faces.
    expect(big.pages.length).toBeGreaterThan(20);
    expect(bytes.length / big.pages.length).toBeLessThan(6000);
  });
});

describe('output and streaming', () => {
  const report = runFixture('Double Pass, Total Pages.frx').prepared;
  const opts = { creationDate: FIXED_NOW, title: 'x' };

  it('exportPdf (a Promise) and exportPdfSync give the same bytes', async () => {
    expect((await exportPdf(report, opts)).equals(exportPdfSync(report, opts))).toBe(true);
  });

  it('PdfWriter hands out each page as soon as the next one starts', () => {
    const w = new PdfWriter(opts);
    const sizes: number[] = [];
    for (const page of report.pages) {
      w.addPage(page);
      sizes.push(w.take().reduce((n, c) => n + c.length, 0));
    }
    w.end();
    const tail = w.take().reduce((n, c) => n + c.length, 0);
    // Every page after the first flushes its predecessor's content (a few kB), never more than
    // a couple of pages' worth at once.
    expect(sizes.slice(1).every((s) => s > 500 && s < 20_000)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0) + tail).toBe(exportPdfSync(report, opts).length);
  });

  it('exportPdfToStream waits for a slow stream and writes the same bytes', async () => {
    const chunks: Buffer[] = [];
    let fullCount = 0;
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        setImmediate(done);
      },
    });
    const write = slow.write.bind(slow);
    slow.write = ((c: Buffer) => {
      const ok = write(c);
      if (!ok) fullCount++;
      return ok;
    }) as typeof slow.write;
    await exportPdfToStream(report, slow, opts);
    expect(slow.writableFinished).toBe(true);
    expect(fullCount).toBeGreaterThan(0);
    expect(Buffer.concat(chunks).equals(exportPdfSync(report, opts))).toBe(true);
  });

  it('a stream that fails makes exportPdfToStream reject (no crash, no hang)', async () => {
    const broken = new Writable({
      highWaterMark: 16,
      write(_c, _e, done) {
        done(new Error('disk full'));
      },
    });
    broken.on('error', () => undefined);
    await expect(exportPdfToStream(report, broken, opts)).rejects.toThrow(/disk full|closed/);
  });
});

// --------------------------------------------------------------------------------------------
// With the PDF tools

const raster: RasterPage | undefined = POPPLER_AVAILABLE ? rasterPage(file, 1, 96) : undefined;

function px(x: number, y: number): [number, number, number] {
  const r = raster as RasterPage;
  const i = (Math.round(y) * r.width + Math.round(x)) * 3;
  return [r.rgb[i] ?? 0, r.rgb[i + 1] ?? 0, r.rgb[i + 2] ?? 0];
}
const isWhite = ([r, g, b]: [number, number, number]): boolean => r > 245 && g > 245 && b > 245;
/** Pixels in a rectangle that are not white. */
function ink(x: number, y: number, w: number, h: number): number {
  let n = 0;
  for (let j = Math.round(y); j < Math.round(y + h); j++)
    for (let i = Math.round(x); i < Math.round(x + w); i++) if (!isWhite(px(i, j))) n++;
  return n;
}

describe.skipIf(!POPPLER_AVAILABLE)('the PDF checked with the PDF tools', () => {
  const words = POPPLER_AVAILABLE ? (pdfWords(file)[0]?.words ?? []) : [];

  it('passes qpdf --check and embeds every font it uses, the fallback faces included', () => {
    expect(qpdfCheck(file).status).toBe(0);
    const fonts = pdfFonts(file);
    expect(fonts.every((f) => f.embedded && f.subset && f.unicode)).toBe(true);
    const names = fonts.map((f) => f.name.replace(/^[A-Z]{6}\+/, '')).sort();
    // Courier New → Cousine; ₽ is not in Cousine (→ Arimo), ✓ in neither (→ DejaVu Sans);
    // HtmlTags bold and italic runs.
    expect(names).toEqual(
      expect.arrayContaining(['Cousine-Regular', 'Arimo-Regular', 'DejaVuSans', 'Arimo-Bold', 'Arimo-Italic']),
    );
  });

  it('has the document title, author and subject from ReportInfo', () => {
    const head = runTool('pdftotext', ['-bbox', file, '-']).stdout.toString('utf8');
    expect(head).toContain('<title>Ωmega report</title>');
    expect(head).toContain('<meta name="Author" content="Jane Doe"/>');
    expect(head).toContain('<meta name="Subject" content="Feature check"/>');
  });

  it('has real text, fallback characters and HtmlTags runs included', () => {
    const all = words.map((w) => w.text).join(' ');
    for (const s of ['Example link', 'Rubles ₽ check ✓ Ωmega Жук', 'Bold', 'Italic', 'Red', 'Underlined'])
      expect(all).toContain(s);
    // Sub and sup: smaller, the "2" of H2O below the H's baseline, the "3" of x3 above the x.
    const word = (t: string): (typeof words)[number] => {
      const w = words.find((x) => x.text === t);
      if (!w) throw new Error(`no word "${t}" in ${words.map((x) => x.text).join(' ')}`);
      return w;
    };
    const [h, two, x, three] = [word('H'), word('2'), word('x'), word('3')];
    expect(two.yMax - two.yMin).toBeCloseTo((h.yMax - h.yMin) * 0.6, 1);
    expect(two.yMax).toBeGreaterThan(h.yMax + 1);
    expect(three.yMin).toBeLessThan(x.yMin - 1);
  });

  it('draws the <font color> run in red and the rest in black', () => {
    const red = words.find((w) => w.text === 'Red');
    const bold = words.find((w) => w.text === 'Bold');
    if (!red || !bold) throw new Error('runs not found');
    const count = (w: typeof red, test: (p: [number, number, number]) => boolean): number => {
      let n = 0;
      for (let y = w.yMin / 0.75; y < w.yMax / 0.75; y++)
        for (let x = w.xMin / 0.75; x < w.xMax / 0.75; x++) if (test(px(x, y))) n++;
      return n;
    };
    expect(count(red, ([r, g, b]) => r > 200 && g < 80 && b < 80)).toBeGreaterThan(20);
    expect(count(bold, ([r, g, b]) => r < 60 && g < 60 && b < 60)).toBeGreaterThan(20);
    expect(count(bold, ([r, g, b]) => r > 200 && g < 80 && b < 80)).toBe(0);
  });

  it('rotates text by its Angle (90°: reading downwards, in a tall box)', () => {
    const rot = words.filter((w) => w.text === 'Rotated' || w.text === 'text');
    expect(rot.length).toBe(2);
    for (const w of rot) expect(w.yMax - w.yMin).toBeGreaterThan(w.xMax - w.xMin);
    const t = item('Rot');
    expect(ink(t.x, t.y, t.width, t.height)).toBeGreaterThan(50);
  });

  it('clips text to its box when Clip is set, and only then', () => {
    const clip = item('Clip');
    const noClip = item('NoClip');
    expect(ink(clip.x, clip.y, clip.width, clip.height)).toBeGreaterThan(100);
    expect(ink(clip.x + clip.width + 1, clip.y, 150, clip.height)).toBe(0);
    expect(ink(noClip.x + noClip.width + 1, noClip.y, 150, noClip.height)).toBeGreaterThan(100);
  });

  it('underlines text with a font underline', () => {
    const w = words.find((x) => x.text === 'Underlined');
    if (!w) throw new Error('no word');
    // A dark row below the baseline across the word (the descender-free word has no ink there otherwise).
    const t = item('Under') as PreparedText;
    const baseline = t.y + t.frame.y + (t.lines[0]?.y ?? 0) + t.ascent;
    let found = false;
    for (let y = Math.round(baseline) + 1; y < baseline + 5 && !found; y++) {
      let dark = 0;
      for (let x = w.xMin / 0.75 + 2; x < w.xMax / 0.75 - 2; x++) if (px(x, y)[0] < 100) dark++;
      found = dark > (w.xMax - w.xMin) / 0.75 - 8;
    }
    expect(found).toBe(true);
  });

  it('draws each border side in its own colour and width', () => {
    const b = item('Borders');
    // Left: red, 4 px centred on the edge; top and right: none; bottom: blue, 6 px.
    expect(px(b.x, b.y + 30)).toEqual([255, 0, 0]);
    expect(isWhite(px(b.x - 3, b.y + 30))).toBe(true);
    expect(px(b.x + 50, b.y + b.height)).toEqual([0, 0, 255]);
    expect(isWhite(px(b.x + 50, b.y + b.height - 4))).toBe(true);
    expect(isWhite(px(b.x + 50, b.y))).toBe(true);
    expect(isWhite(px(b.x + b.width, b.y + 30))).toBe(true);
  });

  it('fills a linear gradient from the start colour to the end colour', () => {
    const g = item('Gradient');
    const left = px(g.x + 2, g.y + 30);
    const right = px(g.x + g.width - 2, g.y + 30);
    const mid = px(g.x + g.width / 2, g.y + 30);
    expect(left[0]).toBeGreaterThan(240);
    expect(left[2]).toBeLessThan(15);
    expect(right[2]).toBeGreaterThan(240);
    expect(right[0]).toBeLessThan(15);
    expect(mid[0]).toBeGreaterThan(110);
    expect(mid[0]).toBeLessThan(145);
  });

  it('fills the ellipse inside, not its corners; dashes the dashed line', () => {
    const e = item('Ellipse');
    expect(px(e.x + e.width / 2, e.y + e.height / 2)).toEqual([0, 255, 0]);
    expect(isWhite(px(e.x + 3, e.y + 3))).toBe(true);
    const l = item('Dashed');
    let changes = 0;
    let prev = false;
    for (let x = l.x + 2; x < l.x + l.width - 2; x++) {
      const on = !isWhite(px(x, l.y));
      if (on !== prev) changes++;
      prev = on;
    }
    // Dash 6 px, gap 2 px (3 and 1 line widths) along 400 px: about 100 changes.
    expect(changes).toBeGreaterThan(60);
  });

  it('paints glass (lighter upper half), hatch (both colours), a path gradient and a texture', () => {
    const g = item('Glass');
    const upper = px(g.x + 50, g.y + 10);
    const lower = px(g.x + 50, g.y + 50);
    expect(lower).toEqual([0, 0, 128]);
    expect(upper[0]).toBeGreaterThan(100);
    expect(upper[2]).toBeGreaterThan(180);
    const h = item('Hatch');
    let yellow = 0;
    let black = 0;
    for (let y = h.y + 2; y < h.y + h.height - 2; y++) {
      for (let x = h.x + 2; x < h.x + h.width - 2; x++) {
        const [r, gg, b] = px(x, y);
        if (r > 240 && gg > 240 && b < 20) yellow++;
        if (r < 60 && gg < 60 && b < 60) black++;
      }
    }
    expect(yellow).toBeGreaterThan(black);
    expect(black).toBeGreaterThan(100);
    const r = item('Radial');
    expect(px(r.x + r.width / 2, r.y + r.height / 2)[0]).toBeGreaterThan(240);
    expect(px(r.x + 2, r.y + r.height / 2)[0]).toBeLessThan(40);
    // A 10 × 10 red texture repeated: red everywhere in the 35 × 25 box, nothing outside it.
    const t = item('Texture');
    for (const [dx, dy] of [
      [1, 1],
      [12, 3],
      [33, 23],
      [25, 15],
    ] as const)
      expect(px(t.x + dx, t.y + dy)).toEqual([255, 0, 0]);
    expect(isWhite(px(t.x + t.width + 2, t.y + 5))).toBe(true);
  });

  it('draws the check mark of a checked box', () => {
    const c = item('Check');
    expect(ink(c.x + c.width * 0.3, c.y + c.height * 0.3, c.width * 0.4, c.height * 0.4)).toBeGreaterThan(10);
  });

  it('places pictures by SizeMode: Normal at their size top-left, Zoom as large as fits', () => {
    const n = item('Normal');
    // The 10 × 10 PNG at the top-left of the padded area (PictureObject padding is 0).
    expect(px(n.x + 5, n.y + 5)).toEqual([255, 0, 0]);
    expect(isWhite(px(n.x + 15, n.y + 5))).toBe(true);
    expect(isWhite(px(n.x + 5, n.y + 15))).toBe(true);
    const z = item('Zoom');
    // Zoomed to 50 × 50, centred in 100 × 50: red from x + 25 to x + 75.
    expect(px(z.x + 50, z.y + 25)).toEqual([255, 0, 0]);
    expect(px(z.x + 27, z.y + 2)).toEqual([255, 0, 0]);
    expect(isWhite(px(z.x + 22, z.y + 25))).toBe(true);
    expect(isWhite(px(z.x + 78, z.y + 25))).toBe(true);
    // The GIF and the broken PNG are left out.
    const gif = item('Gif');
    expect(ink(gif.x, gif.y, gif.width, gif.height)).toBe(0);
  });
});

describe.skipIf(!POPPLER_AVAILABLE)('CLI: platform-core render --format pdf', () => {
  it('writes a valid PDF to --out or to stdout, and fails cleanly when it cannot write', async () => {
    const { ensureBuilt, runCli } = await import('./cli.js');
    ensureBuilt();
    const out = join(dir, 'cli.pdf');
    const res = await runCli([
      'render',
      `${FIXTURE_DIR}Purchase Order.frx`,
      '--data',
      `${FIXTURE_DIR}nwind.xml`,
      '--format',
      'pdf',
      '--out',
      out,
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(qpdfCheck(out).status).toBe(0);
    expect(pdfWords(out)[0]?.words.map((w) => w.text)).toContain('PURCHASE');
    const piped = await runCli([
      'render',
      `${FIXTURE_DIR}Purchase Order.frx`,
      '--data',
      `${FIXTURE_DIR}nwind.xml`,
      '--format',
      'pdf',
    ]);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.startsWith('%PDF-1.4')).toBe(true);
    expect(piped.stdout.trimEnd().endsWith('%%EOF')).toBe(true);
    const bad = await runCli([
      'render',
      `${FIXTURE_DIR}Purchase Order.frx`,
      '--data',
      `${FIXTURE_DIR}nwind.xml`,
      '--format',
      'pdf',
      '--out',
      join(dir, 'no', 'such', 'dir.pdf'),
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/cannot write/);
  }, 120_000);
});
