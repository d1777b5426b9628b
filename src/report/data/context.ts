// The bound data of one report run: data sources by name/alias, relations (master-detail and
// parent lookup), and the resolution of reference strings ("Order Details.Products.ProductName",
// "JSON.item.orders.item.total") to values of the current rows.

import { TemplateError } from '../errors.js';
import type { DataSourceCursor } from './cursor.js';
import type { CellValue, ColumnValue, Row } from './table.js';

/** A relation between two data sources: child rows whose child columns equal the parent row's
 *  parent columns. Keys compare by type and value (numbers as numbers, strings exactly, dates by
 *  instant); a null in a key matches nothing. */
export class Relation {
  readonly alias: string;
  private readonly parentIdx: number[];
  private readonly childIdx: number[];
  private childIndex: { rows: readonly Row[]; map: Map<string, Row[]> } | undefined;
  private parentIndex: { rows: readonly Row[]; map: Map<string, Row> } | undefined;

  constructor(
    readonly name: string,
    readonly parent: DataSourceCursor,
    readonly child: DataSourceCursor,
    readonly parentColumns: readonly string[],
    readonly childColumns: readonly string[],
    alias?: string,
  ) {
    this.alias = alias ?? name;
    const where = `Relation "${name}"`;
    if (parentColumns.length === 0 || parentColumns.length !== childColumns.length) {
      throw new TemplateError('ParentColumns and ChildColumns must name the same number of columns', where);
    }
    this.parentIdx = parentColumns.map((c) => columnByName(parent, c, where));
    this.childIdx = childColumns.map((c) => columnByName(child, c, where));
  }

  /** Rows of the child source (all of them, in source order) that belong to `parentRow`. */
  childRows(parentRow: Row | null): readonly Row[] {
    if (!parentRow) return [];
    const key = keyOf(this.parent, parentRow, this.parentIdx);
    if (key === undefined) return [];
    const all = this.child.allRows();
    if (this.childIndex?.rows !== all) {
      const map = new Map<string, Row[]>();
      for (const row of all) {
        const k = keyOf(this.child, row, this.childIdx);
        if (k === undefined) continue;
        const list = map.get(k);
        if (list) list.push(row);
        else map.set(k, [row]);
      }
      this.childIndex = { rows: all, map };
    }
    return this.childIndex.map.get(key) ?? [];
  }

  /** The parent row of `childRow` (the first match), or null. */
  parentRow(childRow: Row | null): Row | null {
    if (!childRow) return null;
    const key = keyOf(this.child, childRow, this.childIdx);
    if (key === undefined) return null;
    const all = this.parent.allRows();
    if (this.parentIndex?.rows !== all) {
      const map = new Map<string, Row>();
      for (const row of all) {
        const k = keyOf(this.parent, row, this.parentIdx);
        if (k !== undefined && !map.has(k)) map.set(k, row);
      }
      this.parentIndex = { rows: all, map };
    }
    return this.parentIndex.map.get(key) ?? null;
  }
}

function columnByName(source: DataSourceCursor, name: string, where: string): number {
  let i = source.columns.findIndex((c) => c.name === name);
  if (i < 0) i = source.columnIndex(name);
  if (i < 0) throw new TemplateError(`data source "${source.name}" has no column "${name}"`, where);
  return i;
}

function keyPart(v: CellValue): string | undefined {
  switch (typeof v) {
    case 'number':
      return Number.isNaN(v) ? undefined : `n${v === 0 ? 0 : v}`;
    case 'string':
      return `s${v}`;
    case 'boolean':
      return v ? 'b1' : 'b0';
  }
  if (v instanceof Date) return `d${v.getTime()}`;
  return undefined;
}

function keyOf(source: DataSourceCursor, row: Row, idx: readonly number[]): string | undefined {
  if (idx.length === 1) return keyPart(source.cell(row, idx[0] as number));
  const parts: string[] = [];
  for (const i of idx) {
    const p = keyPart(source.cell(row, i));
    if (p === undefined) return undefined;
    parts.push(p);
  }
  return JSON.stringify(parts);
}

/** A reference resolved against the dictionary: read the source's current row, follow the
 *  relations to parent rows, then read `path` in `target`. */
export interface ResolvedReference {
  readonly ref: string;
  readonly source: DataSourceCursor;
  readonly hops: readonly Relation[];
  readonly target: DataSourceCursor;
  readonly path: readonly string[];
  readonly type: string;
}

const eqi = (a: string, b: string): boolean => a === b || a.toLowerCase() === b.toLowerCase();

export class DataContext {
  private readonly byName = new Map<string, DataSourceCursor>();
  private readonly resolved = new Map<string, ResolvedReference | null>();

  constructor(
    readonly sources: readonly DataSourceCursor[],
    readonly relations: readonly Relation[],
  ) {
    for (const s of sources) {
      if (this.byName.has(s.name)) throw new TemplateError(`two data sources are named "${s.name}"`, 'Dictionary');
      this.byName.set(s.name, s);
    }
  }

  /** A data source by Name, else by Alias (exact first, then case-insensitive); undefined if none. */
  findSource(nameOrAlias: string): DataSourceCursor | undefined {
    const exact = this.byName.get(nameOrAlias) ?? this.sources.find((s) => s.alias === nameOrAlias);
    if (exact) return exact;
    const lower = nameOrAlias.toLowerCase();
    return (
      this.sources.find((s) => s.name.toLowerCase() === lower) ??
      this.sources.find((s) => s.alias.toLowerCase() === lower)
    );
  }

  /** A data source by Name or Alias; TemplateError if there is none. */
  source(nameOrAlias: string): DataSourceCursor {
    const s = this.findSource(nameOrAlias);
    if (!s) throw new TemplateError(`unknown data source "${nameOrAlias}"`);
    return s;
  }

  findRelation(nameOrAlias: string): Relation | undefined {
    return (
      this.relations.find((r) => r.name === nameOrAlias || r.alias === nameOrAlias) ??
      this.relations.find((r) => eqi(r.name, nameOrAlias) || eqi(r.alias, nameOrAlias))
    );
  }

  relation(nameOrAlias: string): Relation {
    const r = this.findRelation(nameOrAlias);
    if (!r) throw new TemplateError(`unknown relation "${nameOrAlias}"`);
    return r;
  }

  /** The relation from `parent` to `child`, if the dictionary has one. */
  relationBetween(parent: DataSourceCursor | string, child: DataSourceCursor | string): Relation | undefined {
    const p = typeof parent === 'string' ? this.findSource(parent) : parent;
    const c = typeof child === 'string' ? this.findSource(child) : child;
    return this.relations.find((r) => r.parent === p && r.child === c);
  }

  childRows(relation: Relation | string, parentRow: Row | null): readonly Row[] {
    return (typeof relation === 'string' ? this.relation(relation) : relation).childRows(parentRow);
  }

  parentRow(relation: Relation | string, childRow: Row | null): Row | null {
    return (typeof relation === 'string' ? this.relation(relation) : relation).parentRow(childRow);
  }

  /** Rows a detail band walks: the children of the master's current row when a relation links
   *  them, else all rows. Sets them on the detail cursor (position 0) and returns the cursor. */
  initSource(name: string, master?: string): DataSourceCursor {
    const detail = this.source(name);
    const rel = master === undefined ? undefined : this.relationBetween(this.source(master), detail);
    if (rel) detail.setRows(rel.childRows(rel.parent.current));
    else detail.reset();
    return detail;
  }

  /** Resolves "Source[.Relation…].Column[.Child…]" (the longest data source name that prefixes
   *  the reference wins; a segment naming a parent data source or a relation of the current
   *  source jumps to the parent row). Null when it is not a data reference. Cached. */
  resolve(ref: string): ResolvedReference | null {
    const cached = this.resolved.get(ref);
    if (cached !== undefined) return cached;
    const r = this.resolveUncached(ref);
    if (this.resolved.size < 10_000) this.resolved.set(ref, r);
    return r;
  }

  private resolveUncached(ref: string): ResolvedReference | null {
    const segs = ref.split('.');
    for (let k = segs.length - 1; k >= 1; k--) {
      const source = this.findSource(segs.slice(0, k).join('.'));
      if (!source) continue;
      let target = source;
      const hops: Relation[] = [];
      let i = k;
      while (i < segs.length - 1) {
        const seg = segs[i] as string;
        const hop =
          this.relations.find((r) => r.child === target && (r.parent.alias === seg || r.alias === seg)) ??
          this.relations.find(
            (r) =>
              r.child === target &&
              (eqi(r.parent.alias, seg) || eqi(r.parent.name, seg) || eqi(r.alias, seg) || eqi(r.name, seg)),
          );
        if (!hop) break;
        hops.push(hop);
        target = hop.parent;
        i++;
      }
      const path = segs.slice(i);
      const type = target.columnType(path);
      if (type === undefined) return null;
      return { ref, source, hops, target, path, type };
    }
    return null;
  }

  /** True when `ref` names a column of a data source. */
  isDataReference(ref: string): boolean {
    return this.resolve(ref) !== null;
  }

  /** The value of a reference for the current rows (null when a parent row is missing). */
  value(ref: string | ResolvedReference): ColumnValue {
    const r = typeof ref === 'string' ? this.resolve(ref) : ref;
    if (!r) throw new TemplateError(`unknown data column "${ref as string}"`);
    let row = r.source.current;
    for (const hop of r.hops) row = hop.parentRow(row);
    const v = r.target.valueAt(row, r.path);
    return v ?? { value: null, type: r.type };
  }

  /** Like `value`, but undefined (no error) when `ref` is not a data reference. */
  tryValue(ref: string): ColumnValue | undefined {
    const r = this.resolve(ref);
    return r ? this.value(r) : undefined;
  }
}
