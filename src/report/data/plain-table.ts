// Tables supplied as plain JS rows (`[{ EmployeeID: 1, LastName: "Davolio" }, …]`): typed by
// the template's declared columns when there are any, else inferred from the values.

import { TemplateError } from '../errors.js';
import type { ColumnInput } from './dictionary.js';
import { isPlainObject } from './json-schema.js';
import { NestedCursor, type DataSourceCursor } from './cursor.js';
import { OBJECT_TYPE, type CellValue, type ColumnDef, type DataTable, type Row } from './table.js';
import { fromJs, hasSidecar, jsTypeOf } from './values.js';

export interface PlainTableOptions {
  /** Declared columns (Name = the property read); undefined = infer from the rows. */
  columns?: readonly ColumnInput[];
  /** Most rows accepted (default 1,000,000). */
  maxRows?: number;
  where?: string;
}

/** Builds a typed DataTable from an array of plain objects. A property a row lacks is null;
 *  a value that does not fit its declared type is a TemplateError naming row and column. */
export function tableFromObjects(name: string, rows: readonly unknown[], opts: PlainTableOptions = {}): DataTable {
  const where = opts.where ?? `data for "${name}"`;
  const maxRows = opts.maxRows ?? 1_000_000;
  if (!Array.isArray(rows)) throw new TemplateError('expected an array of rows', where);
  if (rows.length > maxRows) throw new TemplateError(`too many rows (${rows.length}; the limit is ${maxRows})`, where);
  for (let r = 0; r < rows.length; r++) {
    if (!isPlainObject(rows[r])) throw new TemplateError(`row ${r + 1} is not an object`, where);
  }
  const objects = rows as readonly Record<string, unknown>[];

  let specs: { name: string; alias: string; type: string; expression?: string; nested?: ColumnInput }[];
  if (opts.columns && opts.columns.length > 0) {
    specs = opts.columns
      .filter((c) => c.enabled !== false)
      .map((c) =>
        c.table
          ? // A nested list (a business object's list property): the row keeps the array, and
            // the nested table's cursor (nestedRowsCursors) reads it.
            { name: c.propName ?? c.alias ?? c.name, alias: c.alias ?? c.name, type: OBJECT_TYPE, nested: c }
          : {
              name: c.name,
              alias: c.alias ?? c.name,
              type: c.dataType ?? OBJECT_TYPE,
              ...(c.calculated && c.expression !== undefined ? { expression: c.expression } : {}),
            },
      );
  } else {
    const types = new Map<string, string | undefined>();
    for (const o of objects) {
      for (const k of Object.keys(o)) {
        const t = jsTypeOf(o[k]);
        if (!types.has(k)) types.set(k, t);
        else if (t !== undefined) {
          const prev = types.get(k);
          if (prev === undefined) types.set(k, t);
          else if (prev !== t) types.set(k, OBJECT_TYPE);
        }
      }
    }
    specs = [...types].map(([k, t]) => ({ name: k, alias: k, type: t ?? OBJECT_TYPE }));
  }

  let extra = specs.length;
  const columns: ColumnDef[] = specs.map((s) => ({
    name: s.name,
    alias: s.alias,
    type: s.type,
    ...(s.expression !== undefined ? { expression: s.expression } : {}),
    ...(s.nested ? { nested: { name: s.nested.name, alias: s.alias } } : {}),
    ...(hasSidecar(s.type) && !s.nested ? { extra: extra++ } : {}),
  }));
  const width = extra;
  const out: Row[] = new Array<Row>(objects.length);
  for (let r = 0; r < objects.length; r++) {
    const o = objects[r] as Record<string, unknown>;
    const row = new Array<CellValue>(width).fill(null);
    for (let i = 0; i < columns.length; i++) {
      const c = columns[i] as ColumnDef;
      if (c.expression !== undefined || !Object.hasOwn(o, c.name)) continue;
      if (c.nested) {
        const list = o[c.name];
        if (list !== null && list !== undefined && !Array.isArray(list))
          throw new TemplateError(`row ${r + 1}, column "${c.name}": expected a list of rows`, where);
        row[i] = (list ?? null) as CellValue;
        continue;
      }
      try {
        const v = fromJs(o[c.name], c.type);
        row[i] = v.value;
        if (c.extra !== undefined && v.extra !== undefined) row[c.extra] = v.extra as CellValue;
      } catch (e) {
        throw new TemplateError(`row ${r + 1}, column "${c.name}": ${(e as Error).message}`, where);
      }
    }
    out[r] = row;
  }
  return { name, columns, rows: out };
}

const nestedTable = (input: ColumnInput, rows: readonly unknown[], maxRows: number): DataTable =>
  tableFromObjects(input.name, rows, { columns: input.columns ?? [], maxRows, where: `nested list "${input.name}"` });

/** The cursors of the nested lists under a table of plain rows, linked to their parents (and
 *  theirs, to any depth). */
export function nestedRowsCursors(
  parent: DataSourceCursor,
  declared: readonly ColumnInput[],
  maxRows: number,
): DataSourceCursor[] {
  const out: DataSourceCursor[] = [];
  for (const def of parent.columns) {
    if (!def.nested) continue;
    const input = declared.find((c) => c.table && (c.alias ?? c.name) === def.alias);
    if (!input) continue;
    // A business object's list property (FastReport's BusinessObjectDataSource inside another).
    const name = def.nested?.name ?? input.name;
    const def0 = { name, alias: input.alias ?? name, columns: nestedTable(input, [], maxRows).columns };
    const cursor = new NestedCursor(
      def0,
      parent,
      [def.alias],
      (list) => nestedTable(input, Array.isArray(list) ? list : [], maxRows).rows,
    );
    parent.linkNested(def, cursor);
    out.push(cursor, ...nestedRowsCursors(cursor, input.columns ?? [], maxRows));
  }
  return out;
}
