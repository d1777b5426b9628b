// The barcodes no decoder here reads: their bars are read off the PDF, rasterised at
// 300 dpi, and decoded in this file by each symbology's published rules: 2/5 Industrial and Matrix
// (the 2-of-5 table), MSI (BCD bits), Plessey (bits and CRC-8), Pharmacode (bar values), PostNet
// (USPS's full/half table), Intelligent Mail and Japan Post (their specifications' worked
// examples, bar by bar). Nothing of the engine's encoders is used to compute what they must be.

import { describe, expect, it } from 'vitest';
import type { PreparedBarcode } from '../../../src/report/engine/prepared.js';
import { renderReport } from '../../../src/report/index.js';
import { barExtents, crop, type Gray, rasterize, runsAlongRow } from '../../support/barcode-readers.js';
import { POPPLER_AVAILABLE } from '../../support/poppler.js';
import { demoFile } from '../../support/fastreport-demos.js';

const DPI = 300;
const BARCODE = 'Reports/Barcode.frx';
const BOX = 'Reports/Box.frx';

const report = (objects: string): string =>
  `<Report><Dictionary/><ReportPage Name="P"><ReportTitleBand Name="T" Width="718.2" Height="600">${objects}` +
  '</ReportTitleBand></ReportPage></Report>';

/** Each barcode of the document's first page, cut out of the page at 300 dpi. */
async function barcodeImages(template: string | Buffer): Promise<Map<string, Gray>> {
  const r = await renderReport({ template, data: {}, format: 'pdf' });
  const page = r.prepared.pages[0];
  if (!page) throw new Error('no page');
  const image = rasterize(r.output as Buffer, 1, DPI);
  const out = new Map<string, Gray>();
  for (const b of page.items.filter((i): i is PreparedBarcode => i.kind === 'barcode'))
    out.set(b.name, crop(image, DPI, b, 0));
  return out;
}

/** Bar/space widths along a row a third of the way down (above any text), as narrow (N) or wide
 *  (W): wide is anything over 1.6 × the narrowest run. */
function narrowWide(g: Gray): string {
  const runs = runsAlongRow(g, Math.floor(g.height / 3));
  const narrow = Math.min(...runs);
  return runs.map((w) => (w > 1.6 * narrow ? 'W' : 'N')).join('');
}

// The 2-of-5 table: which of a digit's five elements are wide (weights 1, 2, 4, 7, parity).
const TWO_OF_FIVE = ['NNWWN', 'WNNNW', 'NWNNW', 'WWNNN', 'NNWNW', 'WNWNN', 'NWWNN', 'NNNWW', 'WNNWN', 'NWNWN'];
const digitOf = (pattern: string): string => {
  const d = TWO_OF_FIVE.indexOf(pattern);
  if (d < 0) throw new Error(`not a 2-of-5 pattern: ${pattern}`);
  return String(d);
};

/** 2/5 Industrial: only bars carry data (spaces all narrow); start WWN, stop WNW. */
function industrial(nw: string): string {
  const bars = [...nw].filter((_, i) => i % 2 === 0).join('');
  expect(bars.startsWith('WWN') && bars.endsWith('WNW')).toBe(true);
  const data = bars.slice(3, -3);
  let out = '';
  for (let i = 0; i < data.length; i += 5) out += digitOf(data.slice(i, i + 5));
  return out;
}

/** 2/5 Matrix: each character three bars and two spaces (then a narrow gap); start and stop are
 *  a wide bar and two narrow ones. */
function matrix(nw: string): string {
  expect(nw.slice(0, 6)).toBe('WNNNNN');
  expect(nw.slice(-5)).toBe('WNNNN');
  const data = nw.slice(6, -5);
  let out = '';
  for (let i = 0; i < data.length; i += 6) {
    out += digitOf(data.slice(i, i + 5));
    expect(data[i + 5]).toBe('N');
  }
  return out;
}

/** MSI: start = wide bar, narrow space; each digit four bits, most significant first, 1 = wide bar
 *  and narrow space, 0 = the reverse; stop = narrow bar, wide space, narrow bar. */
function msi(nw: string): string {
  expect(nw.slice(0, 2)).toBe('WN');
  expect(nw.slice(-3)).toBe('NWN');
  const bits = nw.slice(2, -3);
  let out = '';
  for (let i = 0; i < bits.length; i += 8) {
    let d = 0;
    for (let b = 0; b < 4; b++) d = d * 2 + (bits.slice(i + 2 * b, i + 2 * b + 2) === 'WN' ? 1 : 0);
    out += String(d);
  }
  return out;
}

/** Plessey: bits as bar/space pairs (1 = wide bar, narrow space); start 1101, then each hex digit
 *  least significant bit first, then 8 CRC bits: the remainder of the data bits (and 8 zeros)
 *  divided by x^8 + x^7 + x^6 + x^5 + x^3 + 1. Answers the digits; the CRC is checked. */
function plessey(nw: string): string {
  const bits: number[] = [];
  for (let i = 0; i + 1 < nw.length; i += 2) {
    const pair = nw.slice(i, i + 2);
    if (pair === 'WN') bits.push(1);
    else if (pair === 'NW') bits.push(0);
    else break;
  }
  expect(bits.slice(0, 4)).toEqual([1, 1, 0, 1]);
  const body = bits.slice(4);
  const digits = Math.floor((body.length - 8) / 4);
  const data = body.slice(0, digits * 4);
  const crc = body.slice(digits * 4, digits * 4 + 8);
  const work = [...data, 0, 0, 0, 0, 0, 0, 0, 0];
  const poly = [1, 1, 1, 1, 0, 1, 0, 0, 1];
  for (let i = 0; i < data.length; i++)
    if (work[i]) for (let j = 0; j < 9; j++) work[i + j] = (work[i + j] ?? 0) ^ (poly[j] ?? 0);
  expect(crc).toEqual(work.slice(data.length));
  let out = '';
  for (let i = 0; i < data.length; i += 4)
    out += ((data[i] ?? 0) + 2 * (data[i + 1] ?? 0) + 4 * (data[i + 2] ?? 0) + 8 * (data[i + 3] ?? 0)).toString(16);
  return out.toUpperCase();
}

/** Pharmacode: read from the right, the i-th bar (from 0) is worth 2^i when narrow and 2^(i+1)
 *  when wide. */
function pharmacode(nw: string): number {
  const bars = [...nw].filter((_, i) => i % 2 === 0).reverse();
  return bars.reduce((v, b, i) => v + (b === 'W' ? 2 ** (i + 1) : 2 ** i), 0);
}

/** Each bar's state: F full, A ascender, D descender, T tracker (4-state codes), from its top and
 *  bottom against the tallest bars; H for a half bar (PostNet). */
function states(g: Gray): string {
  // Scanned along the row that crosses the most bars (every bar, short ones included).
  let row = 0;
  let most = -1;
  for (let y = Math.floor(g.height * 0.1); y < g.height * 0.9; y++) {
    const n = runsAlongRow(g, y).length;
    if (n > most) [row, most] = [y, n];
  }
  const bars = barExtents(g, row);
  const top = Math.min(...bars.map((b) => b.top));
  const bottom = Math.max(...bars.map((b) => b.bottom));
  const tol = (bottom - top) * 0.08;
  return bars
    .map((b) => {
      const up = b.top <= top + tol;
      const down = b.bottom >= bottom - tol;
      return up && down ? 'F' : up ? 'A' : down ? 'D' : 'T';
    })
    .join('');
}

// PostNet: per digit five bars, 1 = full, 0 = half (USPS Publication 25); framed by full bars.
const POSTNET = ['11000', '00011', '00101', '00110', '01001', '01010', '01100', '10001', '10010', '10100'];

describe.runIf(POPPLER_AVAILABLE)('barcodes no decoder reads, checked bar by bar (Barcode demo)', () => {
  it('2/5 Industrial, 2/5 Matrix, MSI, Plessey and Pharmacode carry their texts', async () => {
    const img = await barcodeImages(demoFile(BARCODE));
    const get = (n: string): Gray => {
      const g = img.get(n);
      if (!g) throw new Error(`no ${n}`);
      return g;
    };
    expect(industrial(narrowWide(get('Barcode20')))).toBe('12345678');
    expect(matrix(narrowWide(get('Barcode21')))).toBe('12345678');
    // FastReport's MSI check digit of 12345678 (Luhn from the left) is 2.
    expect(msi(narrowWide(get('Barcode32')))).toBe('123456782');
    expect(plessey(narrowWide(get('Barcode40')))).toBe('123456');
    expect(pharmacode(narrowWide(get('Barcode2')))).toBe(123456);
  }, 60_000);

  it('Pharmacode reads the same upright and turned by 180° (Box demo), its bars reversed', async () => {
    const img = await barcodeImages(demoFile(BOX));
    expect(pharmacode(narrowWide(img.get('Barcode1') as Gray))).toBe(12345678);
    const turned = narrowWide(img.get('Barcode2') as Gray);
    expect(pharmacode([...turned].reverse().join(''))).toBe(12345678);
    expect(pharmacode(turned)).not.toBe(12345678);
  }, 60_000);

  it('PostNet: full and half bars per USPS table, no check digit (as FastReport prints it)', async () => {
    const g = (await barcodeImages(demoFile(BARCODE))).get('Barcode33');
    if (!g) throw new Error('no PostNet');
    const s = states(g).replace(/[DT]/g, 'H').replace(/A/g, 'F');
    const expected = `F${[...'12345678'].map((d) => POSTNET[Number(d)]).join('')}F`
      .replace(/0/g, 'H')
      .replace(/1/g, 'F');
    expect(s).toBe(expected);
  }, 60_000);

  it('Intelligent Mail and Japan Post print one bar per state: 65 and 67 bars', async () => {
    const img = await barcodeImages(demoFile(BARCODE));
    expect(states(img.get('Barcode3') as Gray)).toMatch(/^[FADT]{65}$/);
    expect(states(img.get('Barcode51') as Gray)).toMatch(/^[FADT]{67}$/);
  }, 60_000);
});

describe.runIf(POPPLER_AVAILABLE)("4-state postal codes against their specifications' examples", () => {
  it('Intelligent Mail: USPS-B-3200 Appendix C', async () => {
    // Tracking code 01234567094987654321 with four routing codes, and the bars the
    // specification gives for each.
    const cases: [string, string][] = [
      ['', 'ATTFATTDTTADTAATTDTDTATTDAFDDFADFDFTFFFFFTATFAAAATDFFTDAADFTFDTDT'],
      ['01234', 'DTTAFADDTTFTDTFTFDTDDADADAFADFATDDFTAAAFDTTADFAAATDFDTDFADDDTDFFT'],
      ['012345678', 'ADFTTAFDTTTTFATTADTAAATFTFTATDAAAFDDADATATDTDTTDFDTDATADADTDFFTFA'],
      ['01234567891', 'AADTFFDFTDADTAADAATFDTDDAAADDTDTTDAFADADDDTFFFDDTTTADFAAADFTDAADA'],
    ];
    const objects = cases
      .map(
        ([routing], i) =>
          `<BarcodeObject Name="IM${i}" Top="${i * 70}" Width="402.5" Height="56.7" ShowText="false" ` +
          `Text="01234567094987654321${routing}" Barcode="Intelligent Mail (USPS)"/>`,
      )
      .join('');
    const img = await barcodeImages(report(objects));
    for (const [i, [, bars]] of cases.entries()) expect(states(img.get(`IM${i}`) as Gray)).toBe(bars);
  }, 60_000);

  it("Japan Post: the Zip/Barcode Manual's examples", async () => {
    const cases: [string, string][] = [
      ['10000131-3-2-503', 'FDFFTFTTFTTFTTFTTFFTDFAFFTTFTDFATFTFDATFTFTFFTTDFATDATDATDATDATFFDF'],
      ['15400233-16-4-205', 'FDFFTFTFFADFTTFTTFDADFADFATFTFFTDAFTFTFADTFTFDAFTTFTFTDATDATDADAFDF'],
      ['350110622-1A308', 'FDDFAFTFFTTFFTFFTFTTDAFFDAFDATFTFFTDATFTTDFAFTTADFTDATDATDATDAFTFDF'],
    ];
    const objects = cases
      .map(
        ([text], i) =>
          `<BarcodeObject Name="JP${i}" Top="${i * 90}" Width="332.5" Height="85.05" ShowText="false" ` +
          `Text="${text}" Barcode="Japan Post 4 State Code"/>`,
      )
      .join('');
    const img = await barcodeImages(report(objects));
    for (const [i, [, bars]] of cases.entries()) expect(states(img.get(`JP${i}`) as Gray)).toBe(bars);
  }, 60_000);
});
