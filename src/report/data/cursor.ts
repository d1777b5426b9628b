// A data source as the engine walks it: an ordered row list with a current position, and
// column values read by path ("CategoryName", "item.orders.item.total").

import { TemplateError } from '../errors.js';
import { BoundedCache } from '../bounded-cache.js';
import {
  JSON_TYPE,
  OBJECT_TYPE,
  findByAlias,
  type CellValue,
  type ColumnDef,
  type ColumnValue,
  type Row,
} from './table.js';

export interface SourceDef {
  /** Name: unique among the data sources of a report. */
  readonly name: string;
  /** Alias: what expressions write (defaults to the name). */
  readonly alias?: string;
  readonly columns: readonly ColumnDef[];
  /** Row index each column reads (aligned with `columns`; -1 = no data, reads null). Defaults
   *  to the column's position. */
  readonly slots?: readonly number[];
}

/** How valueAt reads a column path: resolved against the columns once (the schema and the nested
 *  table links never change while rows are read), then followed on each row. */
interface CompiledPath {
  /** The segments it was compiled from (a copy: a hit is checked against them). */
  readonly segs: readonly string[];
  /** The top-level column read; undefined when the path names no column. */
  readonly top: ColumnDef | undefined;
  /** Index of `top` in `columns`. */
  readonly index: number;
  /** A whole Decimal/DateTime column: the value with its sidecar. */
  readonly sidecar: boolean;
  /** Property names read in turn inside the top column's value. */
  readonly keys: readonly string[];
  /** The declared type of what `keys` reach (unless dynamic). */
  readonly type: string | undefined;
  /** A step went past the known structure: the type follows the value read. */
  readonly dynamic: boolean;
  /** Set when the path goes on in a nested JSON table's current row (keys are not read). */
  readonly nested: DataSourceCursor | undefined;
  readonly nestedPath: readonly string[];
}

const NO_SEGMENTS: readonly string[] = [];

/** Every CompiledPath is made here, so all have one shape (one hidden class for the reads). */
function compiledPath(
  segs: readonly string[],
  top: ColumnDef | undefined,
  index: number,
  how: Partial<Pick<CompiledPath, 'sidecar' | 'keys' | 'type' | 'dynamic' | 'nested' | 'nestedPath'>> = {},
): CompiledPath {
  return {
    segs,
    top,
    index,
    sidecar: how.sidecar ?? false,
    keys: how.keys ?? NO_SEGMENTS,
    type: how.type,
    dynamic: how.dynamic ?? false,
    nested: how.nested,
    nestedPath: how.nestedPath ?? NO_SEGMENTS,
  };
}

/** Most distinct string paths cached per cursor (the cache starts over beyond). */
const MAX_CACHED_PATHS = 10_000;

const isObject = (v: unknown): v is { readonly [k: string]: unknown } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof Uint8Array);

function dynamicType(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return 'System.String';
    case 'number':
      return 'System.Double';
    case 'boolean':
      return 'System.Boolean';
  }
  if (v instanceof Date) return 'System.DateTime';
  if (v instanceof Uint8Array) return 'System.Byte[]';
  return v === null || v === undefined ? OBJECT_TYPE : JSON_TYPE;
}

/** JSON-shaped columns whose structure the schema does not know (System.Object, or an object
 *  without known properties) may be navigated by any property name. */
const isOpen = (c: ColumnDef): boolean =>
  (c.columns === undefined || c.columns.length === 0) &&
  (c.type === JSON_TYPE || c.type === OBJECT_TYPE || c.type.startsWith('FastReport.'));

export class DataSourceCursor {
  readonly name: string;
  readonly alias: string;
  readonly columns: readonly ColumnDef[];
  protected readonly slots: readonly number[];
  protected all: readonly Row[];
  protected list: readonly Row[];
  protected pos = 0;
  private readonly nested = new Map<ColumnDef, DataSourceCursor>();
  // Compiled paths: by the array given (the engine passes the same array for a reference on
  // every row) and by path text.
  private pathsByArray = new WeakMap<readonly string[], CompiledPath>();
  private readonly pathsByText = new BoundedCache<string, CompiledPath>(MAX_CACHED_PATHS, (path) =>
    this.compile(path.split('.')),
  );
  private readonly indexByName = new BoundedCache<string, number>(MAX_CACHED_PATHS, (nameOrAlias) =>
    this.findColumnIndex(nameOrAlias),
  );

  constructor(def: SourceDef, rows: readonly Row[]) {
    this.name = def.name;
    this.alias = def.alias ?? def.name;
    this.columns = def.columns;
    this.slots = def.slots ?? def.columns.map((_, i) => i);
    this.all = rows;
    this.list = rows;
  }

  /** Hook for sources whose rows come from elsewhere (nested JSON tables). */
  protected sync(): void {}

  /** The rows being walked, in order (all rows, or what `setRows` gave). */
  get rows(): readonly Row[] {
    this.sync();
    return this.list;
  }
  /** Every row of the source, unfiltered, in source order. */
  allRows(): readonly Row[] {
    this.sync();
    return this.all;
  }
  get count(): number {
    this.sync();
    return this.list.length;
  }
  get position(): number {
    this.sync();
    return this.pos;
  }
  set position(i: number) {
    this.sync();
    this.pos = Math.max(0, Math.min(i, this.list.length));
  }
  get current(): Row | null {
    this.sync();
    return this.list[this.pos] ?? null;
  }
  get eof(): boolean {
    this.sync();
    return this.pos >= this.list.length;
  }

  first(): void {
    this.position = 0;
  }
  next(): void {
    this.position = this.pos + 1;
  }
  prev(): void {
    this.position = this.pos - 1;
  }

  /** Walks an explicit row list instead (filtered, sorted, a relation's children). */
  setRows(rows: readonly Row[]): void {
    this.sync();
    this.list = rows;
    this.pos = 0;
  }
  /** Back to all rows, position 0. */
  reset(): void {
    this.sync();
    this.list = this.all;
    this.pos = 0;
  }

  /** Registers the cursor of a nested table reached through `column` (JSON). */
  linkNested(column: ColumnDef, cursor: DataSourceCursor): void {
    this.nested.set(column, cursor);
    // Paths compiled before may now lead into this table.
    this.pathsByArray = new WeakMap();
    this.pathsByText.clear();
  }
  nestedCursor(column: ColumnDef): DataSourceCursor | undefined {
    return this.nested.get(column);
  }

  /** Index in `columns` of the column with this alias (case-insensitive) or else this name. */
  columnIndex(nameOrAlias: string): number {
    return this.indexByName.get(nameOrAlias);
  }

  private findColumnIndex(nameOrAlias: string): number {
    const byAlias = findByAlias(this.columns, nameOrAlias);
    if (byAlias) return this.columns.indexOf(byAlias);
    return this.columns.findIndex((c) => c.name === nameOrAlias || c.name.toLowerCase() === nameOrAlias.toLowerCase());
  }

  /** The raw value of top-level column `index` in `row`. */
  cell(row: Row, index: number): CellValue {
    const slot = this.slots[index] ?? -1;
    return slot < 0 ? null : (row[slot] ?? null);
  }

  /** Value of a column path in the current row; TemplateError when the path is not a column. */
  columnValue(path: string | readonly string[]): ColumnValue {
    const v = this.valueAt(this.current, path);
    if (v === undefined) throw new TemplateError(`no column "${joinPath(path)}" in data source "${this.alias}"`);
    return v;
  }

  /** True when `path` names a column (or a property reachable inside a JSON column). */
  hasColumn(path: string | readonly string[]): boolean {
    return this.columnType(path) !== undefined;
  }

  /** The declared type of a column path, without reading any row. */
  columnType(path: string | readonly string[]): string | undefined {
    const segs = typeof path === 'string' ? path.split('.') : path;
    const top = this.topColumn(segs);
    if (!top) return undefined;
    let def = top.def;
    for (let i = top.used; i < segs.length; i++) {
      const seg = segs[i] as string;
      if (def.nested) {
        const inner = this.nested.get(def);
        return inner ? inner.columnType(segs.slice(i)) : isOpen(def) ? OBJECT_TYPE : undefined;
      }
      const child = def.columns ? findByAlias(def.columns, seg) : undefined;
      if (child) {
        def = child;
        continue;
      }
      if (!isOpen(def)) return undefined;
      return OBJECT_TYPE;
    }
    return def.type;
  }

  /** Value of a column path in `row` (null row → null of the column's type); undefined when
   *  the path is not a column. A path crossing into a nested JSON table reads that table's
   *  current row. */
  valueAt(row: Row | null, path: string | readonly string[]): ColumnValue | undefined {
    const c = this.compiled(path);
    const top = c.top;
    if (top === undefined) return undefined;
    if (c.nested !== undefined) return c.nested.valueAt(c.nested.current, c.nestedPath);
    let value: unknown = row ? this.cell(row, c.index) : null;
    if (c.sidecar) {
      const extra = row ? (row[top.extra as number] ?? null) : null;
      if (top.type === 'System.Decimal') {
        return typeof extra === 'string'
          ? { value: value as CellValue, type: top.type, decimalText: extra }
          : { value: value as CellValue, type: top.type };
      }
      return { value: value as CellValue, type: top.type, offsetMinutes: typeof extra === 'number' ? extra : null };
    }
    const keys = c.keys;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      value = isObject(value) && Object.hasOwn(value, key) ? value[key] : null;
    }
    const v = (value === undefined ? null : value) as CellValue;
    return { value: v, type: c.dynamic ? dynamicType(v) : (c.type as string) };
  }

  /** The compiled form of a path (cached). */
  private compiled(path: string | readonly string[]): CompiledPath {
    if (typeof path === 'string') return this.pathsByText.get(path);
    let c = this.pathsByArray.get(path);
    if (c === undefined || !sameSegments(c.segs, path)) {
      c = this.compile(path);
      this.pathsByArray.set(path, c);
    }
    return c;
  }

  /** Resolves a path against the columns as valueAt reads it: the top column (whole rest first),
   *  then child columns by alias; past a column of unknown structure, property names as written;
   *  a nested JSON table with a cursor takes the rest of the path. */
  private compile(path: readonly string[]): CompiledPath {
    const segs = path.slice();
    const top = this.topColumn(segs);
    if (!top) return compiledPath(segs, undefined, -1);
    let def: ColumnDef = top.def;
    if (top.used === segs.length && def.extra !== undefined)
      return compiledPath(segs, def, top.index, { sidecar: true, type: def.type });
    const keys: string[] = [];
    let dynamic = false;
    for (let i = top.used; i < segs.length; i++) {
      const seg = segs[i] as string;
      if (def.nested) {
        const inner = this.nested.get(def);
        if (inner) return compiledPath(segs, top.def, top.index, { nested: inner, nestedPath: segs.slice(i) });
      }
      const child = !dynamic && def.columns ? findByAlias(def.columns, seg) : undefined;
      if (child) {
        keys.push(child.name);
        def = child;
        continue;
      }
      if (!dynamic && !isOpen(def)) return compiledPath(segs, undefined, -1);
      dynamic = true;
      keys.push(seg);
    }
    return compiledPath(segs, top.def, top.index, { keys, type: def.type, dynamic });
  }

  private topColumn(segs: readonly string[]): { def: ColumnDef; index: number; used: number } | undefined {
    if (segs.length === 0) return undefined;
    if (segs.length > 1) {
      // FastReport tries the whole rest as one column name first ("Table.Col.With.Dots").
      const whole = findByAlias(this.columns, segs.join('.'));
      if (whole) return { def: whole, index: this.columns.indexOf(whole), used: segs.length };
    }
    const def = findByAlias(this.columns, segs[0] as string);
    return def ? { def, index: this.columns.indexOf(def), used: 1 } : undefined;
  }
}

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A nested table (a JSON array inside a JSON row, a business object's list property): its rows
 *  are the list found at `path` in the parent's current row, turned into rows by `rowsOf`, and
 *  read again whenever the parent moves. */
export class NestedCursor extends DataSourceCursor {
  private parentRow: Row | null | undefined = undefined;

  constructor(
    def: SourceDef,
    private readonly parent: DataSourceCursor,
    private readonly path: readonly string[],
    private readonly rowsOf: (list: unknown) => readonly Row[],
  ) {
    super(def, []);
  }

  protected override sync(): void {
    const pr = this.parent.current;
    if (pr === this.parentRow) return;
    this.parentRow = pr;
    this.all = this.rowsOf(pr ? this.parent.valueAt(pr, this.path)?.value : null);
    this.list = this.all;
    this.pos = 0;
  }
}

function joinPath(path: string | readonly string[]): string {
  return typeof path === 'string' ? path : path.join('.');
}
