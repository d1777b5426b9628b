// `Report`, `Engine` and data sources as a script sees them: Report.GetDataSource(…) with Init,
// Next, HasMoreRows …, Report.SetParameterValue, Engine.FinalPass, Engine.CurY … Each reaches the
// running engine only through the members listed here.

import type { DataSourceCursor } from '../../data/index.js';
import type { Resolved } from '../../expr/index.js';
import { fromResolved } from '../../expr/scope-values.js';
import { ValueError } from '../../expr/value-error.js';
import { Flt, HostObject, type Value } from '../../expr/values.js';
import { ScriptObject } from '../../script/collections.js';
import { freeSpace } from '../bands.js';
import type { EngineContext } from '../context.js';
import { TemplateError } from '../../errors.js';
import { num } from './values.js';

const noMember = (type: string, name: string, what = 'member'): ValueError =>
  new ValueError('MissingMemberException', `'${type}' has no ${what} '${name}'`);

function stringArg(args: readonly Value[], i: number, method: string): string {
  const v = args[i];
  if (typeof v !== 'string') throw new ValueError('ArgumentException', `${method} takes a name (a string)`);
  return v;
}

/** A value the scope resolved, as a script value (null when nothing has that name). */
function resolved(r: Resolved | undefined): Value {
  return r ? fromResolved(r) : null;
}

export class ReportProxy extends ScriptObject {
  readonly typeName = 'FastReport.Report';
  protected readonly label = 'Report';
  private readonly sources = new Map<DataSourceCursor, DataSourceProxy>();

  constructor(private readonly e: EngineContext) {
    super();
  }

  member(name: string): Value {
    if (name === 'ReportInfo') return new ReportInfoProxy(this.e);
    throw noMember('Report', name, 'property');
  }

  call(name: string, args: readonly Value[]): Value {
    const e = this.e;
    switch (name) {
      case 'GetDataSource': {
        const cursor = e.data.findSource(stringArg(args, 0, name));
        if (!cursor) return null;
        let proxy = this.sources.get(cursor);
        if (!proxy) this.sources.set(cursor, (proxy = new DataSourceProxy(e, cursor)));
        return proxy;
      }
      case 'GetColumnValue':
      case 'GetColumnValueNullable':
      case 'GetVariableValue':
      case 'GetParameterValue':
      case 'GetTotalValue':
      case 'GetTotalValueNullable':
        return resolved(e.scope.resolve(stringArg(args, 0, name)));
      case 'SetParameterValue': {
        const v = args[1] ?? null;
        e.scope.setParameter(stringArg(args, 0, name), v instanceof HostObject ? String(v.typeName) : v);
        return null;
      }
      case 'Calc': {
        const source = stringArg(args, 0, name);
        try {
          return resolved(e.exprs.calc(e.scope, `script:${source}`, source, 'Report.Calc'));
        } catch (err) {
          // A bad expression is the handler's error (it may catch it), not the template's.
          if (err instanceof TemplateError) throw new ValueError('ArgumentException', err.message);
          throw err;
        }
      }
      case 'Refresh':
        return null;
    }
    throw noMember('Report', name, 'method');
  }
}

class ReportInfoProxy extends ScriptObject {
  readonly typeName = 'FastReport.ReportInfo';
  protected readonly label = 'ReportInfo';
  constructor(private readonly e: EngineContext) {
    super();
  }
  member(name: string): Value {
    const r = this.e.scope.resolve(`Report.ReportInfo.${name}`);
    if (!r) throw noMember('ReportInfo', name, 'property');
    return resolved(r);
  }
  call(name: string): Value {
    throw noMember('ReportInfo', name, 'method');
  }
}

/** A data source a script walks itself (FastReport's DataSourceBase). */
export class DataSourceProxy extends ScriptObject {
  readonly typeName = 'FastReport.Data.DataSourceBase';
  protected readonly label = 'DataSource';

  constructor(
    private readonly e: EngineContext,
    private readonly cursor: DataSourceCursor,
  ) {
    super();
  }

  member(name: string): Value {
    const c = this.cursor;
    switch (name) {
      case 'Name':
        return c.name;
      case 'Alias':
        return c.alias;
      case 'HasMoreRows':
        return c.position < c.count;
      case 'EOF':
        return c.eof;
      case 'RowCount':
        return c.count;
      case 'CurrentRowNo':
        return c.position;
      case 'Columns':
        return new ColumnsProxy(this.cursor);
    }
    throw noMember('DataSource', name, 'property');
  }

  call(name: string, args: readonly Value[]): Value {
    const c = this.cursor;
    switch (name) {
      case 'Init': {
        const master = args[0];
        if (master instanceof DataSourceProxy) this.e.data.initSource(c.name, master.cursor.name);
        else c.reset();
        c.first();
        return null;
      }
      case 'First':
        c.first();
        return null;
      case 'Next':
        c.next();
        return null;
      case 'Prior':
        c.prev();
        return null;
      case 'GetValue':
        return this.index(args[0] ?? null);
    }
    throw noMember('DataSource', name, 'method');
  }

  /** `ds["Column"]` or `ds[column]`: the column's value in the current row. */
  override index(i: Value): Value {
    const name = i instanceof ColumnProxy ? i.column : typeof i === 'string' ? i : null;
    if (name === null) throw new ValueError('ArgumentException', 'a data source is indexed by a column or its name');
    if (!this.cursor.hasColumn([name]))
      throw new ValueError('ArgumentException', `the data source ${this.cursor.alias} has no column ${name}`);
    if (this.cursor.eof) return null;
    return fromResolved(this.cursor.columnValue([name]));
  }
}

class ColumnsProxy extends ScriptObject {
  readonly typeName = 'FastReport.Data.ColumnCollection';
  protected readonly label = 'Columns';
  constructor(private readonly cursor: DataSourceCursor) {
    super();
  }
  member(name: string): Value {
    if (name === 'Count') return this.cursor.columns.length;
    throw noMember('Columns', name, 'property');
  }
  call(name: string): Value {
    throw noMember('Columns', name, 'method');
  }
  override index(i: Value): Value {
    const cols = this.cursor.columns;
    const def = typeof i === 'string' ? cols.find((c) => c.alias === i || c.name === i) : cols[num(i, 'Columns[i]')];
    if (!def)
      throw new ValueError(
        'ArgumentOutOfRangeException',
        `the data source ${this.cursor.alias} has no column ${String(i)}`,
      );
    return new ColumnProxy(def.alias, def.name, def.type);
  }
  override items(): Iterable<Value> {
    return this.cursor.columns.map((d) => new ColumnProxy(d.alias, d.name, d.type));
  }
}

class ColumnProxy extends ScriptObject {
  readonly typeName = 'FastReport.Data.Column';
  protected readonly label = 'Column';
  constructor(
    readonly column: string,
    private readonly name: string,
    private readonly type: string,
  ) {
    super();
  }
  member(name: string): Value {
    if (name === 'Alias') return this.column;
    if (name === 'Name') return this.name;
    if (name === 'DataType') return this.type;
    throw noMember('Column', name, 'property');
  }
  call(name: string): Value {
    if (name === 'ToString') return this.column;
    throw noMember('Column', name, 'method');
  }
}

/** `Engine`: the passes, the page position and page breaks. */
export class EngineProxy extends ScriptObject {
  readonly typeName = 'FastReport.Engine.ReportEngine';
  protected readonly label = 'Engine';
  constructor(private readonly e: EngineContext) {
    super();
  }
  member(name: string): Value {
    const e = this.e;
    switch (name) {
      case 'FinalPass':
        return e.passes.finalPass;
      case 'FirstPass':
        return e.passes.firstPass;
      case 'DoublePass':
        return e.passes.doublePass;
      case 'CurPage':
        return e.cursor.curPage;
      case 'CurColumn':
        return e.cursor.curColumn;
      case 'CurX':
        return new Flt(e.cursor.curX);
      case 'CurY':
        return new Flt(e.cursor.curY);
      case 'PageWidth':
        return new Flt(e.cursor.pageWidth);
      case 'PageHeight':
        return new Flt(e.cursor.pageHeight);
      case 'FreeSpace':
        return new Flt(freeSpace(e));
      case 'PageNo':
        return resolved(e.scope.resolve('Page'));
      case 'TotalPages':
        return resolved(e.scope.resolve('TotalPages'));
    }
    throw noMember('Engine', name, 'property');
  }
  override setMember(name: string, v: Value): void {
    if (name === 'CurY') this.e.cursor.curY = num(v, 'Engine.CurY');
    else if (name === 'CurX') this.e.cursor.curX = num(v, 'Engine.CurX');
    else throw noMember('Engine', name, 'settable property');
  }
  call(name: string, args: readonly Value[], text: (v: Value) => string): Value {
    const e = this.e;
    switch (name) {
      case 'GetBookmarkPage': {
        if (args.length !== 1) throw noMember('Engine', `${name} with ${args.length} arguments`, 'method');
        return e.bookmarks.pageOf(text(args[0] ?? null), e.cursor.pages, e.cursor.curPage);
      }
      case 'AddOutline': {
        // An entry at the current position, under the current entry (FastReport's AddOutline).
        e.outline.add(text(args[0] ?? null), e.cursor.curPage + 1, e.cursor.yOnPage);
        return null;
      }
      case 'OutlineUp':
        e.outline.up();
        return null;
      case 'OutlineRoot':
        e.outline.toRoot();
        return null;
      case 'StartNewColumn':
        e.flow.endColumn(e);
        return null;
      case 'StartNewPage': {
        const page = e.cursor.curPage;
        // Ends every column left on the page (FastReport's StartNewPage).
        for (let i = 0; i <= e.cursor.page.columns.count && e.cursor.curPage === page && !e.limits.aborted; i++)
          e.flow.endColumn(e);
        return null;
      }
    }
    throw noMember('Engine', name, 'method');
  }
}
