// Hyperlinks at print time: an object's link target from its Value or Expression, as the
// prepared link the exporters make (url, page, bookmark) or a detail link (DetailPage,
// DetailReport) that ../detail-pages.ts turns into a page link.

import type { HyperlinkModel } from '../frx/model.js';
import type { EngineContext } from './context.js';
import type { PreparedHyperlink } from './prepared.js';

/** An object's link for the current row (undefined: none). */
export function hyperlink(
  e: EngineContext,
  owner: object,
  name: string,
  h: HyperlinkModel,
): PreparedHyperlink | undefined {
  let target = h.value;
  if (h.expression.trim() !== '') {
    target = e.exprs.text(owner, 'hyperlink', h.expression, `${name}.Hyperlink.Expression`) ?? '';
  }
  return linkTo(e, name, h, target);
}

/** True for a link whose value, when it has no Expression, its container gives (a matrix cell's
 *  header value, or its column and row values: FastReport's MatrixHelper). */
export const takesContainerValue = (h: HyperlinkModel): boolean =>
  h.expression.trim() === '' && (h.kind === 'DetailPage' || h.kind === 'DetailReport' || h.kind === 'Custom');

/** The prepared link of a hyperlink whose value is worked out (undefined: none). */
export function linkTo(
  e: EngineContext,
  name: string,
  h: HyperlinkModel,
  target: string,
): PreparedHyperlink | undefined {
  if (target === '') return undefined;
  if (
    (h.kind === 'DetailPage' && h.detailPageName !== '') ||
    (h.kind === 'DetailReport' && h.detailReportName !== '')
  ) {
    const detail = h.kind === 'DetailPage' ? { page: h.detailPageName } : { report: h.detailReportName };
    return {
      kind: 'detail',
      target,
      newTab: h.openLinkInNewTab,
      detail: { ...detail, parameter: h.reportParameter, separator: h.valuesSeparator },
    };
  }
  const kind =
    h.kind === 'URL' ? 'url' : h.kind === 'PageNumber' ? 'page' : h.kind === 'Bookmark' ? 'bookmark' : undefined;
  if (!kind) {
    // Custom runs a handler in FastReport's preview (a DetailPage or DetailReport without its
    // page or report goes nowhere either).
    e.warnings.add(`${name}: its ${h.kind} hyperlink works only in an interactive preview; it prints as plain text`);
    return undefined;
  }
  return { kind, target, newTab: h.openLinkInNewTab };
}
