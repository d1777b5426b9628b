// A matrix's row or column headers as a tree (FastReport's MatrixHeader): the root's children are
// the outermost dimension's values, each holding the next dimension's values that occur with it.
// Values are kept sorted as they arrive (per parent), or in order of first appearance; totals
// are added once all rows are in. The printed rows (or columns) are the tree's terminal items in
// order: innermost values and totals.

import type { TypedValue } from '../../expr/index.js';
import type { CellAt, MatrixLevel } from '../../frx/matrix-template.js';

export interface HeaderItem {
  /** The dimension's value (a total carries its parent's; the grand total null). */
  value: TypedValue | null;
  /** 0 for the outermost dimension. */
  level: number;
  total: boolean;
  children: HeaderItem[];
  parent: HeaderItem | null;
  /** The template cell this item's header prints from, and the template row (row items) or
   *  column (column items) its data cells come from. */
  template: CellAt;
  /** The index (among the matrix's data rows) of the first row with this value. */
  firstRow: number;
  /** A value of the innermost dimension: the key its data are stored under. */
  leafId: number;
}

/** Compares two header values in a dimension's order (null first). */
export type CompareValues = (a: TypedValue | null, b: TypedValue | null) => number;

export class HeaderTree {
  readonly root: HeaderItem;
  private leaves = 0;

  constructor(
    private readonly levels: readonly MatrixLevel[],
    private readonly compare: CompareValues,
  ) {
    this.root = {
      value: null,
      level: -1,
      total: false,
      children: [],
      parent: null,
      template: { col: 0, row: 0 },
      firstRow: 0,
      leafId: -1,
    };
  }

  /** The innermost item for one data row's values (added when new); its leaf id. */
  add(values: readonly (TypedValue | null)[], rowIndex: number): number {
    let node = this.root;
    this.levels.forEach((level, i) => {
      const value = values[i] ?? null;
      node = this.child(node, level, i, value, rowIndex);
    });
    return node.leafId;
  }

  /** Per parent, its children by value: most rows repeat a value, found here without comparing. */
  private readonly lookup = new Map<HeaderItem, Map<string, HeaderItem>>();

  private child(parent: HeaderItem, level: MatrixLevel, i: number, value: TypedValue | null, rowIndex: number) {
    let known = this.lookup.get(parent);
    if (!known) this.lookup.set(parent, (known = new Map()));
    const key = valueKey(value);
    const hit = key === undefined ? undefined : known.get(key);
    if (hit) return hit;
    const found = this.find(parent, level, i, value, rowIndex);
    if (key !== undefined) known.set(key, found);
    return found;
  }

  /** The child equal to the value (by the dimension's comparison), inserted in order when new. */
  private find(parent: HeaderItem, level: MatrixLevel, i: number, value: TypedValue | null, rowIndex: number) {
    const kids = parent.children;
    const sort = level.descriptor.sort;
    let at: number;
    if (sort === 'None') {
      const found = kids.findIndex((c) => this.compare(c.value, value) === 0);
      if (found >= 0) return kids[found] as HeaderItem;
      at = kids.length;
    } else {
      const sign = sort === 'Descending' ? -1 : 1;
      let lo = 0;
      let hi = kids.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const c = sign * this.compare((kids[mid] as HeaderItem).value, value);
        if (c === 0) return kids[mid] as HeaderItem;
        if (c < 0) lo = mid + 1;
        else hi = mid;
      }
      at = lo;
    }
    const item: HeaderItem = {
      value,
      level: i,
      total: false,
      children: [],
      parent,
      template: level.header,
      firstRow: rowIndex,
      leafId: i === this.levels.length - 1 ? this.leaves++ : -1,
    };
    kids.splice(at, 0, item);
    return item;
  }

  /** Adds each dimension's totals: a total item under every parent of that dimension's values
   *  (the outermost dimension's total is the grand total), after them or first (TotalsFirst);
   *  SuppressTotals leaves out the total of a parent with one value. */
  addTotals(): void {
    const visit = (node: HeaderItem, depth: number): void => {
      for (const child of node.children) if (!child.total) visit(child, depth + 1);
      const level = this.levels[depth];
      if (!level?.total) return;
      const d = level.descriptor;
      if (d.suppressTotals && node.children.length <= 1) return;
      const total: HeaderItem = {
        value: node === this.root ? null : node.value,
        level: depth,
        total: true,
        children: [],
        parent: node,
        template: level.total,
        firstRow: node.children[0]?.firstRow ?? node.firstRow,
        leafId: -1,
      };
      if (d.totalsFirst) node.children.unshift(total);
      else node.children.push(total);
    };
    visit(this.root, 0);
  }

  /** The printed items (innermost values and totals), in order. */
  terminals(): HeaderItem[] {
    const out: HeaderItem[] = [];
    const walk = (node: HeaderItem): void => {
      for (const c of node.children) {
        if (c.children.length === 0) out.push(c);
        else walk(c);
      }
    };
    walk(this.root);
    return out;
  }
}

/** A key equal for equal values of one type (values the comparison calls equal may still differ
 *  here: the key only finds repeats fast). */
export function valueKey(v: TypedValue | null): string | undefined {
  if (v === null) return 'null';
  const x = v.value;
  if (x instanceof Date) return `${v.type}:${x.getTime()}`;
  // Objects without a text of their own (no toString) get no key: they are compared.
  if (typeof x === 'object' && x !== null && x.toString === Object.prototype.toString) return undefined;
  return `${v.type}:${String(x)}`;
}

/** The innermost values a terminal item stands for: itself, or for a total all values under
 *  its parent. */
export function leafIdsOf(item: HeaderItem): number[] {
  if (!item.total) return item.leafId >= 0 ? [item.leafId] : [];
  const out: number[] = [];
  const walk = (node: HeaderItem): void => {
    for (const c of node.children) {
      if (c.total) continue;
      if (c.leafId >= 0) out.push(c.leafId);
      else walk(c);
    }
  };
  if (item.parent) walk(item.parent);
  return out;
}

/** The number of terminal items under an item (1 for a terminal one). */
export function spanOf(item: HeaderItem): number {
  if (item.children.length === 0) return 1;
  let n = 0;
  for (const c of item.children) n += spanOf(c);
  return n;
}
