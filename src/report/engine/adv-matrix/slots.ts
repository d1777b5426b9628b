// Where an AdvMatrix's header items sit in its template grid. The grid is the corner (top left),
// the column header lines (one per column level, across the top), the row header lines (one per
// row level, down the left) and the data area. Along each axis every leaf item has its own data
// line (a Total too, so it has its own cell formats), in tree order; an item with children spans
// theirs. A Stepped item prints its children in its own header line, below it (rows), and has a
// data line of its own before theirs (its subtotal).

import type { AdvDescriptorModel } from '../../frx/model.js';

/** A descriptor with its place in the template. */
export interface SlotDescriptor {
  model: AdvDescriptorModel;
  /** Its header line (the template row of a column item, the column of a row item); -1 for
   *  the implicit item of an axis without descriptors, which has none. */
  level: number;
  /** Its own data line (leaf or stepped), counted from the start of the data area; -1 if none. */
  slot: number;
  /** The first data line of its subtree (where its header cell is in the template). */
  firstSlot: number;
  children: SlotDescriptor[];
}

export interface AxisSlots {
  roots: SlotDescriptor[];
  /** Header lines: the depth of the tree (stepped levels share their parent's line). */
  depth: number;
  /** Data lines in the template. */
  count: number;
  /** Descriptors by Name (TopN links). */
  byName: Map<string, SlotDescriptor>;
}

/** The item standing in for an axis without descriptors: one data line, no header line. */
export const IMPLICIT_DESCRIPTOR: AdvDescriptorModel = {
  name: '',
  line: 0,
  expression: '',
  displayText: '',
  sort: 'None',
  sortByTotal: '',
  filter: '',
  visible: true,
  stepped: false,
  topN: null,
  children: [],
};

export function axisSlots(roots: readonly AdvDescriptorModel[]): AxisSlots {
  if (roots.length === 0)
    return {
      roots: [{ model: IMPLICIT_DESCRIPTOR, level: -1, slot: 0, firstSlot: 0, children: [] }],
      depth: 0,
      count: 1,
      byName: new Map(),
    };
  let next = 0;
  let depth = 0;
  const byName = new Map<string, SlotDescriptor>();
  const place = (d: AdvDescriptorModel, level: number): SlotDescriptor => {
    depth = Math.max(depth, level + 1);
    const firstSlot = next;
    const s: SlotDescriptor = { model: d, level, slot: -1, firstSlot, children: [] };
    if (d.name !== '' && !byName.has(d.name)) byName.set(d.name, s);
    if (d.children.length === 0 || d.stepped) s.slot = next++;
    const childLevel = d.stepped ? level : level + 1;
    s.children = d.children.map((c) => place(c, childLevel));
    return s;
  };
  const placed = roots.map((d) => place(d, 0));
  return { roots: placed, depth, count: next, byName };
}
