// The rows a data band walks (FastReport's DataBand.InitDataSource / DataSourceBase.Init): the
// children of the master's current row when a relation links them (else every row), the Filter,
// then the Sort (group conditions first); a band without a data source walks RowCount virtual
// rows. The rows are set on the shared data source cursor, as FastReport does.

import type { DataSourceCursor, Row } from '../data/index.js';
import { compareValues, type TypedValue } from '../expr/index.js';
import type { DataBandModel, SortModel } from '../frx/model.js';
import type { EngineContext } from './context.js';

/** A band's rows: a data source cursor, or virtual rows (no data source). */
export interface BandSource {
  readonly cursor: DataSourceCursor | null;
  readonly count: number;
  position: number;
  next(): void;
  prior(): void;
}

class CursorSource implements BandSource {
  constructor(readonly cursor: DataSourceCursor) {}
  get count(): number {
    return this.cursor.count;
  }
  get position(): number {
    return this.cursor.position;
  }
  set position(i: number) {
    this.cursor.position = i;
  }
  next(): void {
    this.cursor.next();
  }
  prior(): void {
    this.cursor.prev();
  }
}

class VirtualSource implements BandSource {
  readonly cursor = null;
  position = 0;
  constructor(readonly count: number) {}
  next(): void {
    this.position = Math.min(this.position + 1, this.count);
  }
  prior(): void {
    this.position = Math.max(this.position - 1, 0);
  }
}

const collators = new Map<string, Intl.Collator>();

function collator(culture: string): Intl.Collator {
  const key = culture || 'en-US';
  let c = collators.get(key);
  if (!c) {
    try {
      c = new Intl.Collator(key);
    } catch {
      c = new Intl.Collator('en-US');
    }
    collators.set(key, c);
  }
  return c;
}

/** .NET's IComparable order for sorting: null (and no value at all, as the matrices' missing
 *  dimension values) first, strings by the culture's collation. */
export function compareSortValues(
  a: TypedValue | null | undefined,
  b: TypedValue | null | undefined,
  culture: string,
): number {
  const x = a?.value;
  const y = b?.value;
  if (x === null || x === undefined) return y === null || y === undefined ? 0 : -1;
  if (y === null || y === undefined) return 1;
  if (typeof x === 'string' && typeof y === 'string') return collator(culture).compare(x, y);
  return compareValues(a as TypedValue, b as TypedValue);
}

/** All rows of a data source that pass an object's Filter (`where` names it in errors), set as
 *  the cursor's rows (Matrix, AdvMatrix, a map layer); the caller puts the cursor back after. */
export function filteredSourceRows(
  e: EngineContext,
  cursor: DataSourceCursor,
  owner: object,
  filter: string,
  where: string,
): readonly Row[] {
  let rows = cursor.allRows();
  cursor.setRows(rows);
  if (filter.trim() !== '') {
    rows = rows.filter((_, i) => {
      e.limits.visitRow();
      cursor.position = i;
      return e.exprs.condition(owner, 'filter', filter, where) !== false;
    });
    cursor.setRows(rows);
  }
  return rows;
}

/** Puts back, when called, the rows and position the cursor has now (an object that walked a
 *  data source leaves it as the bands had it). */
export function cursorRestorer(cursor: DataSourceCursor | undefined): () => void {
  if (!cursor) return () => {};
  const rows = cursor.rows;
  const position = cursor.position;
  return () => {
    cursor.setRows(rows);
    cursor.position = position;
  };
}

/** The band's data source cursor (undefined when it has none or it is unknown). */
export function bandCursor(e: EngineContext, band: DataBandModel): DataSourceCursor | undefined {
  if (band.dataSource === '') return undefined;
  const c = e.data.findSource(band.dataSource);
  if (!c)
    e.warnings.add(
      `${band.name}: data source "${band.dataSource}" is not in the dictionary; the band prints its RowCount rows`,
    );
  return c;
}

/** A sort, with where its expression comes from when not the band's <Sort> (group conditions). */
export type SortSpec = SortModel & { where?: string };

/** Initialises the rows of a data band; `extraSort` (group conditions) sorts first. */
export function initDataSource(e: EngineContext, band: DataBandModel, extraSort: readonly SortSpec[] = []): BandSource {
  const cursor = bandCursor(e, band);
  if (!cursor) {
    const count = Math.max(0, band.rowCount);
    if (band.filter.trim() === '') return new VirtualSource(count);
    const v = new VirtualSource(count);
    let kept = 0;
    for (let i = 0; i < count && !e.limits.aborted; i++) {
      e.limits.visitRow();
      v.position = i;
      if (e.exprs.condition(band, 'filter', band.filter, `${band.name}.Filter`) !== false) kept++;
    }
    return new VirtualSource(kept);
  }
  let rows: readonly Row[];
  const parent = e.structure.parentDataBand.get(band);
  const parentCursor = parent ? bandCursor(e, parent) : undefined;
  const relation = band.relation
    ? e.data.findRelation(band.relation)
    : parentCursor
      ? e.data.relationBetween(parentCursor, cursor)
      : undefined;
  if (band.relation && !relation)
    e.warnings.add(`${band.name}: relation "${band.relation}" does not exist; all rows are printed`);
  if (relation && relation.child === cursor) rows = relation.childRows(relation.parent.current);
  else rows = cursor.allRows();

  if (band.filter.trim() !== '') {
    cursor.setRows(rows);
    const kept: Row[] = [];
    for (let i = 0; i < rows.length && !e.limits.aborted; i++) {
      e.limits.visitRow();
      cursor.position = i;
      if (e.exprs.condition(band, 'filter', band.filter, `${band.name}.Filter`) !== false) kept.push(rows[i] as Row);
    }
    rows = kept;
  }
  const sort: SortSpec[] = [...extraSort, ...band.sort].filter((s) => s.expression.trim() !== '');
  if (sort.length > 0 && rows.length > 1) {
    cursor.setRows(rows);
    const keys: TypedValue[][] = [];
    for (let i = 0; i < rows.length && !e.limits.aborted; i++) {
      e.limits.visitRow();
      cursor.position = i;
      keys.push(sort.map((s, k) => e.exprs.calc(s, `sort${k}`, s.expression, s.where ?? `${band.name}.Sort`)));
    }
    const culture = e.culture.name;
    const order = rows.map((_, i) => i);
    order.sort((a, b) => {
      for (let k = 0; k < sort.length; k++) {
        const c = compareSortValues(
          (keys[a] as TypedValue[])[k] as TypedValue,
          (keys[b] as TypedValue[])[k] as TypedValue,
          culture,
        );
        if (c !== 0) return (sort[k] as SortModel).descending ? -c : c;
      }
      return a - b;
    });
    const sorted = order.map((i) => rows[i] as Row);
    rows = sorted;
  }
  cursor.setRows(rows);
  cursor.first();
  return new CursorSource(cursor);
}

/** The rows the band walks now, without initialising them again (groups print ranges of the
 *  rows their band initialised). */
export function currentSource(e: EngineContext, band: DataBandModel): BandSource {
  const cursor = bandCursor(e, band);
  return cursor ? new CursorSource(cursor) : new VirtualSource(Math.max(0, band.rowCount));
}
