// Logical page totals filled in after a single pass (see pass-plan.ts for when): a text's
// [PageNofM] and [TotalPages] are kept as pieces while the page is laid out, and once the pass
// has numbered every page they get the value the final pass of two would have evaluated (the
// page's own logical number and total, formatted by the object's Format), then the text is
// measured and its lines placed again for its fixed box, as that pass would have.

import type { TypedValue } from '../expr/index.js';
import type { EngineContext } from './context.js';
import type { LateItem } from './postprocess.js';
import type { PreparedText } from './prepared.js';
import type { LatePart } from './runtime.js';
import { formatValue, textSpec } from './text-object.js';
import { measureText, positionLines, preparedLines } from './text-layout.js';

function lateValue(part: LatePart, total: number): TypedValue {
  return part.name === 'TotalPages'
    ? { value: total, type: 'System.Int32' }
    : { value: `Page ${part.pageNo} of ${total}`, type: 'System.String' };
}

/** Fills in the late totals of every page (before postprocess fills [Page#] macros). */
export function fillLateTotals(e: EngineContext, items: ReadonlyMap<PreparedText, LateItem>): void {
  for (const [item, late] of items) {
    const o = late.model;
    const total = e.numbering.totalPages(late.page, e.report.initialPageNumber);
    let text = '';
    for (const p of late.pieces) text += typeof p === 'string' ? p : formatValue(e, o, lateValue(p, total), p.index);
    const spec = textSpec(o, { text, font: item.font, width: late.width, height: late.height });
    const m = measureText(spec, e.fonts, e.warnings, e.resolveFont(spec.font));
    const { lines, html } = preparedLines(m);
    item.text = text;
    item.lines = lines;
    if (html) item.html = html;
    else delete item.html;
    item.lineHeight = m.lineHeight;
    item.ascent = m.ascent;
    positionLines(item);
  }
}
