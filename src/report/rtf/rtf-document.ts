// What an RTF document reads as (rtf-reader.ts): blocks of paragraphs and simple tables, each
// paragraph a list of runs of one character style. Sizes are FastReport pixels (96 dpi; RTF
// measures in twips, 1/1440 inch = 1/15 px) and font sizes points.

import type { RunFlags } from '../text/run-flags.js';

export type RtfAlign = 'Left' | 'Center' | 'Right' | 'Justify';

export interface RtfCharStyle extends RunFlags {
  family: string;
  sizePt: number;
  /** "#rrggbb"; undefined = automatic (the object's text colour). */
  color?: string;
  /** Highlight or character shading, "#rrggbb". */
  background?: string;
}

export interface RtfParaStyle {
  align: RtfAlign;
  /** \li, \ri, \fi (first-line indent, negative = hanging), \sb, \sa in px. */
  left: number;
  right: number;
  first: number;
  before: number;
  after: number;
  /** \sl in px: > 0 at least (or, with `multiple`, that many 240ths of a line), < 0 exactly,
   *  0 single. */
  lineSpacing: number;
  multiple: boolean;
  /** Custom tab stops (\tx, with \tqr \tqc \tqdec), in px from the frame's left, ascending. */
  tabs: RtfTabStop[];
}

export interface RtfTabStop {
  pos: number;
  kind: 'left' | 'right' | 'center' | 'decimal';
}

/** Text in one style. "\t" is a tab, "\n" a line break inside the paragraph (\line). */
export interface RtfRun {
  text: string;
  style: RtfCharStyle;
}

export interface RtfParagraph {
  kind: 'para';
  style: RtfParaStyle;
  runs: RtfRun[];
  /** The style of the paragraph mark: the height of an empty paragraph. */
  mark: RtfCharStyle;
}

/** A cell border: its width in px and colour ("#rrggbb"; undefined = automatic, black). */
export interface RtfBorder {
  width: number;
  color?: string;
}

export interface RtfCellBorders {
  top?: RtfBorder;
  left?: RtfBorder;
  bottom?: RtfBorder;
  right?: RtfBorder;
}

export interface RtfCell {
  /** Left and right edges from the text's left edge (\trleft, \cellx). */
  left: number;
  right: number;
  borders: RtfCellBorders;
  paragraphs: RtfParagraph[];
}

export interface RtfRow {
  /** Half the space between cells' text (\trgaph). */
  gap: number;
  /** The row's least height in px (\trrh; an exact height is read as a least one). */
  minHeight: number;
  cells: RtfCell[];
}

export interface RtfTable {
  kind: 'table';
  rows: RtfRow[];
}

export type RtfBlock = RtfParagraph | RtfTable;

export interface RtfDocument {
  blocks: RtfBlock[];
  /** The default tab stop distance in px (\deftab; RTF's default is 720 twips). */
  tabWidth: number;
  /** What the document holds that is not shown ("pictures", …), for a warning. */
  lost: string[];
}

export const TWIPS_PER_PX = 15;

export function defaultParaStyle(): RtfParaStyle {
  return {
    align: 'Left',
    left: 0,
    right: 0,
    first: 0,
    before: 0,
    after: 0,
    lineSpacing: 0,
    multiple: false,
    tabs: [],
  };
}

/** The paragraphs of a document in reading order (tables row by row, cell by cell). */
export function* allParagraphs(doc: RtfDocument): Generator<RtfParagraph> {
  for (const b of doc.blocks) {
    if (b.kind === 'para') yield b;
    else for (const r of b.rows) for (const c of r.cells) yield* c.paragraphs;
  }
}

/** The plain text of a document: paragraphs joined with "\n". */
export function plainText(doc: RtfDocument): string {
  const out: string[] = [];
  for (const p of allParagraphs(doc)) out.push(p.runs.map((r) => r.text).join(''));
  return out.join('\n');
}
