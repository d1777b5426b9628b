// AdvMatrixObject (FastReport.AdvMatrix): a TableBase whose template cells are laid out by two
// header trees, <Columns> and <Rows>, each a list of <Descriptor> elements (nested = sub-levels,
// siblings = adjacent items). The template grid holds the corner, one header line per level and
// one data line per leaf item (engine/adv-matrix/slots.ts says which). Its buttons
// (MatrixCollapseButton, MatrixSortButton) sit in header cells or on bands.

import type { AdvDescriptorModel, AdvMatrixObjectModel, MatrixButtonModel, MatrixSort } from './model.js';
import { readComponent } from './component.js';
import { readTable, type TableParsers } from './table.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

/** Header trees deeper or larger than this are cut (with a warning): no demo goes past 3 levels
 *  and 10 items, and every level costs a header line. */
export const MAX_DESCRIPTOR_DEPTH = 16;
export const MAX_DESCRIPTORS = 1000;

const SORTS = ['Ascending', 'Descending', 'None'] as const;

export function parseAdvMatrixObject(el: XmlElement, ctx: LoadContext, parsers: TableParsers): AdvMatrixObjectModel {
  const a = new Attrs(el, ctx);
  const table = readTable(el, a, ctx, parsers, new Set(['Columns', 'Rows']));
  const tree = (name: string): AdvDescriptorModel[] => {
    const lists = el.children.filter((c) => c.name === name);
    const budget = { left: MAX_DESCRIPTORS };
    return descriptors(
      lists.flatMap((c) => c.children),
      1,
      budget,
      ctx,
      `${describe(el)} <${name}>`,
    );
  };
  const m: AdvMatrixObjectModel = {
    ...table,
    type: 'AdvMatrixObject',
    // Style names a built-in colour scheme (Blue, Gray, BlueWhite), not a report style: the
    // designer applied it to the template cells, which carry its colours already.
    style: '',
    matrixStyle: table.style,
    dataSource: a.str('DataSource'),
    filter: a.str('Filter'),
    columnDescriptors: tree('Columns'),
    rowDescriptors: tree('Rows'),
    printIfEmpty: a.bool('PrintIfEmpty', true),
  };
  m.raw = a.rest();
  return m;
}

function descriptors(
  elements: XmlElement[],
  depth: number,
  budget: { left: number },
  ctx: LoadContext,
  where: string,
): AdvDescriptorModel[] {
  const out: AdvDescriptorModel[] = [];
  for (const el of elements) {
    if (el.name !== 'Descriptor') {
      ctx.warn(`${describe(el)} in ${where} is not a <Descriptor>; it is ignored`);
      continue;
    }
    if (depth > MAX_DESCRIPTOR_DEPTH) {
      ctx.warn(`${where}: header items nested deeper than ${MAX_DESCRIPTOR_DEPTH} levels are ignored`);
      break;
    }
    if (budget.left <= 0) {
      ctx.warn(`${where}: more than ${MAX_DESCRIPTORS} header items; the rest are ignored`);
      break;
    }
    budget.left--;
    out.push(descriptor(el, depth, budget, ctx, where));
  }
  return out;
}

function descriptor(
  el: XmlElement,
  depth: number,
  budget: { left: number },
  ctx: LoadContext,
  where: string,
): AdvDescriptorModel {
  const a = new Attrs(el, ctx);
  const topCount = a.int('TopN.Count', 0);
  const d: AdvDescriptorModel = {
    name: a.str('Name'),
    line: el.line,
    expression: a.str('Expression'),
    displayText: a.str('DisplayText'),
    sort: a.enumOf('Sort', SORTS, 'Ascending'),
    sortByTotal: a.str('SortByTotal'),
    filter: a.str('Filter'),
    visible: a.bool('Visible', true),
    stepped: a.bool('Stepped', false),
    topN:
      topCount > 0
        ? {
            count: topCount,
            total: a.str('TopN.Total.Name'),
            others: a.str('TopN.Others.Name'),
            othersTotal: a.str('TopN.OthersTotal.Name'),
          }
        : null,
    children: [],
  };
  // Read so that they are not reported: the buttons' links (printed expanded, sorted as the
  // descriptor says) and the spans the template grid already shows.
  for (const key of ['VisibleToggledBy', 'SortToggledBy', 'RowSpan', 'ColSpan']) a.take(key);
  d.children = descriptors(el.children, depth + 1, budget, ctx, where);
  return d;
}

/** MatrixCollapseButton / MatrixSortButton. */
export function parseMatrixButton(el: XmlElement, ctx: LoadContext): MatrixButtonModel {
  const a = new Attrs(el, ctx);
  const o: MatrixButtonModel = {
    type: 'MatrixButton',
    ...readComponent(a),
    button: el.name === 'MatrixSortButton' ? 'Sort' : 'Collapse',
    symbol: a.enumOf('Symbol', ['PlusMinus', 'Arrow'] as const, 'PlusMinus'),
    symbolSize: a.clamped('SymbolSize', 7, 1, 64),
    sort: a.enumOf('Sort', SORTS, 'Ascending') as MatrixSort,
  };
  a.take('ShowCollapseExpandMenu');
  for (const child of el.children) ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
  o.raw = a.rest();
  return o;
}
