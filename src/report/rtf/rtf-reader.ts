// A bounded RTF reader (RTF 1.9.1 specification): groups, control words and symbols, \'hh bytes
// in the code page of the font or the document, \uN with \ucN fallback skipping, the font and
// colour tables, character formatting (\b \i \ul \strike \super \sub \f \fs \cf \highlight \cb),
// paragraph formatting (\pard \q? \li \ri \fi \sb \sa), breaks (\par \line \tab) and simple
// tables (\trowd \cellx \cell \row). Destinations it does not show are skipped: any {\* …} group
// and pictures, objects, headers, footers, the style sheet, document info and list tables.
// Everything else is ignored, as the specification asks of a reader. Never throws on malformed
// input except at its limits (TemplateError): the source size, the group depth, the text size.
// The group state and the formatting words are in rtf-state.ts, the document built in
// rtf-builder.ts; this file reads the tokens, the destinations and the font and colour tables.

import { TemplateError } from '../errors.js';
import { charsetCodePage, decodeBytes } from './rtf-code-pages.js';
import { RtfBuilder } from './rtf-builder.js';
import { type RtfCharStyle, type RtfDocument, TWIPS_PER_PX } from './rtf-document.js';
import { applyFormatting, initialState, LOST, SKIPPED, type State, SYMBOL_WORDS } from './rtf-state.js';

/** The largest RTF source read (characters); pictures count, though they are skipped. */
export const MAX_RTF_CHARS = 16 * 1024 * 1024;
/** The deepest group nesting read. */
export const MAX_RTF_DEPTH = 512;
/** The most text a document may hold (characters after decoding). */
export const MAX_RTF_TEXT = 1024 * 1024;

const hex = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
const isLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const colorHex = (n: number): string => Math.max(0, Math.min(255, n)).toString(16).padStart(2, '0');

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
  private readonly out: RtfBuilder;

  constructor(
    private readonly src: string,
    private readonly opts: RtfReadOptions,
  ) {
    if (src.length > MAX_RTF_CHARS)
      throw new TemplateError(
        `the RTF text has ${src.length} characters, more than the ${MAX_RTF_CHARS} allowed`,
        opts.where,
      );
    this.st = initialState();
    this.out = new RtfBuilder(opts.where);
  }

  read(): RtfDocument {
    const src = this.src;
    if (!/^\s*\{\\rtf/.test(src.slice(0, 64))) {
      // Not RTF: each line a paragraph in the default style.
      for (const line of src.split(/\r\n|\r|\n/)) {
        if (line !== '') this.addText(line);
        this.endParagraph();
      }
      return this.out.doc;
    }
    const n = src.length;
    if (src.charCodeAt(0) === 0xfeff) this.i = 1;
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
        // The document ends with its outermost group (what follows, a line break or padding, is
        // not part of it).
        if (this.stack.length === 0) break;
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
    if (this.out.hasRuns) this.endParagraph();
    this.out.closeTable(this.st.para, this.charStyle());
    return this.out.doc;
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
      if (lost !== undefined && !this.out.doc.lost.includes(lost)) this.out.doc.lost.push(lost);
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
    const sym = SYMBOL_WORDS[w];
    if (sym !== undefined) {
      this.addChar(sym);
      return;
    }
    if (applyFormatting(st, w, p, this.deff) || this.out.definition(w, p, this.colors)) return;
    switch (w) {
      case 'par':
      case 'sect':
      case 'page':
      case 'nestcell':
        this.endParagraph();
        return;
      case 'cell':
        this.out.endCell(st.para, this.charStyle());
        return;
      case 'row':
        this.out.endRow(st.para, this.charStyle());
        return;
      case 'u':
        if (p !== undefined) {
          this.addChar(String.fromCharCode(p < 0 ? p + 65536 : p & 0xffff));
          this.skip = st.uc;
        }
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
      case 'deftab':
        if (p !== undefined && p > 0) this.out.doc.tabWidth = Math.max(1, p / TWIPS_PER_PX);
        return;
      default:
      // Anything else: ignored, as the specification asks.
    }
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
    this.out.addText(text, this.charStyle());
  }

  private endParagraph(): void {
    this.out.endParagraph(this.st.para, this.charStyle(), this.st.inTable);
  }
}
