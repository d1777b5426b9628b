// The bands repeated on every page (FastReport's ReportEngine.Reprint, RepeatOnEveryPage):
// headers printed again at the top of each page or column, footers at the bottom. Bands added
// while a keep block is open join the lists only when the block is placed.

import type { BandModel } from '../frx/model.js';

const isHeader = (b: BandModel): boolean => b.type === 'DataHeaderBand' || b.type === 'GroupHeaderBand';

export class Reprints {
  headers: BandModel[] = [];
  footers: BandModel[] = [];
  keepHeaders: BandModel[] = [];
  keepFooters: BandModel[] = [];

  add(band: BandModel, keeping: boolean): void {
    if (keeping) (isHeader(band) ? this.keepHeaders : this.keepFooters).push(band);
    else (isHeader(band) ? this.headers : this.footers).push(band);
  }

  remove(band: BandModel): void {
    for (const list of [this.keepHeaders, this.headers, this.keepFooters, this.footers]) {
      const i = list.indexOf(band);
      if (i >= 0) list.splice(i, 1);
    }
  }

  /** A keep block starts: bands added from now on wait for it. */
  startKeep(): void {
    this.keepHeaders = [];
    this.keepFooters = [];
  }

  /** The keep block is placed: its bands join the lists. */
  endKeep(): void {
    this.headers.push(...this.keepHeaders);
    this.footers.push(...this.keepFooters);
    this.keepHeaders = [];
    this.keepFooters = [];
  }

  /** A report page starts with no repeated bands. */
  clear(): void {
    this.headers = [];
    this.keepHeaders = [];
    this.footers = [];
    this.keepFooters = [];
  }
}
