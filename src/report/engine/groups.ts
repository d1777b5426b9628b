// Groups (FastReport's ReportEngine.Groups): the group's data band rows are sorted by the group
// conditions (SortOrder; Ascending by default), split into a tree of groups wherever a condition's
// value changes, then printed: group header, the group's rows (or nested groups), group footer
// (which sees the group's last row). KeepTogether/KeepWithData/RepeatOnEveryPage/ResetPageNumber.

import { applyOperator, type TypedValue } from '../expr/index.js';
import type { DataBandModel, GroupHeaderBandModel } from '../frx/model.js';
import { showBand } from './bands.js';
import { initDataSource, type BandSource, type SortSpec } from './datasource.js';
import { isDataBandEmpty, runDataBandRows, showDataFooter, showDataHeader } from './databands.js';
import { needKeepLastRow } from './keep-with-data.js';
import type { EngineContext } from './context.js';
import { endKeep, startKeep } from './keep.js';
import { resetLogicalPageNumber } from './page-numbers.js';
import { addReprint, removeReprint } from './pages.js';

interface GroupItem {
  band: GroupHeaderBandModel | null;
  items: GroupItem[];
  rowNo: number;
  rowCount: number;
}

export function groupDataBand(g: GroupHeaderBandModel): DataBandModel | null {
  for (let x: GroupHeaderBandModel | null = g; x; x = x.nestedGroup) if (x.data) return x.data;
  return null;
}

const sortCache = new WeakMap<GroupHeaderBandModel, SortSpec[]>();

/** The sorts a group puts before its data band's own (one per group level with a SortOrder). */
function groupSorts(g: GroupHeaderBandModel): SortSpec[] {
  let s = sortCache.get(g);
  if (!s) {
    s = [];
    for (let x: GroupHeaderBandModel | null = g; x; x = x.nestedGroup) {
      if (x.sortOrder !== 'None')
        s.push({ expression: x.condition, descending: x.sortOrder === 'Descending', where: `${x.name}.Condition` });
    }
    sortCache.set(g, s);
  }
  return s;
}

export function isGroupEmpty(e: EngineContext, g: GroupHeaderBandModel): boolean {
  if (g.nestedGroup) return isGroupEmpty(e, g.nestedGroup);
  return g.data ? isDataBandEmpty(e, g.data) : true;
}

export function runGroup(e: EngineContext, group: GroupHeaderBandModel): void {
  const data = groupDataBand(group);
  if (!data || data.dataSource === '') {
    e.warnings.add(`${group.name}: a group needs a data band with a data source; it is not printed`);
    return;
  }
  for (let g: GroupHeaderBandModel | null = group; g; g = g.nestedGroup) {
    if (g.condition.trim() === '') {
      e.warnings.add(`${g.name}: the group has no Condition; it is not printed`);
      return;
    }
  }
  const src = initDataSource(e, data, groupSorts(group));
  const root = makeTree(e, group, src);
  showTree(e, root, data, src);
  src.prior();
}

function conditionValue(e: EngineContext, g: GroupHeaderBandModel): TypedValue {
  return e.exprs.calc(g, 'condition', g.condition, `${g.name}.Condition`);
}

function sameValue(a: TypedValue, b: TypedValue): boolean {
  if (a.value === null || a.value === undefined || b.value === null || b.value === undefined) {
    return (a.value ?? null) === (b.value ?? null);
  }
  try {
    return applyOperator('==', a, b).value === true;
  } catch {
    return false;
  }
}

function makeTree(e: EngineContext, group: GroupHeaderBandModel, src: BandSource): GroupItem {
  const root: GroupItem = { band: null, items: [], rowNo: 0, rowCount: 0 };
  const values = new Map<GroupHeaderBandModel, TypedValue>();
  const init = (header: GroupHeaderBandModel | null, cur: GroupItem): void => {
    for (let h = header; h; h = h.nestedGroup) {
      values.set(h, conditionValue(e, h));
      e.bands.setRowNo(h, 0, 0);
      const item: GroupItem = { band: h, items: [], rowNo: src.position, rowCount: 1 };
      cur.items.push(item);
      cur = item;
    }
  };
  for (let i = 0; i < src.count && !e.limits.aborted; i++) {
    e.limits.visitRow();
    src.position = i;
    if (i === 0) {
      init(group, root);
      continue;
    }
    let cur = root;
    for (let h: GroupHeaderBandModel | null = group; h; h = h.nestedGroup) {
      const v = conditionValue(e, h);
      const prev = values.get(h);
      if (!prev || !sameValue(prev, v)) {
        init(h, cur);
        break;
      }
      cur = cur.items[cur.items.length - 1] as GroupItem;
      cur.rowCount++;
    }
  }
  return root;
}

function showTree(e: EngineContext, root: GroupItem, data: DataBandModel, src: BandSource): void {
  if (e.limits.aborted) return;
  if (root.band) {
    src.position = root.rowNo;
    showGroupHeader(e, root.band, data);
  }
  if (root.items.length === 0) {
    if (root.rowCount !== 0 && root.band) {
      let rowCount = root.rowCount;
      if (data.maxRows > 0 && rowCount > data.maxRows) rowCount = data.maxRows;
      runDataBandRows(e, data, src, rowCount, needKeepFirstRow(e, root.band, data), needKeepLastRow(e, data));
    }
  } else {
    const first = (root.items[0] as GroupItem).band as GroupHeaderBandModel;
    e.bands.setRowNo(first, 0, e.bands.rt(first).absRowNo);
    showDataHeader(e, first.header, first.footer);
    root.items.forEach((item, i) => {
      if (e.limits.aborted || !item.band) return;
      const r = e.bands.rt(item.band);
      r.isFirstRow = i === 0;
      r.isLastRow = i === root.items.length - 1;
      showTree(e, item, data, src);
    });
    showDataFooter(e, first.header, first.footer);
  }
  if (root.band) showGroupFooter(e, root.band, src);
}

function showGroupHeader(e: EngineContext, header: GroupHeaderBandModel, data: DataBandModel): void {
  const r = e.bands.rt(header);
  e.bands.setRowNo(header, r.rowNo + 1, r.absRowNo + 1);
  if (header.resetPageNumber && (header.firstRowStartsNewPage || r.rowNo > 1)) resetLogicalPageNumber(e);
  if (header.keepTogether) startKeep(e, header);
  if (header.keepWithData) startKeep(e, data);
  showBand(e, header);
  if (header.repeatOnEveryPage) addReprint(e, header);
  if (header.groupFooter?.repeatOnEveryPage) addReprint(e, header.groupFooter);
}

function showGroupFooter(e: EngineContext, header: GroupHeaderBandModel, src: BandSource): void {
  // The footer sees the group's last row.
  src.prior();
  const footer = header.groupFooter;
  if (footer) {
    const r = e.bands.rt(footer);
    e.bands.setRowNo(footer, r.rowNo + 1, r.absRowNo + 1);
  }
  removeReprint(e, footer);
  showBand(e, footer);
  removeReprint(e, header);
  src.next();
  e.outline.upFrom(header);
  if (header.keepTogether) endKeep(e);
  if (footer?.keepWithData) endKeep(e);
}

function needKeepFirstRow(e: EngineContext, g: GroupHeaderBandModel | null, data: DataBandModel): boolean {
  if (!g) return false;
  if (g.keepWithData) return true;
  if (data.header?.keepWithData) return true;
  if (e.bands.rt(g).isFirstRow) {
    const parent = e.structure.bandParent.get(g);
    return needKeepFirstRow(e, parent?.type === 'GroupHeaderBand' ? parent : null, data);
  }
  return false;
}
