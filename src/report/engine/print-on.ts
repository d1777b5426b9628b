// FastReport's CanPrint: whether a band or object prints on the current page, by its PrintOn
// flags (first, last, odd, even, single page, repeated band).

import type { ComponentModel } from '../frx/model.js';
import type { EngineContext } from './context.js';

// PrintOn flags as bits, worked out once per flag list (canPrint runs for every object of every
// band printed). A flag this engine does not know gets a bit of its own, so that "only these
// flags" stays false for a list holding it, as it was for the set of names.
const FIRST = 1;
const LAST = 2;
const ODD = 4;
const EVEN = 8;
const REPEATED = 16;
const SINGLE = 32;
const UNKNOWN = 64;
const FLAG_BITS = new Map<string, number>([
  ['FirstPage', FIRST],
  ['LastPage', LAST],
  ['OddPages', ODD],
  ['EvenPages', EVEN],
  ['RepeatedBand', REPEATED],
  ['SinglePage', SINGLE],
]);
const printOnMasks = new WeakMap<readonly string[], number>();

function printOnMask(flags: readonly string[]): number {
  let mask = printOnMasks.get(flags);
  if (mask === undefined) {
    mask = 0;
    for (const f of flags) mask |= FLAG_BITS.get(f) ?? UNKNOWN;
    printOnMasks.set(flags, mask);
  }
  return mask;
}

/** FastReport's CanPrint: PrintOn flags against the current page (first, last, odd, even,
 *  single page) and repeated bands. Page parity is the page number's (1 = odd). */
export function canPrint(e: EngineContext, c: ComponentModel, repeated: boolean): boolean {
  if (!c.visible) return false;
  const flags = printOnMask(c.printOn);
  const pageNum = e.cursor.curPage + 1;
  const isFirst = e.cursor.curPage === e.numbering.firstReportPage;
  const isLast = e.passes.finalPass && e.passes.doublePass && e.cursor.curPage === e.passes.firstPassPageCount - 1;
  let can = ((flags & ODD) !== 0 && pageNum % 2 === 1) || ((flags & EVEN) !== 0 && pageNum % 2 === 0);
  if (isLast) {
    if ((flags & LAST) === 0) can = false;
    if (flags === LAST || flags === (LAST | SINGLE) || flags === (FIRST | LAST)) can = true;
  }
  if (isFirst) {
    if ((flags & FIRST) === 0) can = false;
    if (flags === FIRST || flags === (FIRST | SINGLE) || flags === (FIRST | LAST)) can = true;
  }
  if (isFirst && isLast) can = (flags & SINGLE) !== 0;
  if (repeated) can = (flags & REPEATED) !== 0;
  return can;
}

/** True when canPrint's answer on the last page of a double pass (which knows it is the last)
 *  can differ from its answer on a page in the middle: flags without LastPage, or only last-page
 *  flags. A single pass never knows the last page, so such a component prints differently when
 *  the report runs twice (page-stream.ts asks before it makes a single pass a double one). */
export function printsByLastPage(flags: readonly string[]): boolean {
  const m = printOnMask(flags);
  return (m & LAST) === 0 || m === LAST || m === (LAST | SINGLE) || m === (FIRST | LAST);
}
