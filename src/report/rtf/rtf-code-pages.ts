// RTF code pages: the bytes of \'hh escapes (and of \bin-free 8-bit text) decoded with the code page
// of the current font (\fcharset) or of the document (\ansicpg, \pc, \pca, \mac). The Windows and
// East Asian code pages come from TextDecoder; the two DOS pages it lacks (437, 850) and 1252 are tables
// (their upper halves, bytes 0x80…0xFF; the lower half is ASCII).

import { TextDecoder } from 'node:util';

const OEM_UPPER: Readonly<Record<number, string>> = {
  // windows-1252 (Node's TextDecoder reads it as ISO-8859-1, without € and the quotes).
  1252:
    [
      '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f',
      '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178',
    ].join('') + Array.from({ length: 96 }, (_, k) => String.fromCharCode(0xa0 + k)).join(''),
  437: [
    '\u00c7\u00fc\u00e9\u00e2\u00e4\u00e0\u00e5\u00e7\u00ea\u00eb\u00e8\u00ef\u00ee\u00ec\u00c4\u00c5',
    '\u00c9\u00e6\u00c6\u00f4\u00f6\u00f2\u00fb\u00f9\u00ff\u00d6\u00dc\u00a2\u00a3\u00a5\u20a7\u0192',
    '\u00e1\u00ed\u00f3\u00fa\u00f1\u00d1\u00aa\u00ba\u00bf\u2310\u00ac\u00bd\u00bc\u00a1\u00ab\u00bb',
    '\u2591\u2592\u2593\u2502\u2524\u2561\u2562\u2556\u2555\u2563\u2551\u2557\u255d\u255c\u255b\u2510',
    '\u2514\u2534\u252c\u251c\u2500\u253c\u255e\u255f\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u2567',
    '\u2568\u2564\u2565\u2559\u2558\u2552\u2553\u256b\u256a\u2518\u250c\u2588\u2584\u258c\u2590\u2580',
    '\u03b1\u00df\u0393\u03c0\u03a3\u03c3\u00b5\u03c4\u03a6\u0398\u03a9\u03b4\u221e\u03c6\u03b5\u2229',
    '\u2261\u00b1\u2265\u2264\u2320\u2321\u00f7\u2248\u00b0\u2219\u00b7\u221a\u207f\u00b2\u25a0\u00a0',
  ].join(''),
  850: [
    '\u00c7\u00fc\u00e9\u00e2\u00e4\u00e0\u00e5\u00e7\u00ea\u00eb\u00e8\u00ef\u00ee\u00ec\u00c4\u00c5',
    '\u00c9\u00e6\u00c6\u00f4\u00f6\u00f2\u00fb\u00f9\u00ff\u00d6\u00dc\u00f8\u00a3\u00d8\u00d7\u0192',
    '\u00e1\u00ed\u00f3\u00fa\u00f1\u00d1\u00aa\u00ba\u00bf\u00ae\u00ac\u00bd\u00bc\u00a1\u00ab\u00bb',
    '\u2591\u2592\u2593\u2502\u2524\u00c1\u00c2\u00c0\u00a9\u2563\u2551\u2557\u255d\u00a2\u00a5\u2510',
    '\u2514\u2534\u252c\u251c\u2500\u253c\u00e3\u00c3\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u00a4',
    '\u00f0\u00d0\u00ca\u00cb\u00c8\u0131\u00cd\u00ce\u00cf\u2518\u250c\u2588\u2584\u00a6\u00cc\u2580',
    '\u00d3\u00df\u00d4\u00d2\u00f5\u00d5\u00b5\u00fe\u00de\u00da\u00db\u00d9\u00fd\u00dd\u00af\u00b4',
    '\u00ad\u00b1\u2017\u00be\u00b6\u00a7\u00f7\u00b8\u00b0\u00a8\u00b7\u00b9\u00b3\u00b2\u25a0\u00a0',
  ].join(''),
};

/** TextDecoder labels of the code pages an RTF may name. */
const DECODER_LABELS: Readonly<Record<number, string>> = {
  874: 'windows-874',
  932: 'shift_jis',
  936: 'gbk',
  949: 'euc-kr',
  950: 'big5',
  866: 'ibm866',
  1250: 'windows-1250',
  1251: 'windows-1251',
  1252: 'windows-1252',
  1253: 'windows-1253',
  1254: 'windows-1254',
  1255: 'windows-1255',
  1256: 'windows-1256',
  1257: 'windows-1257',
  1258: 'windows-1258',
  10000: 'macintosh',
  10007: 'x-mac-cyrillic',
};

/** \fcharset → Windows code page (0 and 1 are the document's ANSI code page). */
const CHARSET_CODE_PAGES: Readonly<Record<number, number>> = {
  2: 1252,
  77: 10000,
  128: 932,
  129: 949,
  134: 936,
  136: 950,
  161: 1253,
  162: 1254,
  163: 1258,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
  254: 437,
  255: 850,
};

export function charsetCodePage(charset: number): number | undefined {
  return CHARSET_CODE_PAGES[charset];
}

/** Whether bytes in this code page can be decoded (else they are read as windows-1252). */
export function knownCodePage(cp: number): boolean {
  return cp in OEM_UPPER || cp in DECODER_LABELS;
}

const decoders = new Map<number, TextDecoder>();

/** The text of `bytes` in code page `cp` (windows-1252 for an unknown one). */
export function decodeBytes(bytes: readonly number[], cp: number): string {
  const oem = OEM_UPPER[cp];
  if (oem !== undefined) {
    let s = '';
    for (const b of bytes) s += b < 0x80 ? String.fromCharCode(b) : (oem[b - 0x80] ?? '?');
    return s;
  }
  const label = DECODER_LABELS[cp] ?? 'windows-1252';
  let d = decoders.get(cp);
  if (!d) {
    d = new TextDecoder(label);
    decoders.set(cp, d);
  }
  return d.decode(Uint8Array.from(bytes));
}
