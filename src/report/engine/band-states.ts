// The data cursors of the bands while the report runs: each band's row numbers and print flags
// (BandRt), the band being shown (Row#, AbsRow#), the hierarchy level of a hierarchical data
// band, and the output band that collects the rows of a multi-column data band.

import type { BandModel } from '../frx/model.js';
import { newBandRt, type BandRt, type OutputBand } from './runtime.js';

/** A hierarchical data band's position (FastReport's HierarchyLevel, HierarchyRow#). */
export interface HierarchyPosition {
  level: number;
  /** Left indent of the level's rows (Indent × (level − 1)). */
  indent: number;
  rowNo: string;
}

export class BandStates {
  private readonly states = new Map<BandModel, BandRt>();
  /** The band being shown (its row numbers are the current Row#/AbsRow#). */
  current: BandModel | null = null;
  /** Set while rows of a multi-column data band are collected into one output band. */
  output: OutputBand | null = null;
  hierarchy: HierarchyPosition = { level: 1, indent: 0, rowNo: '' };

  rt(band: BandModel): BandRt {
    let r = this.states.get(band);
    if (!r) this.states.set(band, (r = newBandRt()));
    return r;
  }

  /** Sets RowNo/AbsRowNo of a band and its child bands (FastReport's setters do the same). */
  setRowNo(band: BandModel, rowNo: number, absRowNo: number): void {
    for (let b: BandModel | null = band; b; b = b.child) {
      const r = this.rt(b);
      r.rowNo = rowNo;
      r.absRowNo = absRowNo;
    }
  }

  /** Before a second pass: every band starts over. */
  clear(): void {
    this.states.clear();
  }
}
