// A bounded RTF reader (RTF 1.9.1 specification): groups, control words and symbols, \'hh bytes
// in the code page of the font or the document, \uN with \ucN fallback skipping, the font and
// colour tables, character formatting (\b \i \ul \strike \super \sub \f \fs \cf \highlight \cb),
// paragraph formatting (\pard \q? \li \ri \fi \sb \sa), breaks (\par \line \tab) and simple
// tables (\trowd \cellx \cell \row). Destinations it does not show are skipped: any {\* …} group
// and pictures, objects, headers, footers, the style sheet, document info and list tables.
// Everything else is ignored, as the specification asks of a reader. Never throws on malformed
// input except at its limits (TemplateError): the source size and the group depth.

import { TemplateError } from '../errors.js';
import { charsetCodePage, decodeBytes } from './rtf-code-pages.js';
import {
  defaultParaStyle,
  type RtfBorder,
  type RtfCellBorders,
  type RtfCharStyle,
  type RtfDocument,
  type RtfParagraph,
  type RtfParaStyle,
  type RtfRow,
  type RtfRun,
  TWIPS_PER_PX,
} from './rtf-document.js';

/** The largest RTF source read (characters); pictures count, though they are skipped. */
export const MAX_RTF_CHARS = 16 * 1024 * 1024;
/** The deepest group nesting read. */
export const MAX_RTF_DEPTH = 512;
/** The most text a document may hold (characters after decoding). */
export const MAX_RTF_TEXT = 1024 * 1024;

type Dest = 'text' | 'skip' | 'fonttbl' | 'colortbl';

interface State {
  dest: Dest;
  font: number;
  /** Half-points. */
  fs: number;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  sub: boolean;
  sup: boolean;
  cf: number;
  bg: number;
  uc: number;
  /** \v: hidden text; \caps (and \scaps): shown in capitals. */
  hidden: boolean;
  caps: boolean;
  para: RtfParaStyle;
  inTable: boolean;
}

/** Destinations that hold no document text (shown only by readers that understand them). */
const SKIPPED = new Set([
  'info',
  'stylesheet',
  'pict',
  'object',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'footnote',
  'annotation',
  'listtable',
  'listoverridetable',
  'revtbl',
  'rsidtbl',
  'xmlnstbl',
  'filetbl',
  'fldinst',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'nonshppict',
  'shp',
  'pn',
]);

/** Skipped destinations whose content a reader that shows it would draw (for a warning). */
const LOST: Readonly<Record<string, string>> = {
  pict: 'pictures',
  shppict: 'pictures',
  object: 'embedded objects',
  shp: 'drawing shapes',
  shpgrp: 'drawing shapes',
  footnote: 'footnotes',
  header: 'headers and footers',
  headerl: 'headers and footers',
  headerr: 'headers and footers',
  headerf: 'headers and footers',
  footer: 'headers and footers',
  footerl: 'headers and footers',
  footerr: 'headers and footers',
  footerf: 'headers and footers',
};

/** Control words that stand for one character. */
const SYMBOL_WORDS: Readonly<Record<string, string>> = {
  tab: '\t',
  line: '\n',
  emdash: '\u2014',
  endash: '\u2013',
  emspace: '\u2003',
  enspace: '\u2002',
  qmspace: '\u2005',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201c',
  rdblquote: '\u201d',
  zwj: '\u200d',
  zwnj: '\u200c',
  ltrmark: '\u200e',
  rtlmark: '\u200f',
};

const hex = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
const isLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const colorHex = (n: number): string => Math.max(0, Math.min(255, n)).toString(16).padStart(2, '0');

function sameStyle(a: RtfCharStyle, b: RtfCharStyle): boolean {
  return (
    a.family === b.family &&
    a.sizePt === b.sizePt &&
    a.bold === b.bold &&
    a.italic === b.italic &&
    a.underline === b.underline &&
    a.strike === b.strike &&
    a.sub === b.sub &&
    a.sup === b.sup &&
    a.color === b.color &&
    a.background === b.background
  );
}

export interface RtfReadOptions {
  /** Where errors point (the object's name and property). */
  where?: string;
  /** The family of fonts the font table does not name. */
  defaultFamily?: string;
}

/** Reads an RTF document (a text that does not start with "{\rtf" is read as plain text). */
export function readRtf(source: string, opts: RtfReadOptions = {}): RtfDocument {
  return new RtfReader(source, opts).read();
}

class RtfReader {
  private i = 0;
  private readonly stack: State[] = [];
  private st: State;
  private codePage = 1252;
  private deff = 0;
  private readonly fonts = new Map<number, { name: string; codePage?: number }>();
  private readonly colors: (string | undefined)[] = [];
  // Font and colour table entries being read.
  private fontNum = 0;
  private fontName = '';
  private rgb: [number, number, number] = [-1, -1, -1];
  /** Fallback characters still to skip after \uN. */
  private skip = 0;
  /** The next control word is an ignorable destination (\*). */
  private starred = false;
  /** No token read yet in the current group (destinations are only recognised first). */
  private groupStart = false;
  private textLength = 0;
  // Output.
  private readonly doc: RtfDocument = { blocks: [], tabWidth: 720 / TWIPS_PER_PX, lost: [] };
  private runs: RtfRun[] = [];
  private cells: RtfParagraph[][] = [];
  private cellParas: RtfParagraph[] = [];
  private cellx: { right: number; borders: RtfCellBorders }[] = [];
  /** The borders of the cell being defined, and the side \brdr… words apply to. */
  private cellBorders: RtfCellBorders = {};
  private borderSide: keyof RtfCellBorders | undefined;
  private trleft = 0;
  private trgaph = 0;
  private tableOpen = false;

  constructor(
    private readonly src: string,
    private readonly opts: RtfReadOptions,
  ) {
    if (src.length > MAX_RTF_CHARS)
      throw new TemplateError(
        `the RTF text has ${src.length} characters, more than the ${MAX_RTF_CHARS} allowed`,
        opts.where,
      );
    this.st = {
      dest: 'text',
      font: 0,
      fs: 24,
      bold: false,
      italic: false,
      underline: false,
      strike: false,
      sub: false,
      sup: false,
      cf: 0,
      bg: 0,
      uc: 1,
      hidden: false,
      caps: false,
      para: defaultParaStyle(),
      inTable: false,
    };
  }

  read(): RtfDocument {
    const src = this.src;
    if (!/^\s*\{\\rtf/.test(src.slice(0, 64))) {
      // Not RTF: each line a paragraph in the default style.
      for (const line of src.split(/\r\n|\r|\n/)) {
        if (line !== '') this.addText(line);
        this.endParagraph();
      }
      return this.doc;
    }
    const n = src.length;
    while (this.i < n) {
      const c = src.charCodeAt(this.i);
      if (c === 123 /* { */) {
        this.i++;
        this.skip = 0;
        if (this.stack.length >= MAX_RTF_DEPTH)
          throw new TemplateError(`the RTF text nests groups deeper than ${MAX_RTF_DEPTH}`, this.opts.where);
        this.stack.push(this.st);
        this.st = { ...this.st };
        this.groupStart = true;
        this.starred = false;
        continue;
      }
      if (c === 125 /* } */) {
        this.i++;
        this.skip = 0;
        this.closeGroup();
        continue;
      }
      if (c === 92 /* \ */) {
        this.control();
        this.groupStart = false;
        continue;
      }
      this.i++;
      if (c === 13 || c === 10) continue;
      this.groupStart = false;
      if (this.skip > 0) {
        this.skip--;
        continue;
      }
      this.addChar(src[this.i - 1] ?? '');
    }
    // Text after the last \par (a document need not end with one).
    if (this.runs.length > 0) this.endParagraph();
    this.closeTable();
    return this.doc;
  }

  private closeGroup(): void {
    const prev = this.st;
    if (prev.dest === 'fonttbl' && this.fontName.trim() !== '') this.commitFont();
    const outer = this.stack.pop();
    if (outer) this.st = outer;
    this.groupStart = false;
    this.starred = false;
  }

  private control(): void {
    const src = this.src;
    const next = src.charCodeAt(this.i + 1);
    if (!isLetter(next)) {
      this.i += 2;
      this.symbol(next);
      return;
    }
    let j = this.i + 1;
    while (j < src.length && j - this.i <= 32 && isLetter(src.charCodeAt(j))) j++;
    const word = src.slice(this.i + 1, j);
    let param: number | undefined;
    const neg = src.charCodeAt(j) === 45 && isDigit(src.charCodeAt(j + 1));
    if (neg || isDigit(src.charCodeAt(j))) {
      let k = neg ? j + 1 : j;
      let v = 0;
      while (k < src.length && isDigit(src.charCodeAt(k)) && k - j < 11) v = v * 10 + (src.charCodeAt(k++) - 48);
      param = Math.min(v, 2 ** 31 - 1) * (neg ? -1 : 1);
      j = k;
    }
    if (src.charCodeAt(j) === 32) j++;
    this.i = j;
    if (this.skip > 0 && word !== 'bin') {
      this.skip--;
      return;
    }
    this.word(word, param);
  }

  private symbol(c: number): void {
    if (c === 39 /* ' */) {
      this.hexBytes();
      return;
    }
    if (this.skip > 0) {
      this.skip--;
      return;
    }
    switch (c) {
      case 42 /* * */:
        this.starred = true;
        return;
      case 92:
      case 123:
      case 125:
        this.addChar(String.fromCharCode(c));
        return;
      case 126 /* ~ */:
        this.addChar('\u00a0');
        return;
      case 95 /* _ */:
        this.addChar('\u2011');
        return;
      case 13:
      case 10:
        this.word('par', undefined);
        return;
      default:
      // \- (optional hyphen), \: and others: nothing to show.
    }
  }

  /** A sequence of \'hh escapes, decoded together (a double-byte character spans two). */
  private hexBytes(): void {
    const src = this.src;
    const bytes: number[] = [];
    this.i -= 2;
    while (src.charCodeAt(this.i) === 92 && src.charCodeAt(this.i + 1) === 39) {
      const h = hex(src.charCodeAt(this.i + 2));
      const l = hex(src.charCodeAt(this.i + 3));
      if (h < 0 || l < 0) {
        this.i += 2;
        break;
      }
      this.i += 4;
      if (this.skip > 0) this.skip--;
      else bytes.push(h * 16 + l);
    }
    if (bytes.length === 0) return;
    const font = this.st.dest === 'text' ? this.fonts.get(this.st.font) : undefined;
    this.addChars(decodeBytes(bytes, font?.codePage ?? this.codePage));
  }

  private word(w: string, p: number | undefined): void {
    const st = this.st;
    if (this.groupStart || this.starred) {
      const starred = this.starred;
      this.groupStart = false;
      this.starred = false;
      const lost = LOST[w];
      if (lost !== undefined && !this.doc.lost.includes(lost)) this.doc.lost.push(lost);
      if (starred || SKIPPED.has(w)) {
        st.dest = 'skip';
        return;
      }
      if (w === 'fonttbl' || w === 'colortbl') {
        st.dest = w;
        return;
      }
    }
    if (st.dest === 'skip') {
      if (w === 'bin' && p !== undefined && p > 0) this.i = Math.min(this.src.length, this.i + p);
      return;
    }
    if (st.dest === 'fonttbl') {
      if (w === 'f') {
        if (this.fontName.trim() !== '') this.commitFont();
        this.fontNum = p ?? 0;
        this.fontName = '';
      } else if (w === 'fcharset' && p !== undefined) {
        const cp = charsetCodePage(p);
        const entry = this.fonts.get(this.fontNum) ?? { name: '' };
        if (cp !== undefined) entry.codePage = cp;
        this.fonts.set(this.fontNum, entry);
      }
      return;
    }
    if (st.dest === 'colortbl') {
      const v = Math.max(0, Math.min(255, p ?? 0));
      if (w === 'red') this.rgb[0] = v;
      else if (w === 'green') this.rgb[1] = v;
      else if (w === 'blue') this.rgb[2] = v;
      return;
    }
    const on = p === undefined || p !== 0;
    const twips = (p ?? 0) / TWIPS_PER_PX;
    const sym = SYMBOL_WORDS[w];
    if (sym !== undefined) {
      this.addChar(sym);
      return;
    }
    switch (w) {
      case 'par':
      case 'sect':
      case 'page':
      case 'nestcell':
        this.endParagraph();
        return;
      case 'cell':
        this.endCell();
        return;
      case 'row':
        this.endRow();
        return;
      case 'u':
        if (p !== undefined) {
          this.addChar(String.fromCharCode(p < 0 ? p + 65536 : p & 0xffff));
          this.skip = st.uc;
        }
        return;
      case 'uc':
        st.uc = Math.max(0, Math.min(8, p ?? 1));
        return;
      case 'bin':
        if (p !== undefined && p > 0) this.i = Math.min(this.src.length, this.i + p);
        return;
      case 'ansi':
        this.codePage = 1252;
        return;
      case 'mac':
        this.codePage = 10000;
        return;
      case 'pc':
        this.codePage = 437;
        return;
      case 'pca':
        this.codePage = 850;
        return;
      case 'ansicpg':
        if (p !== undefined && p > 0) this.codePage = p;
        return;
      case 'deff':
        this.deff = p ?? 0;
        st.font = this.deff;
        return;
      case 'plain':
        Object.assign(st, {
          font: this.deff,
          fs: 24,
          bold: false,
          italic: false,
          underline: false,
          strike: false,
          sub: false,
          sup: false,
          cf: 0,
          bg: 0,
          hidden: false,
          caps: false,
        });
        return;
      case 'pard':
        st.para = defaultParaStyle();
        st.inTable = false;
        return;
      case 'f':
        st.font = p ?? 0;
        return;
      case 'fs':
        st.fs = Math.max(2, Math.min(3276, p ?? 24));
        return;
      case 'b':
        st.bold = on;
        return;
      case 'i':
        st.italic = on;
        return;
      case 'strike':
      case 'striked':
        st.strike = on;
        return;
      case 'v':
        st.hidden = on;
        return;
      case 'caps':
      case 'scaps':
        st.caps = on;
        return;
      case 'deftab':
        if (p !== undefined && p > 0) this.doc.tabWidth = Math.max(1, twips);
        return;
      case 'sl':
        st.para = { ...st.para, lineSpacing: twips };
        return;
      case 'slmult':
        st.para = { ...st.para, multiple: on };
        return;
      case 'clbrdrt':
      case 'clbrdrl':
      case 'clbrdrb':
      case 'clbrdrr':
        this.borderSide = ({ clbrdrt: 'top', clbrdrl: 'left', clbrdrb: 'bottom' } as const)[w as 'clbrdrt'] ?? 'right';
        this.cellBorders[this.borderSide] = { width: 1 };
        return;
      case 'brdrnone':
      case 'brdrnil':
        if (this.borderSide) delete this.cellBorders[this.borderSide];
        return;
      case 'brdrw':
        this.setBorder({ width: Math.max(0.5, Math.min(10, twips)) });
        return;
      case 'brdrcf': {
        const color = this.colors[p ?? 0];
        if (color !== undefined) this.setBorder({ color });
        return;
      }
      case 'ulnone':
        st.underline = false;
        return;
      case 'super':
        st.sup = true;
        st.sub = false;
        return;
      case 'sub':
        st.sub = true;
        st.sup = false;
        return;
      case 'nosupersub':
        st.sub = false;
        st.sup = false;
        return;
      case 'cf':
        st.cf = p ?? 0;
        return;
      case 'cb':
      case 'highlight':
      case 'chcbpat':
        st.bg = p ?? 0;
        return;
      case 'ql':
      case 'qc':
      case 'qr':
      case 'qj':
      case 'qd':
        st.para = { ...st.para, align: ({ ql: 'Left', qc: 'Center', qr: 'Right' } as const)[w as 'ql'] ?? 'Justify' };
        return;
      case 'li':
      case 'lin':
        st.para = { ...st.para, left: twips };
        return;
      case 'ri':
      case 'rin':
        st.para = { ...st.para, right: twips };
        return;
      case 'fi':
        st.para = { ...st.para, first: twips };
        return;
      case 'sb':
        st.para = { ...st.para, before: Math.max(0, twips) };
        return;
      case 'sa':
        st.para = { ...st.para, after: Math.max(0, twips) };
        return;
      case 'intbl':
        st.inTable = true;
        return;
      case 'trowd':
        this.cellx = [];
        this.cellBorders = {};
        this.borderSide = undefined;
        this.trleft = 0;
        this.trgaph = 0;
        return;
      case 'cellx':
        if (this.cellx.length < 64) this.cellx.push({ right: twips, borders: this.cellBorders });
        this.cellBorders = {};
        this.borderSide = undefined;
        return;
      case 'trleft':
        this.trleft = twips;
        return;
      case 'trgaph':
        this.trgaph = Math.max(0, twips);
        return;
      default:
        // \ul and its kinds (\uld, \uldb, \ulwave…) but not the underline colour \ulc.
        if (w.startsWith('ul') && w !== 'ulc') st.underline = on;
    }
  }

  /** A \brdr… property of the cell border being defined. */
  private setBorder(b: Partial<RtfBorder>): void {
    const side = this.borderSide;
    const cur = side ? this.cellBorders[side] : undefined;
    if (side && cur) this.cellBorders[side] = { ...cur, ...b };
  }

  private addChar(ch: string): void {
    const st = this.st;
    if (st.dest === 'fonttbl') {
      if (ch === ';') this.commitFont();
      else if (this.fontName.length < 256) this.fontName += ch;
      return;
    }
    if (st.dest === 'colortbl') {
      if (ch === ';') {
        const [r, g, b] = this.rgb;
        this.colors.push(r < 0 && g < 0 && b < 0 ? undefined : `#${colorHex(r)}${colorHex(g)}${colorHex(b)}`);
        this.rgb = [-1, -1, -1];
      }
      return;
    }
    if (st.dest === 'skip') return;
    this.addText(ch);
  }

  private addChars(s: string): void {
    for (const ch of s) this.addChar(ch);
  }

  private commitFont(): void {
    const name = this.fontName.trim().replace(/;$/, '');
    const entry = this.fonts.get(this.fontNum) ?? { name: '' };
    if (name !== '') entry.name = name;
    this.fonts.set(this.fontNum, entry);
    this.fontName = '';
  }

  private charStyle(): RtfCharStyle {
    const st = this.st;
    const family =
      this.fonts.get(st.font)?.name || this.fonts.get(this.deff)?.name || this.opts.defaultFamily || 'Arial';
    const s: RtfCharStyle = {
      family,
      sizePt: st.fs / 2,
      bold: st.bold,
      italic: st.italic,
      underline: st.underline,
      strike: st.strike,
      sub: st.sub,
      sup: st.sup,
    };
    // Index 0 is usually the empty "auto" entry (then undefined: the object's colour).
    const color = this.colors[st.cf];
    if (color !== undefined) s.color = color;
    const bg = st.bg > 0 ? this.colors[st.bg] : undefined;
    if (bg !== undefined) s.background = bg;
    return s;
  }

  private addText(raw: string): void {
    if (this.st.hidden) return;
    const text = this.st.caps ? raw.toUpperCase() : raw;
    this.textLength += text.length;
    if (this.textLength > MAX_RTF_TEXT)
      throw new TemplateError(`the RTF text holds more than ${MAX_RTF_TEXT} characters`, this.opts.where);
    const style = this.charStyle();
    const last = this.runs[this.runs.length - 1];
    if (last && sameStyle(last.style, style)) last.text += text;
    else this.runs.push({ text, style });
  }

  private endParagraph(): void {
    const p: RtfParagraph = { kind: 'para', style: this.st.para, runs: this.runs, mark: this.charStyle() };
    this.runs = [];
    if (this.st.inTable) {
      this.cellParas.push(p);
      return;
    }
    this.closeTable();
    this.doc.blocks.push(p);
  }

  private endCell(): void {
    if (this.runs.length > 0 || this.cellParas.length === 0) {
      this.cellParas.push({ kind: 'para', style: this.st.para, runs: this.runs, mark: this.charStyle() });
      this.runs = [];
    }
    if (this.cells.length < 64) this.cells.push(this.cellParas);
    this.cellParas = [];
  }

  private endRow(): void {
    if (this.runs.length > 0 || this.cellParas.length > 0) this.endCell();
    const row: RtfRow = { gap: this.trgaph, cells: [] };
    let left = this.trleft;
    this.cells.forEach((paragraphs, k) => {
      const def = this.cellx[k];
      const right = def?.right ?? left + 1440 / TWIPS_PER_PX;
      row.cells.push({ left, right: Math.max(left, right), borders: def?.borders ?? {}, paragraphs });
      left = Math.max(left, right);
    });
    this.cells = [];
    const last = this.doc.blocks[this.doc.blocks.length - 1];
    if (this.tableOpen && last?.kind === 'table') last.rows.push(row);
    else this.doc.blocks.push({ kind: 'table', rows: [row] });
    this.tableOpen = true;
  }

  /** Ends the current table: cells left without \row become a row of their own. */
  private closeTable(): void {
    if (this.cells.length > 0 || this.cellParas.length > 0) this.endRow();
    this.tableOpen = false;
  }
}
