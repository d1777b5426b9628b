// One or two passes (FastReport's ReportEngine.RunPhase1/2 with DoublePass): which pass runs and
// what the first one found out.

import type { TextObjectModel } from '../frx/model.js';

export class Passes {
  /** True during the pass whose pages are the output. */
  finalPass = false;
  /** Physical page count of the first pass (TotalPages#). */
  firstPassPageCount = 0;
  /** True during a first pass whose pages are not the output (the second pass lays them out
   *  again; the first is run for the page count): finished pages drop their items then, so a
   *  large report is not held twice (pages.ts, dropFinishedPages). */
  dropFinishedPages = false;

  /** doublePass: two passes. lateTotals: texts whose [PageNofM]/[TotalPages] a single pass
   *  fills in after layout (pass-plan.ts, late-totals.ts). */
  constructor(
    readonly doublePass: boolean,
    readonly lateTotals: ReadonlySet<TextObjectModel> = new Set(),
  ) {}

  get firstPass(): boolean {
    return !(this.doublePass && this.finalPass);
  }
}
