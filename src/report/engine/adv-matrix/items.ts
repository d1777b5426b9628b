// The printed header items of one AdvMatrix axis, built from its descriptor tree and the data
// rows: a group gives one item per distinct value of its expression among its parent's rows
// (ordered by value, by its SortByTotal aggregate, or by first appearance), a static item one item
// with all its parent's rows. TopN keeps a group's first N items; its named siblings print the
// total of those (Total), the other values (Others, each an item of its own: the engine prints
// collapsed items expanded) and their total (OthersTotal). Each item holds its data rows.

import { TemplateError } from '../../errors.js';
import type { TypedValue } from '../../expr/index.js';
import type { AdvMatrixObjectModel } from '../../frx/model.js';
import type { EngineContext } from '../context.js';
import { compareSortValues } from '../datasource.js';
import { valueKey } from '../matrix/headers.js';
import type { MatrixRows } from './rows.js';
import { IMPLICIT_DESCRIPTOR, type AxisSlots, type SlotDescriptor } from './slots.js';

/** Items per axis at most: beyond, the matrix cannot print (a TemplateError says so). */
export const MAX_AXIS_ITEMS = 100_000;

export interface AdvItem {
  /** The descriptor whose template cells the item prints with. */
  slot: SlotDescriptor;
  /** A value of a group (else a static item). */
  group: boolean;
  value: TypedValue | null;
  /** Its data rows (indexes into the matrix's rows), ascending. */
  rows: Int32Array;
  children: AdvItem[];
  parent: AdvItem | null;
  /** Its place among the items of its group (1-based): [Matrix.RowNo]. */
  rowNo: number;
  /** [Matrix.ItemCount]: its group children (the values under it), or what a TopN sibling
   *  stands for. */
  itemCount: number;
}

/** The total an item's group is sorted by (SortByTotal), evaluated over the item's rows. */
export type SortTotal = (slot: SlotDescriptor, rows: Int32Array) => TypedValue | null;

export function buildItems(
  e: EngineContext,
  o: AdvMatrixObjectModel,
  axis: AxisSlots,
  rows: MatrixRows,
  sortTotal: SortTotal,
  what: string,
): AdvItem {
  const root: AdvItem = {
    slot: { model: IMPLICIT_DESCRIPTOR, level: -1, slot: -1, firstSlot: 0, children: axis.roots },
    group: false,
    value: null,
    rows: rows.all(),
    children: [],
    parent: null,
    rowNo: 1,
    itemCount: 0,
  };
  let made = 0;
  const count = (n: number): void => {
    made += n;
    if (made > MAX_AXIS_ITEMS)
      throw new TemplateError(`the matrix would have more than ${MAX_AXIS_ITEMS} ${what} items`, o.name);
  };
  const culture = e.culture.name;

  const filtered = (slot: SlotDescriptor, parentRows: Int32Array): Int32Array => {
    const f = slot.model.filter.trim();
    if (f === '') return parentRows;
    const where = `${o.name}.${what}.Filter`;
    return parentRows.filter((r) => rows.value(slot.model, 'filter', f, where, r)?.value !== false);
  };

  /** A group's items (sorted), not yet expanded. */
  const groupItems = (slot: SlotDescriptor, parent: AdvItem): AdvItem[] => {
    const d = slot.model;
    const where = `${o.name}.${what}.Expression`;
    const byKey = new Map<string, { value: TypedValue | null; rows: number[] }>();
    const loose: { value: TypedValue | null; rows: number[] }[] = [];
    for (const r of filtered(slot, parent.rows)) {
      e.limits.visitRow();
      const v = rows.value(d, 'expression', d.expression, where, r);
      const key = valueKey(v);
      let g = key === undefined ? loose.find((x) => compareSortValues(x.value, v, culture) === 0) : byKey.get(key);
      if (!g) {
        g = { value: v, rows: [] };
        if (key === undefined) loose.push(g);
        else byKey.set(key, g);
        count(1);
      }
      g.rows.push(r);
    }
    const items = [...byKey.values(), ...loose].map(
      (g): AdvItem => ({
        slot,
        group: true,
        value: g.value,
        rows: Int32Array.from(g.rows),
        children: [],
        parent,
        rowNo: 0,
        itemCount: 0,
      }),
    );
    const descending = d.sort === 'Descending' ? -1 : 1;
    const firstRow = (i: AdvItem): number => i.rows[0] ?? 0;
    if (d.sortByTotal.trim() !== '') {
      const totals = new Map(items.map((i) => [i, sortTotal(slot, i.rows)]));
      items.sort(
        (a, b) => descending * compareSortValues(totals.get(a), totals.get(b), culture) || firstRow(a) - firstRow(b),
      );
    } else if (d.sort !== 'None')
      items.sort((a, b) => descending * compareSortValues(a.value, b.value, culture) || firstRow(a) - firstRow(b));
    else items.sort((a, b) => firstRow(a) - firstRow(b));
    items.forEach((item, i) => {
      item.rowNo = i + 1;
    });
    return items;
  };

  const staticItem = (slot: SlotDescriptor, parent: AdvItem, itemRows: Int32Array, itemCount = 0): AdvItem => {
    count(1);
    return { slot, group: false, value: null, rows: itemRows, children: [], parent, rowNo: 1, itemCount };
  };

  const expand = (parent: AdvItem, slots: readonly SlotDescriptor[]): void => {
    // TopN groups first: their siblings named by TopN print what the group left out.
    const companions = new Map<SlotDescriptor, (p: AdvItem) => AdvItem[]>();
    const groups = new Map<SlotDescriptor, AdvItem[]>();
    for (const slot of slots) {
      if (slot.model.expression.trim() === '') continue;
      let items = groupItems(slot, parent);
      const top = slot.model.topN;
      if (top && items.length > top.count) {
        const kept = items.slice(0, top.count);
        const others = items.slice(top.count);
        items = kept;
        const sibling = (name: string): SlotDescriptor | undefined =>
          slots.find((s) => s !== slot && s.model.name === name && name !== '');
        const total = sibling(top.total);
        const rest = sibling(top.others);
        const restTotal = sibling(top.othersTotal);
        if (total) companions.set(total, (p) => [staticItem(total, p, union(kept), kept.length)]);
        if (rest)
          companions.set(rest, (p) => {
            for (const item of others) {
              item.slot = rest;
              item.parent = p;
            }
            others.forEach((item, i) => {
              item.rowNo = i + 1;
            });
            return others;
          });
        if (restTotal) companions.set(restTotal, (p) => [staticItem(restTotal, p, union(others), others.length)]);
      } else if (top) {
        // A group with N values or fewer has no TopN part: its siblings print nothing.
        for (const name of [top.total, top.others, top.othersTotal]) {
          const s = slots.find((x) => x.model.name === name && name !== '');
          if (s) companions.set(s, () => []);
        }
      }
      groups.set(slot, items);
    }
    for (const slot of slots) {
      const made = companions.get(slot)?.(parent) ??
        groups.get(slot) ?? [staticItem(slot, parent, filtered(slot, parent.rows))];
      for (const item of made) {
        parent.children.push(item);
        expand(item, slot.children.length > 0 ? slot.children : []);
      }
    }
    const groupChildren = parent.children.filter((c) => c.group).length;
    if (parent.itemCount === 0) parent.itemCount = groupChildren > 0 ? groupChildren : parent.children.length;
  };

  expand(root, axis.roots);
  return root;
}

function union(items: readonly AdvItem[]): Int32Array {
  const all: number[] = [];
  for (const i of items) for (const r of i.rows) all.push(r);
  return Int32Array.from(all).sort();
}

/** The items printed along the axis, in order: leaves, and stepped items before their children. */
export function terminals(root: AdvItem): AdvItem[] {
  const out: AdvItem[] = [];
  const walk = (item: AdvItem): void => {
    for (const c of item.children) {
      if (c.children.length === 0 || c.slot.model.stepped) out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** The template data line of a printed item (an item whose children printed nothing takes its
 *  subtree's first). */
export function dataLine(item: AdvItem): number {
  return item.slot.slot >= 0 ? item.slot.slot : item.slot.firstSlot;
}
