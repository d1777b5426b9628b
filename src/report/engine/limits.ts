// The run's limits (see README, Limits): pages and data rows, and the report stopping early.

import { RenderTooLargeError, type ReportWarnings } from '../errors.js';

export class RunLimits {
  /** True when maxPages is the template's MaxPages (not larger than the run's limit). */
  private readonly templateStopsPages: boolean;
  readonly maxPages: number;
  /** The report stopped (a limit was reached); nothing more is laid out. */
  aborted = false;
  /** The report stopped at the run's page limit because truncation was asked for. */
  truncated = false;
  rowsVisited = 0;

  constructor(
    runMaxPages: number,
    templateMaxPages: number,
    readonly maxRows: number,
    private readonly truncatePages: boolean,
    private readonly warnings: ReportWarnings,
  ) {
    this.templateStopsPages = templateMaxPages > 0 && templateMaxPages <= runMaxPages;
    this.maxPages = this.templateStopsPages ? templateMaxPages : runMaxPages;
  }

  /** Counts a data row against the row budget; stops the report when it is spent. */
  visitRow(): void {
    if (++this.rowsVisited > this.maxRows && !this.aborted) {
      this.abort(`the report walks more than ${this.maxRows} data rows; it was stopped there`);
    }
  }

  /** True while another page may be added to `pageCount` pages. At the limit: the template's
   *  MaxPages stops the report (a warning), asked-for truncation stops it too (marked
   *  truncated), and otherwise the run fails with RenderTooLargeError — never a silent cut. */
  roomForPage(pageCount: number): boolean {
    if (pageCount < this.maxPages) return true;
    if (this.templateStopsPages)
      this.abort(`the report has more than ${this.maxPages} pages (the template's MaxPages)`);
    else if (this.truncatePages) {
      this.truncated = true;
      this.abort(`the report has more than ${this.maxPages} pages; the first ${this.maxPages} were asked for`);
    } else throw new RenderTooLargeError(this.maxPages);
    return false;
  }

  abort(reason: string): void {
    if (this.aborted) return;
    this.aborted = true;
    this.warnings.add(`Output truncated: ${reason}`);
  }
}
