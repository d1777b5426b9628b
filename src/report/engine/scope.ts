// What expressions see while a report runs (the expression engine's Scope): data columns of the
// current rows, calculated columns, parameters, totals and FastReport's system variables.

import type { DataContext, ResolvedReference } from '../data/index.js';
import type { Formatter, Resolved, Scope, TypedValue } from '../expr/index.js';
import { TemplateError } from '../errors.js';
import type { ParameterModel, ReportModel } from '../frx/model.js';
import { TABLE_AGGREGATES, type TableBeingBuilt, TableCellRef, tableAggregate } from './table-aggregates.js';

/** The engine state the scope reads (kept small so the scope can be tested alone). */
export interface ScopeHost {
  readonly report: ReportModel;
  readonly data: DataContext;
  readonly formatter: Formatter;
  readonly date: Date;
  readonly convertNulls: boolean;
  /** Logical page number (Page) and total (TotalPages) of the current page. */
  pageNo(): number;
  totalPages(): number;
  /** Physical page number (Page#) and page count (TotalPages#). */
  physicalPageNo(): number;
  physicalTotalPages(): number;
  rowNo(): number;
  absRowNo(): number;
  hierarchyLevel(): number;
  hierarchyRowNo(): string;
  /** Value of a total, undefined when there is no total of that name. */
  totalValue(name: string): Resolved | undefined;
  hasTotal(name: string): boolean;
  /** Evaluates a dictionary expression (calculated columns, parameters); `where` names it. */
  calc(expression: string, where: string): TypedValue;
  /** Caller-supplied parameter values. */
  readonly parameterValues: Readonly<Record<string, unknown>>;
  /** `Engine` (FastReport's ReportEngine as expressions see it: GetBookmarkPage, CurPage …). */
  engineObject(): unknown;
}

const SYSTEM_NAMES = new Set([
  'Page',
  'TotalPages',
  'PageN',
  'PageNofM',
  'Row#',
  'AbsRow#',
  'Page#',
  'TotalPages#',
  'Date',
  'HierarchyLevel',
  'HierarchyRow#',
  'CopyName#',
  'Engine',
]);

const INFO_FIELDS: Record<string, (r: ReportModel) => Resolved> = {
  Name: (r) => ({ value: r.reportInfo.name, type: 'System.String' }),
  Author: (r) => ({ value: r.reportInfo.author, type: 'System.String' }),
  Description: (r) => ({ value: r.reportInfo.description, type: 'System.String' }),
  Version: (r) => ({ value: r.reportInfo.version, type: 'System.String' }),
  Created: (r) => ({ value: r.reportInfo.createdDate, type: 'System.DateTime' }),
  Modified: (r) => ({ value: r.reportInfo.modifiedDate, type: 'System.DateTime' }),
  CreatorVersion: (r) => ({ value: r.reportInfo.creatorVersion, type: 'System.String' }),
};

const int = (n: number): Resolved => ({ value: n, type: 'System.Int32' });
const str = (s: string): Resolved => ({ value: s, type: 'System.String' });

/** A parameter's value written as text (`Value="12"`) read by its DataType. */
export function parameterFromText(text: string, dataType: string): Resolved {
  const t = dataType.replace(/^System\./, '');
  const trimmed = text.trim();
  switch (t) {
    case 'Int16':
    case 'Int32':
    case 'Int64':
    case 'Byte':
    case 'SByte':
    case 'UInt16':
    case 'UInt32':
    case 'UInt64': {
      const n = Number.parseInt(trimmed, 10);
      return { value: Number.isFinite(n) ? n : null, type: dataType };
    }
    case 'Double':
    case 'Single': {
      const n = Number(trimmed);
      return { value: trimmed === '' || !Number.isFinite(n) ? null : n, type: dataType };
    }
    case 'Decimal':
      return /^[-+]?\d+(\.\d+)?$/.test(trimmed)
        ? { value: Number(trimmed), type: dataType, decimalText: trimmed }
        : { value: null, type: dataType };
    case 'Boolean':
      return { value: trimmed === '' ? null : trimmed.toLowerCase() === 'true', type: dataType };
    case 'DateTime': {
      const m =
        /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(trimmed) ??
        /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(trimmed);
      if (!m) return { value: null, type: dataType };
      const iso = m[0].includes('/');
      const [y, mo, d] = iso ? [m[3], m[1], m[2]] : [m[1], m[2], m[3]];
      return {
        value: new Date(
          Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)),
        ),
        type: dataType,
      };
    }
    default:
      return { value: text, type: dataType || 'System.String' };
  }
}

/** A caller-supplied parameter value as a Resolved (numbers keep the declared type). */
function suppliedParameter(v: unknown, dataType: string): Resolved {
  if (typeof v === 'string' && dataType && dataType !== 'System.String') return parameterFromText(v, dataType);
  if (v === undefined) return { value: null, type: dataType };
  return { value: v, type: dataType || undefined };
}

/** What the report's expressions see of its script (engine/script.ts). */
export interface ScriptNames {
  field(name: string): Resolved | undefined;
  hasMethod(name: string): boolean;
  call(name: string, args: readonly unknown[]): Resolved;
  /** Calls a method with one argument: a List of these values (an AdvMatrix's user aggregate). */
  callWithList(name: string, values: readonly Resolved[]): Resolved;
}

export class ReportScope implements Scope {
  readonly convertNulls: boolean;
  readonly formatter: Formatter;
  /** The value of the printed object, for Highlight conditions ("Value"). */
  highlightValue: TypedValue | undefined = undefined;
  /** Run-time properties of report objects (`Matrix1.RowIndex`), by object name: each answers
   *  for the properties it has (a value, null before it prints) and undefined for others. */
  readonly objectProperties = new Map<string, (property: string) => Resolved | undefined>();
  /** The report script: its fields are names, its methods functions of the report's expressions. */
  script: ScriptNames | undefined = undefined;
  /** The table a ManualBuild handler is building, while it copies a cell: the cell's aggregates
   *  (`[Sum(Cell8)]`) name the table's cells. */
  tableBuild: TableBeingBuilt | undefined = undefined;
  private readonly parameters = new Map<string, ParameterModel>();
  /** Values the script set (Report.SetParameterValue), over the dictionary's and the caller's. */
  private readonly setByScript = new Map<string, unknown>();
  private readonly evaluating = new Set<string>();

  constructor(private readonly host: ScopeHost) {
    this.convertNulls = host.convertNulls;
    this.formatter = host.formatter;
    const add = (list: readonly ParameterModel[], prefix: string): void => {
      for (const p of list) {
        const full = prefix + p.name;
        if (!this.parameters.has(full)) this.parameters.set(full, p);
        add(p.parameters, `${full}.`);
      }
    };
    add(host.report.dictionary.parameters, '');
  }

  now(): Date {
    return this.host.date;
  }

  /** True when `name` is something this scope can resolve (for compiling expressions). */
  isName = (name: string): boolean => {
    if (SYSTEM_NAMES.has(name) || name === 'Value') return true;
    if (name.startsWith('Report.ReportInfo.') && Object.hasOwn(INFO_FIELDS, name.slice(18))) return true;
    if (this.parameters.has(name) || this.setByScript.has(name) || this.host.hasTotal(name)) return true;
    if (this.host.data.resolve(name) !== null) return true;
    if (this.script?.field(name) !== undefined) return true;
    if (this.tableBuild?.templateCell(name)) return true;
    return this.objectProperty(name) !== undefined;
  };

  /** Report.SetParameterValue: the parameter has this value from now on. */
  setParameter(name: string, value: unknown): void {
    this.setByScript.set(name, value);
  }

  isFunction = (name: string): boolean =>
    this.script?.hasMethod(name) === true || (this.tableBuild !== undefined && TABLE_AGGREGATES.has(name));

  callScript(name: string, args: readonly unknown[]): Resolved {
    const ref = args[0];
    if (this.tableBuild && TABLE_AGGREGATES.has(name) && args.length === 1 && ref instanceof TableCellRef) {
      const template = this.tableBuild.templateCell(ref.name);
      if (template) return tableAggregate(name, this.tableBuild.collect(template));
    }
    if (!this.script) throw new TemplateError(`the report has no script method ${name}`);
    return this.script.call(name, args);
  }

  /** A script method called with the list of an AdvMatrix cell's values (`_Sum(List<dynamic>)`). */
  callScriptWithList(name: string, values: readonly Resolved[]): Resolved {
    if (!this.script) throw new TemplateError(`the report has no script method ${name}`);
    return this.script.callWithList(name, values);
  }

  private objectProperty(name: string): Resolved | undefined {
    const dot = name.indexOf('.');
    if (dot < 0) return undefined;
    return this.objectProperties.get(name.slice(0, dot))?.(name.slice(dot + 1));
  }

  resolve(name: string): Resolved | undefined {
    // Most names are data columns: the set tells them from system names without the switch.
    if (SYSTEM_NAMES.has(name) || name === 'Value' || name.startsWith('Report.ReportInfo.')) {
      const sys = this.system(name);
      if (sys !== undefined) return sys;
    }
    const ref = this.host.data.resolve(name);
    if (ref) return this.column(ref);
    if (this.setByScript.has(name)) return { value: this.setByScript.get(name) };
    const p = this.parameters.get(name);
    if (p) return this.parameter(name, p);
    return (
      this.host.totalValue(name) ??
      this.script?.field(name) ??
      this.objectProperty(name) ??
      (this.tableBuild?.templateCell(name) ? { value: new TableCellRef(name) } : undefined)
    );
  }

  private system(name: string): Resolved | undefined {
    switch (name) {
      case 'Page':
        return int(this.host.pageNo());
      case 'TotalPages':
        return int(this.host.totalPages());
      case 'PageN':
        return str(`Page ${this.host.pageNo()}`);
      case 'PageNofM':
        return str(`Page ${this.host.pageNo()} of ${this.host.totalPages()}`);
      case 'Row#':
        return int(this.host.rowNo());
      case 'AbsRow#':
        return int(this.host.absRowNo());
      case 'Page#':
        return int(this.host.physicalPageNo());
      case 'TotalPages#':
        return int(this.host.physicalTotalPages());
      case 'Date':
        return { value: this.host.date, type: 'System.DateTime' };
      case 'HierarchyLevel':
        return int(this.host.hierarchyLevel());
      case 'HierarchyRow#':
        return str(this.host.hierarchyRowNo());
      case 'Engine':
        return { value: this.host.engineObject() };
      case 'CopyName#':
        // An export is one document, as FastReport's preview shows it: the first copy's name.
        return str(this.host.report.printSettings.copyNames[0] ?? '');
      case 'Value':
        return this.highlightValue;
    }
    if (name.startsWith('Report.ReportInfo.')) {
      const f = name.slice(18);
      if (Object.hasOwn(INFO_FIELDS, f)) return (INFO_FIELDS[f] as (r: ReportModel) => Resolved)(this.host.report);
    }
    return undefined;
  }

  private column(ref: ResolvedReference): Resolved {
    const first = ref.path[0];
    if (ref.path.length === 1 && first !== undefined) {
      const def = ref.target.columns[ref.target.columnIndex(first)];
      if (def?.expression !== undefined)
        return this.guarded(`column ${ref.ref}`, () => this.host.calc(def.expression as string, `Column "${ref.ref}"`));
    }
    return this.host.data.value(ref);
  }

  private parameter(name: string, p: ParameterModel): Resolved {
    if (Object.hasOwn(this.host.parameterValues, name))
      return suppliedParameter(this.host.parameterValues[name], p.dataType);
    if (p.expression.trim() !== '')
      return this.guarded(`parameter ${name}`, () => this.host.calc(p.expression, `Parameter "${name}"`));
    return parameterFromText(p.value, p.dataType);
  }

  private guarded(key: string, fn: () => TypedValue): Resolved {
    if (this.evaluating.has(key)) throw new TemplateError(`${key} refers to itself`);
    if (this.evaluating.size > 64) throw new TemplateError(`${key}: calculated values nest too deeply`);
    this.evaluating.add(key);
    try {
      const r = fn();
      return { value: r.value, type: r.type };
    } finally {
      this.evaluating.delete(key);
    }
  }
}
