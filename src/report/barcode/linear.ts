// The linear symbologies FastReport offers, by its names: FastReport's text rules (check digits,
// lengths, the text under the bars) over bwip-js's encodings. Where bwip-js cannot give what
// FastReport prints (PostNet of any length without a check digit), the pattern is built here from
// the symbology's published table.

import { rawLinear, type RawLinear } from './bwip.js';
import {
  code39Chars,
  digitsOnly,
  gs1Gtin,
  mod10,
  mod10Weights49,
  msiCheck,
  setLength,
  withCheckDigit,
} from './check-digits.js';
import { markLong, toElements, trimEnd, twoWidth, withHeights } from './linear-bars.js';
import { BarcodeError, type BarElement, type BarcodeSpec, flag, type LinearSymbol, option } from './types.js';

export interface LinearDef {
  /** WideBarRatio's default and the range FastReport clamps it to. */
  ratio: { def: number; min: number; max: number };
  encode(text: string, ratio: number, spec: BarcodeSpec): LinearSymbol;
}

const R2 = { def: 2, min: 2, max: 3 };
const FREE = { def: 2, min: 0.1, max: 100 };

const sym = (elements: BarElement[], text: string, more: Partial<LinearSymbol> = {}): LinearSymbol => ({
  kind: 'linear',
  elements,
  text,
  ...more,
});

/** 2/5 Interleaved: an even count of digits; with a check digit FastReport drops the first digit
 *  of an even-length text to make room for it. */
function interleaved(text: string, calc: boolean): string {
  let t = digitsOnly(text);
  if (calc) {
    if (t.length % 2 === 0) t = t.slice(1);
    return t + mod10(t);
  }
  return t.length % 2 === 1 ? `0${t}` : t;
}

function i2of5(digits: string, ratio: number): BarElement[] {
  if (digits === '') throw new BarcodeError('No digits to encode');
  return trimEnd(twoWidth(rawLinear('interleaved2of5', digits), ratio));
}

/** Deutsche Post's Identcode (11 digits) and Leitcode (13): a 4/9-weighted check digit, printed
 *  as 2/5 Interleaved. */
function deutschePost(len: number, groups: number[], sep: string[]): LinearDef['encode'] {
  return (text, ratio) => {
    const t = digitsOnly(text.replace(/[. ]/g, ''));
    if (t.length !== len && t.length !== len + 1) throw new BarcodeError('Number of characters mismatch.');
    const digits = t.slice(0, len) + mod10Weights49(t.slice(0, len));
    let shown = '';
    let at = 0;
    groups.forEach((n, i) => {
      shown += digits.slice(at, at + n) + (sep[i] ?? '');
      at += n;
    });
    return sym(i2of5(digits, ratio), shown + digits.slice(at));
  };
}

// EAN/UPC: the guard bars (and UPC-A's outer digits) reach into the text band, and the digits
// print in groups between them (module positions from the first bar).
function ean13(text: string, _r: number, spec: BarcodeSpec): LinearSymbol {
  const d = withCheckDigit(text, 13, spec.calcCheckSum);
  const e = markLong(toElements(rawLinear('ean13', d.slice(0, 12))), [
    [0, 3],
    [45, 50],
    [92, 95],
  ]);
  return sym(e, d, {
    extra1: 8,
    groups: [
      { text: d.slice(0, 1), x1: -8, x2: -2 },
      { text: d.slice(1, 7), x1: 3, x2: 46 },
      { text: d.slice(7), x1: 49, x2: 92 },
    ],
  });
}

function ean8(text: string, _r: number, spec: BarcodeSpec): LinearSymbol {
  const d = withCheckDigit(text, 8, spec.calcCheckSum);
  const e = markLong(toElements(rawLinear('ean8', d.slice(0, 7))), [
    [0, 3],
    [31, 36],
    [64, 67],
  ]);
  return sym(e, d, {
    groups: [
      { text: d.slice(0, 4), x1: 3, x2: 32 },
      { text: d.slice(4), x1: 35, x2: 64 },
    ],
  });
}

function upcA(text: string, _r: number, spec: BarcodeSpec): LinearSymbol {
  const d = withCheckDigit(text, 12, spec.calcCheckSum);
  const e = markLong(toElements(rawLinear('upca', d.slice(0, 11))), [
    [0, 10],
    [45, 50],
    [85, 95],
  ]);
  return sym(e, d, {
    extra1: 8,
    extra2: 8,
    groups: [
      { text: d.slice(0, 1), x1: -8, x2: -2, small: true },
      { text: d.slice(1, 6), x1: 10, x2: 45 },
      { text: d.slice(6, 11), x1: 50, x2: 85 },
      { text: d.slice(11), x1: 96, x2: 103, small: true },
    ],
  });
}

/** UPC-E with number system 0 or 1: six digits and the check digit of the UPC-A they stand for
 *  (bwip-js computes it; FastReport prints a modulo 10 of the six digits instead, a different and
 *  unscannable digit for most texts, so here the standard wins). */
function upcE(system: '0' | '1'): LinearDef['encode'] {
  return (text) => {
    const six = setLength(digitsOnly(text), 7).slice(0, 6);
    const e = markLong(toElements(rawLinear('upce', system + six)), [
      [0, 3],
      [45, 51],
    ]);
    const check = upcECheck(system, six);
    return sym(e, system + six + check, {
      extra1: 8,
      extra2: 8,
      groups: [
        { text: system, x1: -8, x2: -2, small: true },
        { text: six, x1: 3, x2: 45 },
        { text: check, x1: 52, x2: 59, small: true },
      ],
    });
  };
}

/** The UPC-A a UPC-E stands for, and its check digit (the UPC-E zero-suppression rules). */
function upcECheck(system: string, six: string): string {
  const [a = '0', b = '0', c = '0', d = '0', e = '0', last = '0'] = six;
  let upca: string;
  if (last <= '2') upca = `${a}${b}${last}0000${c}${d}${e}`;
  else if (last === '3') upca = `${a}${b}${c}00000${d}${e}`;
  else if (last === '4') upca = `${a}${b}${c}${d}00000${e}`;
  else upca = `${a}${b}${c}${d}${e}0000${last}`;
  return mod10(system + upca);
}

function supplement(len: 2 | 5): LinearDef['encode'] {
  return (text) => {
    const d = setLength(digitsOnly(text), len);
    return sym(toElements(rawLinear(len === 2 ? 'ean2' : 'ean5', d)), d, { textUp: true });
  };
}

function code39(extended: boolean): LinearDef['encode'] {
  return (text, ratio, spec) => {
    // Code 39 Extended writes each ASCII character as one or two Code 39 characters; the check
    // character is over those.
    const chars = extended ? [...text].filter((c) => c.charCodeAt(0) < 128).join('') : code39Chars(text);
    if (chars === '') throw new BarcodeError('No characters to encode');
    const opts = { includecheck: spec.calcCheckSum };
    const raw = rawLinear(extended ? 'code39ext' : 'code39', chars, opts);
    return sym(trimEnd(twoWidth(raw, ratio)), chars);
  };
}

function code93(extended: boolean): LinearDef['encode'] {
  return (text, _r, spec) => {
    if (!extended && /[^0-9A-Z\-. $/+%]/.test(text)) throw new BarcodeError('Invalid character in input code');
    if (extended && /[^\x00-\x7f]/.test(text)) throw new BarcodeError('Invalid character in input code');
    const raw = rawLinear(extended ? 'code93ext' : 'code93', text, { includecheck: spec.calcCheckSum });
    return sym(toElements(raw), text);
  };
}

/** FastReport's Code 128 control codes: &A; &B; &C; pick a code set (bwip-js picks its own), &S;
 *  shifts, &1;…&4; are FNC1…FNC4. */
function code128Text(text: string): { data: string; shown: string } {
  const shown = text.replace(/&[ABCS1-4];/g, '');
  const data = text
    .replace(/\^/g, '^094')
    .replace(/&[ABCS];/g, '')
    .replace(/&([1-4]);/g, '^FNC$1');
  return { data, shown };
}

function code128(text: string): LinearSymbol {
  const { data, shown } = code128Text(text);
  if (/[^\x00-\x7f]/.test(data)) throw new BarcodeError('Invalid character in input code');
  if (shown === '' && !/FNC/.test(data)) throw new BarcodeError('No characters to encode');
  return sym(toElements(rawLinear('code128', data, { parsefnc: true })), shown);
}

/** GS1-128: "(AI)data(AI)data…", each application identifier in parentheses. */
function gs1128(text: string): LinearSymbol {
  const t = text.trim();
  if (!t.startsWith('(')) {
    const { data, shown } = code128Text(t);
    return sym(toElements(rawLinear('code128', `^FNC1${data}`, { parsefnc: true })), shown);
  }
  return sym(toElements(rawLinear('gs1-128', t, { dontlint: true })), t);
}

function codabar(text: string, ratio: number, spec: BarcodeSpec): LinearSymbol {
  const start = option(spec, 'StartChar', 'A').toUpperCase();
  const stop = option(spec, 'StopChar', 'B').toUpperCase();
  const body = [...text.toUpperCase()].filter((c) => '0123456789-$:/.+'.includes(c)).join('');
  if (!/^[A-D]$/.test(start) || !/^[A-D]$/.test(stop)) throw new BarcodeError('Start and stop must be A, B, C or D');
  return sym(trimEnd(twoWidth(rawLinear('rationalizedCodabar', start + body + stop), ratio)), text);
}

function msi(text: string, ratio: number, spec: BarcodeSpec): LinearSymbol {
  const d = digitsOnly(text);
  const coded = spec.calcCheckSum ? d + msiCheck(d) : d;
  return sym(trimEnd(twoWidth(rawLinear('msi', coded), ratio)), d);
}

/** Plessey: every bit a bar and a space, wide bar and narrow space for 1, the reverse for 0;
 *  bwip-js gives the bits (start, data, CRC), FastReport's termination follows them. */
function plessey(text: string, ratio: number): LinearSymbol {
  const raw = rawLinear('plessey', text.toUpperCase());
  const e: BarElement[] = [];
  // bwip-js's last 9 elements are its termination; the bits before it come in bar/space pairs.
  for (let i = 0; i + 1 < raw.sbs.length - 9; i += 2) {
    const one = (raw.sbs[i] ?? 0) > (raw.sbs[i + 1] ?? 0);
    e.push({ w: one ? ratio : 1, bar: true }, { w: one ? 1 : ratio, bar: false });
  }
  const wide = 1.5 * ratio;
  for (const [w, bar] of [
    [wide, true],
    [2, false],
    [1, true],
    [2, false],
    [1, true],
    [1, false],
    [ratio, true],
    [1, false],
    [ratio, true],
  ] as const)
    e.push({ w, bar });
  return sym(e, text);
}

function industrial(text: string, ratio: number, spec: BarcodeSpec): LinearSymbol {
  const d = digitsOnly(text);
  const coded = spec.calcCheckSum ? d + mod10(d) : d;
  // FastReport's stop character ends with a narrow space.
  return sym([...twoWidth(rawLinear('industrial2of5', coded), ratio), { w: 1, bar: false }], d);
}

function matrix2of5(text: string, ratio: number, spec: BarcodeSpec): LinearSymbol {
  const d = digitsOnly(text);
  const coded = spec.calcCheckSum ? d + mod10(d) : d;
  // FastReport draws the wide bars of the start and stop characters 1.5 times as wide.
  const e = trimEnd(twoWidth(rawLinear('matrix2of5', coded), ratio));
  for (const i of [0, e.length - 5]) if (e[i]?.bar && (e[i]?.w ?? 0) > 1) e[i] = { w: 1.5 * ratio, bar: true };
  return sym(e, d);
}

function itf14(text: string, ratio: number, spec: BarcodeSpec): LinearSymbol {
  const d = withCheckDigit(text, 14, spec.calcCheckSum);
  const shown = `${d.slice(0, 1)} ${d.slice(1, 3)} ${d.slice(3, 8)} ${d.slice(8, 13)} ${d.slice(13)}`;
  return sym(i2of5(d, ratio), shown, {
    quiet: 14,
    bearer: { width: 2 * ratio, vertical: flag(spec, 'DrawVerticalBearerBars', true) },
  });
}

// PostNet's bars for each digit (1 = full bar, 0 = half bar), from USPS Publication 25.
const POSTNET = ['11000', '00011', '00101', '00110', '01001', '01010', '01100', '10001', '10010', '10100'];

/** PostNet as FastReport prints it: any count of digits, no check digit, between two frame bars;
 *  bars one module wide, spaces WideBarRatio. */
function postNet(text: string, ratio: number): LinearSymbol {
  const d = digitsOnly(text.replace(/[- ]/g, ''));
  const bits = `1${[...d].map((c) => POSTNET[Number(c)]).join('')}1`;
  const e: BarElement[] = [];
  for (const [i, b] of [...bits].entries()) {
    if (i > 0) e.push({ w: ratio, bar: false });
    e.push({ w: 1, bar: true, ...(b === '1' ? {} : { top: 0.6, bottom: 1 }) });
  }
  return sym(e, d);
}

/** The 4-state postal codes: bars WideBarRatio wide, spaces as wide (Japan Post) or 1.5 times
 *  (Intelligent Mail), as FastReport draws them. */
function fourState(bcid: 'onecode' | 'japanpost', space: number, quietKey?: string): LinearDef['encode'] {
  return (text, ratio, spec) => {
    const raw = rawLinear(bcid, text);
    const e = withHeights(
      raw,
      toElements(raw, (_w, bar) => (bar ? ratio : space * ratio)),
    );
    trimEnd(e);
    if (quietKey && flag(spec, quietKey, false)) {
      e.unshift({ w: 1.5 * ratio, bar: false });
      e.push({ w: 1.5 * ratio, bar: false });
    }
    return sym(e, text);
  };
}

/** Pharmacode: the value + 1 in binary without its leading 1, most significant bit first, each
 *  bit a bar (0 narrow, 1 wide = 1.5 × WideBarRatio) and a wide space; a wide space before the
 *  first with QuietZone. Built here: bwip-js stops at 131070 (the standard's range), FastReport
 *  prints any 64-bit number. */
function pharmacode(text: string, ratio: number, spec: BarcodeSpec): LinearSymbol {
  const t = digitsOnly(text.trim());
  if (t === '' || t.length > 20 || BigInt(t) >= 2n ** 64n || BigInt(t) < 1n)
    throw new BarcodeError('Pharmacode must be a number from 1 to 18446744073709551615');
  const wide = 1.5 * ratio;
  const e: BarElement[] = [];
  if (flag(spec, 'QuietZone', true)) e.push({ w: wide, bar: false });
  for (const bit of (BigInt(t) + 1n).toString(2).slice(1))
    e.push({ w: bit === '1' ? wide : 1, bar: true }, { w: wide, bar: false });
  return sym(e, text);
}

/** GS1 DataBar: bwip-js's module widths, each WideBarRatio wide as FastReport draws them. */
function databar(bcid: 'databaromni' | 'databarlimited'): LinearDef['encode'] {
  return (text, ratio) => {
    const gtin = gs1Gtin(text);
    const raw: RawLinear = rawLinear(bcid, gtin);
    // bwip-js starts DataBar with a zero-width bar; Limited's right guard space is not FastReport's.
    const e = trimEnd(toElements(raw, (w) => w * ratio).filter((el) => el.w > 0));
    return sym(e, gtin);
  };
}

export const LINEAR: Readonly<Record<string, LinearDef>> = {
  '2/5 Interleaved': {
    ratio: R2,
    encode: (t, r, s) => {
      const d = interleaved(t, s.calcCheckSum);
      return sym(i2of5(d, r), digitsOnly(t));
    },
  },
  '2/5 Industrial': { ratio: R2, encode: industrial },
  '2/5 Matrix': { ratio: { def: 2.25, min: 2.25, max: 3 }, encode: matrix2of5 },
  'Deutsche Identcode': {
    ratio: { def: 3, min: 2.25, max: 3.5 },
    encode: deutschePost(11, [2, 3, 3, 3], ['.', ' ', '.', ' ']),
  },
  'Deutsche Leitcode': {
    ratio: { def: 3, min: 2.25, max: 3.5 },
    encode: deutschePost(13, [5, 3, 3, 2], ['. ', '. ', '. ', ' ']),
  },
  'ITF-14': { ratio: { def: 2.25, min: 2.25, max: 3 }, encode: itf14 },
  Codabar: { ratio: R2, encode: codabar },
  Code128: { ratio: FREE, encode: code128 },
  'GS1-128 (UCC/EAN-128)': { ratio: FREE, encode: gs1128 },
  Code39: { ratio: R2, encode: code39(false) },
  'Code39 Extended': { ratio: R2, encode: code39(true) },
  Code93: { ratio: FREE, encode: code93(false) },
  'Code93 Extended': { ratio: FREE, encode: code93(true) },
  EAN8: { ratio: R2, encode: ean8 },
  EAN13: { ratio: R2, encode: ean13 },
  'UPC-A': { ratio: R2, encode: upcA },
  'UPC-E0': { ratio: R2, encode: upcE('0') },
  'UPC-E1': { ratio: R2, encode: upcE('1') },
  'Supplement 2': { ratio: R2, encode: supplement(2) },
  'Supplement 5': { ratio: R2, encode: supplement(5) },
  MSI: { ratio: FREE, encode: msi },
  Plessey: { ratio: FREE, encode: plessey },
  PostNet: { ratio: FREE, encode: postNet },
  'Japan Post 4 State Code': { ratio: FREE, encode: fourState('japanpost', 1) },
  'Intelligent Mail (USPS)': { ratio: FREE, encode: fourState('onecode', 1.5, 'QuietZone') },
  Pharmacode: { ratio: FREE, encode: pharmacode },
  'GS1 DataBar Omnidirectional': { ratio: FREE, encode: databar('databaromni') },
  'GS1 DataBar Limited': { ratio: FREE, encode: databar('databarlimited') },
};
