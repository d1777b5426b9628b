// Barcodes that scan: FastReport's Barcode and QR-Codes demos rendered to PDF, each
// page rasterised at 300 dpi by poppler, each barcode cut out at its box and read by a real
// decoder: zbar for the symbologies it reads, ZXing for the 2-D ones zbar does not (Data Matrix,
// PDF417, Aztec, MaxiCode) and GS1 DataBar Limited. The value each must read as is what
// FastReport encodes for the demo's text (its check digit rules: EAN-13's supplied check digit
// replaced, Code 39's modulo 43 character appended, …). The symbologies no decoder reads are
// checked bar by bar in barcode-patterns.test.ts.

import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { PreparedBarcode, PreparedPage } from '../../../src/report/engine/prepared.js';
import { renderReport } from '../../../src/report/index.js';
import {
  crop,
  type Decoded,
  type Gray,
  rasterize,
  ZBARIMG,
  zbarRead,
  zxingRead,
} from '../../support/barcode-readers.js';
import { CHROMIUM, CHROMIUM_LAUNCH_ARGS, REQUIRE_CHROMIUM } from '../../support/chromium.js';
import { demoFile } from '../../support/fastreport-demos.js';
import { POPPLER_AVAILABLE } from '../../support/poppler.js';
import { NWIND_TEXT, nwindRows } from '../engine/helpers.js';

const DPI = 300;
const BARCODE = 'Reports/Barcode.frx';
const QR_CODES = 'Reports/QR-Codes.frx';
const BADGES = 'Reports/Badges.frx';
const BOX = 'Reports/Box.frx';
const canRun = POPPLER_AVAILABLE && ZBARIMG !== undefined;

type Reader = 'zbar' | 'zxing';

/** Barcode.frx: each object, the reader and what it must read. */
const BARCODE_DEMO: Record<string, [Reader, string]> = {
  Barcode19: ['zbar', '12345678'], // 2/5 Interleaved without check digit
  Barcode22: ['zbar', 'A12345678B'], // Codabar, start A and stop B
  Barcode23: ['zbar', '123456L'], // Code 39 + its modulo 43 check character
  Barcode37: ['zbar', '123456L'], // Code 39 Extended (zbar does not expand full ASCII; digits are plain)
  Barcode24: ['zbar', '12345678'], // Code 93 (the reader strips its two check characters)
  Barcode36: ['zbar', '12345678'], // Code 93 Extended
  Barcode25: ['zbar', '12345678'], // Code 128
  Barcode26: ['zbar', '12345670'], // EAN-8: seven digits + check 0
  Barcode27: ['zbar', '1234567890128'], // EAN-13: the template's check digit 3 replaced by 8
  Barcode28: ['zbar', '123456789012'], // UPC-A
  Barcode29: ['zbar', '01234565'], // UPC-E, number system 0
  Barcode30: ['zbar', '12'], // EAN-2 supplement (of "12345678" cut to 2)
  Barcode31: ['zbar', '12345'], // EAN-5 supplement
  Barcode1: ['zxing', '(10)123456'], // GS1-128: FNC1, AI 10 (ZXing shows the AI in parentheses)
  Barcode49: ['zbar', '123451234561'], // Deutsche Post Identcode: 11 digits + 4/9 check
  Barcode50: ['zbar', '12345123123125'], // Deutsche Post Leitcode: 13 digits + 4/9 check
  Barcode48: ['zbar', '00000123456784'], // ITF-14: "12345678" padded to 13 + check
  Barcode52: ['zbar', '0112345678901231'], // GS1 DataBar: (01) + GTIN-14 of the first 13 digits
  Barcode53: ['zxing', '(01)12345678901231'], // GS1 DataBar Limited (ZXing shows the AI in parentheses)
  Barcode54: ['zbar', '0112345678901231'], // GS1 DataBar Stacked Omnidirectional
  Barcode55: ['zbar', '0112345678901231'], // GS1 DataBar Stacked
  Barcode45: ['zbar', 'http://fast-report.com'], // QR
  Barcode46: ['zxing', 'http://fast-report.com'], // Aztec
  Barcode44: ['zxing', '12345678'], // Data Matrix 24 × 24
  Barcode56: ['zxing', '(02)00000123456789'], // GS1 Data Matrix
  Barcode43: ['zxing', '12345678'], // PDF417
  Barcode42: ['zxing', 'http://fast-report.com'], // MaxiCode mode 4
};
/** Read by no decoder here: their bars are checked in barcode-patterns.test.ts. */
const BY_PATTERN = [
  'Barcode20',
  'Barcode21',
  'Barcode32',
  'Barcode33',
  'Barcode40',
  'Barcode2',
  'Barcode3',
  'Barcode51',
];

async function read(reader: Reader, img: Gray): Promise<Decoded[]> {
  return reader === 'zbar' ? zbarRead(img) : zxingRead(img);
}

const normalise = (s: string): string => s.replace(/\r\n/g, '\n').replace(/\u001d/g, '');

async function renderPdf(path: string, datasetXml?: string) {
  const data = datasetXml === undefined ? {} : { datasetXml };
  const r = await renderReport({ template: demoFile(path), data, format: 'pdf' });
  return { pdf: r.output as Buffer, pages: r.prepared.pages, warnings: r.warnings };
}

function barcodes(page: PreparedPage): PreparedBarcode[] {
  return page.items.filter((i): i is PreparedBarcode => i.kind === 'barcode');
}

/** The decoded texts of every barcode of the document, by object name (page-major). */
async function decodeAll(pdf: Buffer, pages: PreparedPage[], readerOf: (name: string) => Reader | undefined) {
  const out = new Map<string, string[]>();
  for (const page of pages) {
    const image = rasterize(pdf, page.index, DPI);
    for (const b of barcodes(page)) {
      const reader = readerOf(b.name);
      if (!reader) continue;
      const img = crop(image, DPI, b);
      let found = await read(reader, img);
      // zbar misses a few dense QR codes stretched to non-square modules (Barcode19 of QR-Codes
      // at 300 dpi, though it reads it at 200); ZXing is the second opinion.
      if (found.length === 0 && reader === 'zbar') found = await zxingRead(img);
      // A name printed many times (a barcode on a data band) collects every print's texts.
      out.set(b.name, [...(out.get(b.name) ?? []), ...found.map((f) => normalise(f.text))]);
    }
  }
  return out;
}

describe.runIf(canRun)('barcodes decode with real readers', () => {
  it('every barcode of the Barcode demo that zbar or ZXing reads decodes to its value', async () => {
    const { pdf, pages, warnings } = await renderPdf(BARCODE);
    expect(warnings.filter((w) => /not supported|unknown barcode/i.test(w))).toEqual([]);
    const names = pages.flatMap((p) => barcodes(p).map((b) => b.name));
    expect([...names].sort()).toEqual([...Object.keys(BARCODE_DEMO), ...BY_PATTERN, 'Barcode47'].sort());
    const decoded = await decodeAll(pdf, pages, (n) => BARCODE_DEMO[n]?.[0]);
    const wrong: string[] = [];
    for (const [name, [, expected]] of Object.entries(BARCODE_DEMO)) {
      const got = decoded.get(name) ?? [];
      if (!got.includes(expected)) wrong.push(`${name}: expected ${expected}, read ${JSON.stringify(got)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('the Swiss QR bill decodes to its payload as FastReport writes it back (amount with two decimals)', async () => {
    const { pdf, pages } = await renderPdf(BARCODE);
    const source = /Name="Barcode47"[^>]*?\sText="([^"]*)"/.exec(demoFile(BARCODE).toString('utf8'))?.[1] ?? '';
    const text = source.replace(/&#13;/g, '\r').replace(/&#10;/g, '\n').replace(/&amp;/g, '&');
    const lines = text.split('\r\n');
    expect(lines[18]).toBe('1000');
    lines[18] = '1000.00';
    // zbar gives up on the cross in the middle (which the bill's error correction covers); ZXing
    // reads it, as the banks' readers do.
    const decoded = await decodeAll(pdf, pages, (n) => (n === 'Barcode47' ? 'zxing' : undefined));
    expect(decoded.get('Barcode47')).toEqual([normalise(lines.join('\r\n'))]);
  }, 120_000);

  it('every QR code and Aztec code of the QR-Codes demo decodes to its text, whatever its module shape', async () => {
    const xml = demoFile(QR_CODES).toString('utf8');
    const expected = new Map<string, { text: string; type: string }>();
    for (const m of xml.matchAll(/<BarcodeObject Name="(\w+)"[^>]*?\sText="([^"]*)"[^>]*?Barcode="([^"]+)"/g)) {
      const text = (m[2] ?? '')
        .replace(/&#13;/g, '\r')
        .replace(/&#10;/g, '\n')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
      expected.set(m[1] ?? '', { text, type: m[3] ?? '' });
    }
    expect(expected.size).toBe(xml.split('<BarcodeObject ').length - 1);
    const { pdf, pages } = await renderPdf(QR_CODES);
    const zxingFor = (n: string) => expected.get(n)?.type === 'Aztec' || expected.get(n)?.text.startsWith('SPC');
    const decoded = await decodeAll(pdf, pages, (n) => (zxingFor(n) ? 'zxing' : 'zbar'));
    const read: string[] = [];
    const unread: string[] = [];
    for (const [name, { text }] of expected) {
      // Swiss QR bills are re-written (amounts with two decimals, no trailing line break).
      const want = text.startsWith('SPC')
        ? normalise(
            text
              .replace(/[\r\n]+$/, '')
              .split('\r\n')
              .map((l, i) => (i === 18 && /^\d+$/.test(l) ? `${l}.00` : l))
              .join('\r\n'),
          )
        : normalise(text);
      if (decoded.get(name)?.includes(want)) read.push(name);
      else unread.push(`${name}: ${JSON.stringify(decoded.get(name))}`);
    }
    expect(unread).toEqual([]);
    expect(read.length).toBe(expected.size);
  }, 180_000);

  it('the Badges demo prints each employee of nwind.xml as a vCard QR code that reads back', async () => {
    const { pdf, pages } = await renderPdf(BADGES, NWIND_TEXT);
    const decoded = await decodeAll(pdf, pages, () => 'zbar');
    const read = [...decoded.values()].flat().sort();
    const expected = nwindRows('Employees')
      .map(
        (e) =>
          `BEGIN:VCARD\nVERSION:2.1\nFN:${e.FirstName} ${e.LastName}\nN:${e.LastName};${e.FirstName}\n` +
          `TITLE:${e.Title}\nTEL;WORK;VOICE:${e.HomePhone}\nEND:VCARD`,
      )
      .sort();
    expect(expected).toHaveLength(9);
    expect(read).toEqual(expected);
  }, 120_000);

  it('an EAN-13 turned by 90° (Box demo) reads as its text with its check digit', async () => {
    const { pdf, pages } = await renderPdf(BOX);
    const decoded = await decodeAll(pdf, pages, (n) => (n === 'Barcode3' ? 'zbar' : undefined));
    // "12345678" padded to 12 digits, and its check digit 4: EAN-13 0000123456784, which zbar
    // (with UPC-A enabled) reports as the UPC-A it equals, without the leading 0.
    expect(decoded.get('Barcode3')).toEqual(['000123456784']);
  }, 120_000);
});

// The HTML export draws the same barcodes as inline SVG: a browser's rendering of it must read
// the same. A screenshot of each barcode (at 3 device pixels per px) goes to zbar.
const HTML_CHECKS: Record<string, string> = {
  Barcode45: 'http://fast-report.com',
  Barcode27: '1234567890128',
  Barcode25: '12345678',
  Barcode23: '123456L',
  Barcode19: '12345678',
  Barcode52: '0112345678901231',
};

if (REQUIRE_CHROMIUM && !CHROMIUM) throw new Error('REQUIRE_CHROMIUM=1 but Chromium is missing');
describe.runIf(canRun && CHROMIUM !== undefined)('barcodes in the HTML export', () => {
  it('are inline SVG paths (no images) that read back from a browser screenshot', async () => {
    const r = await renderReport({ template: demoFile(BARCODE), data: {}, format: 'html' });
    const html = String(r.output);
    const page = r.prepared.pages[0];
    if (!page) throw new Error('no page');
    expect(html).not.toMatch(/<img/);
    expect((html.match(/<svg class="s"[^>]*><g transform="matrix\(/g) ?? []).length).toBe(barcodes(page).length);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_LAUNCH_ARGS });
    try {
      const context = await browser.newContext({ deviceScaleFactor: 3, viewport: { width: 900, height: 900 } });
      const tab = await context.newPage();
      await tab.setContent(html, { waitUntil: 'load' });
      // Where the page element starts in the document (the body centres it).
      const origin = (await tab.evaluate(
        `(() => { const r = document.querySelector('.p').getBoundingClientRect(); ` +
          `return { x: r.left + window.scrollX, y: r.top + window.scrollY }; })()`,
      )) as { x: number; y: number };
      const wrong: string[] = [];
      for (const [name, expected] of Object.entries(HTML_CHECKS)) {
        const b = barcodes(page).find((i) => i.name === name);
        if (!b) throw new Error(`no ${name}`);
        const png = await tab.screenshot({
          fullPage: true,
          clip: { x: origin.x + b.x - 10, y: origin.y + b.y - 10, width: b.width + 20, height: b.height + 20 },
        });
        const got = zbarRead(png).map((d) => d.text);
        if (!got.includes(expected)) wrong.push(`${name}: ${JSON.stringify(got)}`);
      }
      expect(wrong).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
