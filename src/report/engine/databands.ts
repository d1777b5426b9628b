// Data bands (FastReport's ReportEngine.DataBands): one band per row with its
// header and footer, detail bands under each row, keep-together/keep-with-data, completing to
// N rows, multi-column bands and hierarchies (IdColumn/ParentIdColumn).

import type { DataBandModel, GroupHeaderBandModel, HeaderFooterBandModel } from '../frx/model.js';
import { showBand } from './bands.js';
import { initDataSource, type BandSource } from './datasource.js';
import type { EngineContext } from './context.js';
import { endKeep, startKeep } from './keep.js';
import { resetLogicalPageNumber } from './page-numbers.js';
import { checkKeepFooter, needKeepFirstRow, needKeepLastRow } from './keep-with-data.js';
import { addReprint, removeReprint } from './pages.js';
import { renderDownThenAcross, renderAcrossThenDown } from './columns.js';

export function runBands(e: EngineContext, bands: readonly (DataBandModel | GroupHeaderBandModel)[]): void {
  for (const band of bands) {
    if (e.limits.aborted) break;
    if (band.type === 'DataBand') runDataBand(e, band);
    else e.flow.runGroup(e, band);
  }
}

export function runDataBand(e: EngineContext, band: DataBandModel): void {
  const src = initDataSource(e, band);
  let rowCount = src.count;
  if (rowCount === 0 && band.printIfDatasourceEmpty) rowCount = 1;
  if (band.collectChildRows && rowCount > 1) rowCount = 1;
  if (band.maxRows > 0 && rowCount > band.maxRows) rowCount = band.maxRows;
  runDataBandRows(e, band, src, rowCount, needKeepFirstRow(band), needKeepLastRow(e, band));
  src.prior();
}

const isDeepmost = (band: DataBandModel): boolean => band.bands.length === 0;

export function runDataBandRows(
  e: EngineContext,
  band: DataBandModel,
  src: BandSource,
  rowCount: number,
  keepFirstRow: boolean,
  keepLastRow: boolean,
): void {
  if (band.idColumn !== '' && band.parentIdColumn !== '') {
    showHierarchy(e, band, src, rowCount);
    return;
  }
  const r = e.bands.rt(band);
  let isFirstRow = true;
  let someRowsPrinted = false;
  e.bands.setRowNo(band, 0, r.absRowNo);
  r.isFirstRow = false;
  r.isLastRow = false;
  const oneRow = rowCount === 1 && keepFirstRow && keepLastRow;
  for (let i = 0; i < rowCount && !e.limits.aborted; i++) {
    e.limits.visitRow();
    const isLastRow = i === rowCount - 1;
    if (!isDetailEmpty(e, band)) {
      e.bands.setRowNo(band, r.rowNo + 1, r.absRowNo + 1);
      r.isFirstRow = isFirstRow;
      r.isLastRow = isLastRow;
      if (isFirstRow && keepFirstRow) startKeep(e, band);
      if (isFirstRow && band.keepTogether) startKeep(e, band);
      if (band.keepDetail) startKeep(e, band);
      if (isFirstRow) showDataHeader(e, band.header, band.footer);
      if (isLastRow && keepLastRow && isDeepmost(band)) startKeep(e, band);
      showDataBand(e, band, src, rowCount);
      if (isFirstRow && keepFirstRow && !oneRow) endKeep(e);
      if (isLastRow && keepLastRow && isDeepmost(band)) checkKeepFooter(e, band);
      runBands(e, band.bands);
      e.outline.upFrom(band);
      if (band.keepDetail) endKeep(e);
      isFirstRow = false;
      someRowsPrinted = true;
      if (band.columns.count > 1) break;
    }
    src.next();
  }
  const child = band.child;
  if (child && child.completeToNRows > rowCount) {
    for (let i = 0; i < child.completeToNRows - rowCount && !e.limits.aborted; i++) {
      e.bands.setRowNo(child, rowCount + i + 1, rowCount + i + 1);
      showBand(e, child);
    }
  }
  if (child && child.printIfDatabandEmpty && src.count === 0) showBand(e, child);
  if (someRowsPrinted) {
    src.prior();
    showDataFooter(e, band.header, band.footer);
    src.next();
    if (band.keepTogether) endKeep(e);
    if (keepLastRow) endKeep(e);
  }
}

function showDataBand(e: EngineContext, band: DataBandModel, src: BandSource, rowCount: number): void {
  if (band.columns.count > 1) {
    if (band.columns.layout === 'AcrossThenDown') renderAcrossThenDown(e, band, src, rowCount);
    else renderDownThenAcross(e, band, src, rowCount);
    return;
  }
  if (band.resetPageNumber && (band.firstRowStartsNewPage || e.bands.rt(band).rowNo > 1)) resetLogicalPageNumber(e);
  showBand(e, band);
}

export function showDataHeader(
  e: EngineContext,
  header: HeaderFooterBandModel | null,
  footer: HeaderFooterBandModel | null,
): void {
  if (header) {
    showBand(e, header);
    if (header.repeatOnEveryPage) addReprint(e, header);
  }
  if (footer?.repeatOnEveryPage) addReprint(e, footer);
}

export function showDataFooter(
  e: EngineContext,
  header: HeaderFooterBandModel | null,
  footer: HeaderFooterBandModel | null,
): void {
  removeReprint(e, footer);
  showBand(e, footer);
  removeReprint(e, header);
}

/** True when every detail band of the current row would print nothing. */
function isDetailEmpty(e: EngineContext, band: DataBandModel): boolean {
  if (band.printIfDetailEmpty || band.bands.length === 0) return false;
  return band.bands.every((b) => (b.type === 'DataBand' ? isDataBandEmpty(e, b) : e.flow.isGroupEmpty(e, b)));
}

export function isDataBandEmpty(e: EngineContext, band: DataBandModel): boolean {
  const src = initDataSource(e, band);
  if (src.count === 0) return !band.printIfDatasourceEmpty;
  for (let i = 0; i < src.count && !e.limits.aborted; i++) {
    src.position = i;
    if (!isDetailEmpty(e, band)) return false;
  }
  return true;
}

// --------------------------------------------------------------------------------------------
// Hierarchy

interface HItem {
  rowNo: number;
  items: HItem[];
  parent: HItem | undefined;
}

function idText(e: EngineContext, name: string, where: string): string {
  const r = e.scope.resolve(name.replace(/^\[(.*)\]$/, '$1'));
  if (r === undefined) {
    e.warnings.add(`${where}: "${name}" is not a data column; the hierarchy is flat`);
    return '';
  }
  return r.value === null || r.value === undefined ? '' : e.formatter.format(r.value, '', r.type);
}

function showHierarchy(e: EngineContext, band: DataBandModel, src: BandSource, rowCount: number): void {
  const items = new Map<string, HItem>();
  const get = (id: string): HItem => {
    let it = items.get(id);
    if (!it) items.set(id, (it = { rowNo: -1, items: [], parent: undefined }));
    return it;
  };
  for (let i = 0; i < rowCount && !e.limits.aborted; i++) {
    src.position = i;
    const id = idText(e, band.idColumn, `${band.name}.IdColumn`);
    let parentId = idText(e, band.parentIdColumn, `${band.name}.ParentIdColumn`);
    if (id === parentId) parentId = '';
    const item = get(id);
    item.rowNo = i;
    const parent = get(parentId);
    if (!item.parent) {
      parent.items.push(item);
      item.parent = parent;
    }
  }
  const root: HItem = { rowNo: -1, items: [], parent: undefined };
  for (const it of items.values()) if (!it.parent) for (const c of it.items) if (c.rowNo >= 0) root.items.push(c);
  showLevel(e, band, src, root, 1, '');
}

function showLevel(
  e: EngineContext,
  band: DataBandModel,
  src: BandSource,
  root: HItem,
  level: number,
  prefix: string,
): void {
  if (root.items.length === 0) return;
  if (level > 256) {
    e.warnings.add(`${band.name}: the hierarchy is deeper than 256 levels; deeper rows are not printed`);
    return;
  }
  const save = { level: e.bands.hierarchy.level, indent: e.bands.hierarchy.indent, rowNo: e.bands.hierarchy.rowNo };
  e.bands.hierarchy.level = level;
  e.bands.hierarchy.indent = band.indent * (level - 1);
  try {
    showBand(e, band.header);
    let rowNo = 0;
    for (const item of root.items) {
      if (e.limits.aborted) break;
      rowNo++;
      e.bands.setRowNo(band, rowNo, e.bands.rt(band).absRowNo + 1);
      src.position = item.rowNo;
      e.bands.hierarchy.rowNo = prefix + String(rowNo);
      showBand(e, band);
      runBands(e, band.bands);
      showLevel(e, band, src, item, level + 1, `${e.bands.hierarchy.rowNo}.`);
      // A row's outline entry holds its children's.
      e.outline.upFrom(band);
    }
    showBand(e, band.footer);
  } finally {
    e.bands.hierarchy.level = save.level;
    e.bands.hierarchy.indent = save.indent;
    e.bands.hierarchy.rowNo = save.rowNo;
  }
}
