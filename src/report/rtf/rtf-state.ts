// The RTF reader's group state (what a group inherits and restores) and the control words that
// change it: character formatting (\b \i \ul \strike \super \sub \f \fs \cf \highlight \cb
// \v \caps) and paragraph formatting (\pard \q? \li \ri \fi \sb \sa \sl \slmult \intbl);
// and the tables of destinations and symbol words the reader consults.

import type { RunFlags } from '../text/run-flags.js';
import { defaultParaStyle, type RtfParaStyle, type RtfTabStop, TWIPS_PER_PX } from './rtf-document.js';

export type Dest = 'text' | 'skip' | 'fonttbl' | 'colortbl';

export interface State extends RunFlags {
  dest: Dest;
  font: number;
  /** Half-points. */
  fs: number;
  cf: number;
  bg: number;
  uc: number;
  /** \v: hidden text; \caps (and \scaps): shown in capitals. */
  hidden: boolean;
  caps: boolean;
  para: RtfParaStyle;
  inTable: boolean;
  /** The kind of the next \tx tab stop (\tqr, \tqc, \tqdec). */
  tabKind: RtfTabStop['kind'];
}

/** The character formatting a document starts with and \plain returns to, in `font`. */
function plainFormatting(font: number) {
  return {
    font,
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
  };
}

export function initialState(): State {
  return {
    dest: 'text',
    ...plainFormatting(0),
    uc: 1,
    para: defaultParaStyle(),
    inTable: false,
    tabKind: 'left',
  };
}

/** Destinations that hold no document text (shown only by readers that understand them). */
export const SKIPPED = new Set([
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
export const LOST: Readonly<Record<string, string>> = {
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
export const SYMBOL_WORDS: Readonly<Record<string, string>> = {
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

/** The toggle words (on without a parameter or with a non-zero one, off with 0) and the flag each
 *  sets. */
const TOGGLES = {
  b: 'bold',
  i: 'italic',
  strike: 'strike',
  striked: 'strike',
  v: 'hidden',
  caps: 'caps',
  scaps: 'caps',
} as const;

/**
 * Applies a formatting control word to the group state; false when `w` is not one. `deff` is the
 * document's default font (\plain returns to it).
 */
export function applyFormatting(st: State, w: string, p: number | undefined, deff: number): boolean {
  const on = p === undefined || p !== 0;
  const twips = (p ?? 0) / TWIPS_PER_PX;
  switch (w) {
    case 'plain':
      Object.assign(st, plainFormatting(deff));
      return true;
    case 'pard':
      st.para = defaultParaStyle();
      st.inTable = false;
      return true;
    case 'f':
      st.font = p ?? 0;
      return true;
    case 'fs':
      st.fs = Math.max(2, Math.min(3276, p ?? 24));
      return true;
    case 'b':
    case 'i':
    case 'strike':
    case 'striked':
    case 'v':
    case 'caps':
    case 'scaps':
      st[TOGGLES[w]] = on;
      return true;
    case 'ulnone':
      st.underline = false;
      return true;
    case 'super':
      st.sup = true;
      st.sub = false;
      return true;
    case 'sub':
      st.sub = true;
      st.sup = false;
      return true;
    case 'nosupersub':
      st.sub = false;
      st.sup = false;
      return true;
    case 'cf':
      st.cf = p ?? 0;
      return true;
    case 'cb':
    case 'highlight':
    case 'chcbpat':
      st.bg = p ?? 0;
      return true;
    case 'uc':
      st.uc = Math.max(0, Math.min(8, p ?? 1));
      return true;
    case 'intbl':
      st.inTable = true;
      return true;
    default:
      if (w.startsWith('ul') && w !== 'ulc') {
        // \ul and its kinds (\uld, \uldb, \ulwave…) but not the underline colour \ulc.
        st.underline = on;
        return true;
      }
      return applyParagraph(st, w, twips, on);
  }
}

function applyParagraph(st: State, w: string, twips: number, on: boolean): boolean {
  const set = (change: Partial<RtfParaStyle>): boolean => {
    st.para = { ...st.para, ...change };
    return true;
  };
  switch (w) {
    case 'ql':
      return set({ align: 'Left' });
    case 'qc':
      return set({ align: 'Center' });
    case 'qr':
      return set({ align: 'Right' });
    case 'qj':
    case 'qd':
      return set({ align: 'Justify' });
    case 'li':
    case 'lin':
      return set({ left: twips });
    case 'ri':
    case 'rin':
      return set({ right: twips });
    case 'fi':
      return set({ first: twips });
    case 'sb':
      return set({ before: Math.max(0, twips) });
    case 'sa':
      return set({ after: Math.max(0, twips) });
    case 'sl':
      return set({ lineSpacing: twips });
    case 'slmult':
      return set({ multiple: on });
    case 'tqr':
    case 'tqc':
    case 'tqdec':
      st.tabKind = w === 'tqr' ? 'right' : w === 'tqc' ? 'center' : 'decimal';
      return true;
    case 'tx':
    case 'tb': {
      // A bar tab (\tb) draws a rule, not a stop: only its kind is reset.
      const kind = st.tabKind;
      st.tabKind = 'left';
      if (w === 'tb' || st.para.tabs.length >= 64) return true;
      const tabs = [...st.para.tabs, { pos: twips, kind }].sort((a, b) => a.pos - b.pos);
      return set({ tabs });
    }
    default:
      return false;
  }
}
