// The document an RTF reader builds: runs of one style merged, paragraphs, and the cells and rows
// of tables (\trowd … \cellx, with each cell's \clbrdr… borders; \cell, \row), consecutive rows
// making one table.

import { TemplateError } from '../errors.js';
import { sameFlags } from '../text/run-flags.js';
import type {
  RtfBorder,
  RtfCellBorders,
  RtfCharStyle,
  RtfDocument,
  RtfParagraph,
  RtfParaStyle,
  RtfRow,
  RtfRun,
} from './rtf-document.js';
import { TWIPS_PER_PX } from './rtf-document.js';

/** The most cells a row holds (more are dropped). */
const MAX_CELLS = 64;
/** The most paragraphs (table cells' included) a document may hold. */
export const MAX_RTF_PARAGRAPHS = 50_000;

function sameStyle(a: RtfCharStyle, b: RtfCharStyle): boolean {
  return (
    a.family === b.family &&
    a.sizePt === b.sizePt &&
    sameFlags(a, b) &&
    a.color === b.color &&
    a.background === b.background
  );
}

export class RtfBuilder {
  readonly doc: RtfDocument = { blocks: [], tabWidth: 720 / TWIPS_PER_PX, lost: [] };
  private runs: RtfRun[] = [];
  private cells: RtfParagraph[][] = [];
  private cellParas: RtfParagraph[] = [];
  private cellx: { right: number; borders: RtfCellBorders }[] = [];
  /** The borders of the cell being defined, and the side \brdr… words apply to. */
  private cellBorders: RtfCellBorders = {};
  private borderSide: keyof RtfCellBorders | undefined;
  private trleft = 0;
  private trgaph = 0;
  private trrh = 0;
  private tableOpen = false;

  get hasRuns(): boolean {
    return this.runs.length > 0;
  }

  addText(text: string, style: RtfCharStyle): void {
    const last = this.runs[this.runs.length - 1];
    if (last && sameStyle(last.style, style)) last.text += text;
    else this.runs.push({ text, style });
  }

  private paragraphs = 0;

  constructor(private readonly where: string | undefined) {}

  private newParagraph(style: RtfParaStyle, mark: RtfCharStyle): RtfParagraph {
    if (++this.paragraphs > MAX_RTF_PARAGRAPHS)
      throw new TemplateError(`the RTF text holds more than ${MAX_RTF_PARAGRAPHS} paragraphs`, this.where);
    const p: RtfParagraph = { kind: 'para', style, runs: this.runs, mark };
    this.runs = [];
    return p;
  }

  endParagraph(style: RtfParaStyle, mark: RtfCharStyle, inTable: boolean): void {
    const p = this.newParagraph(style, mark);
    if (inTable) {
      this.cellParas.push(p);
      return;
    }
    this.closeTable(style, mark);
    this.doc.blocks.push(p);
  }

  endCell(style: RtfParaStyle, mark: RtfCharStyle): void {
    if (this.runs.length > 0 || this.cellParas.length === 0) this.cellParas.push(this.newParagraph(style, mark));
    if (this.cells.length < MAX_CELLS) this.cells.push(this.cellParas);
    this.cellParas = [];
  }

  endRow(style: RtfParaStyle, mark: RtfCharStyle): void {
    if (this.runs.length > 0 || this.cellParas.length > 0) this.endCell(style, mark);
    const row: RtfRow = { gap: this.trgaph, minHeight: this.trrh, cells: [] };
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
  closeTable(style: RtfParaStyle, mark: RtfCharStyle): void {
    if (this.cells.length > 0 || this.cellParas.length > 0) this.endRow(style, mark);
    this.tableOpen = false;
  }

  /** A row or cell definition word (\trowd \cellx \trleft \trgaph \clbrdr? \brdr…); false
   *  when `w` is not one. `colors` is the colour table (\brdrcf). */
  definition(w: string, p: number | undefined, colors: readonly (string | undefined)[]): boolean {
    const twips = (p ?? 0) / TWIPS_PER_PX;
    switch (w) {
      case 'trowd':
        this.cellx = [];
        this.cellBorders = {};
        this.borderSide = undefined;
        this.trleft = 0;
        this.trgaph = 0;
        this.trrh = 0;
        return true;
      case 'cellx':
        if (this.cellx.length < MAX_CELLS) this.cellx.push({ right: twips, borders: this.cellBorders });
        this.cellBorders = {};
        this.borderSide = undefined;
        return true;
      case 'trleft':
        this.trleft = twips;
        return true;
      case 'trgaph':
        this.trgaph = Math.max(0, twips);
        return true;
      case 'trrh':
        this.trrh = Math.min(2000, Math.abs(twips));
        return true;
      case 'clbrdrt':
      case 'clbrdrl':
      case 'clbrdrb':
      case 'clbrdrr':
        this.borderSide = ({ clbrdrt: 'top', clbrdrl: 'left', clbrdrb: 'bottom' } as const)[w as 'clbrdrt'] ?? 'right';
        this.cellBorders[this.borderSide] = { width: 1 };
        return true;
      case 'brdrnone':
      case 'brdrnil':
        if (this.borderSide) delete this.cellBorders[this.borderSide];
        return true;
      case 'brdrw':
        this.setBorder({ width: Math.max(0.5, Math.min(10, twips)) });
        return true;
      case 'brdrcf': {
        const color = colors[p ?? 0];
        if (color !== undefined) this.setBorder({ color });
        return true;
      }
      default:
        return false;
    }
  }

  /** A \brdr… property of the cell border being defined. */
  private setBorder(b: Partial<RtfBorder>): void {
    const side = this.borderSide;
    const cur = side ? this.cellBorders[side] : undefined;
    if (side && cur) this.cellBorders[side] = { ...cur, ...b };
  }
}
