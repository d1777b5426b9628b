// Evaluating an AdvMatrix data cell: its text's expressions (formula.ts) with each aggregate
// taken over the data rows of the place it names. The builder (result.ts) says which rows a
// place has; the values of each aggregate's argument are read per row once (rows.ts).

import { TemplateError } from '../../errors.js';
import {
  applyOperator,
  compileExpression,
  ExpressionError,
  parseTemplate,
  type CompiledExpression,
  type Resolved,
  type Scope,
  type TypedValue,
} from '../../expr/index.js';
import type { AdvDescriptorModel, TextObjectModel } from '../../frx/model.js';
import type { EngineContext } from '../context.js';
import { aggregate } from './aggregates.js';
import { cellFormula, PLACEHOLDER, type AggregatePlace, type CellFormula } from './formula.js';
import type { MatrixRows } from './rows.js';

/** The rows of the places a cell's aggregates name; null when there is no such place (no next
 *  column). */
export interface CellPlaces {
  here(): ArrayLike<number>;
  /** The rows of the cell's column, row or of the whole matrix, and what they belong to (the
   *  aggregate over them is kept per owner: every cell of a column shares its total). */
  total(of: 'Column' | 'Row' | 'Grand'): { owner: object; rows: ArrayLike<number> };
  column(
    place: Extract<AggregatePlace, { kind: 'Column' | 'SpecificColumn' }>,
    key: TypedValue | null,
  ): ArrayLike<number> | null;
}

interface CompiledFormula {
  formula: CellFormula;
  expression: CompiledExpression;
}

/** A cell text compiled: literal parts and formulas. */
export type CompiledCell = (string | CompiledFormula)[];

/** What a data cell shows, and what the objects inside it see. */
export interface CellResult {
  parts: (string | TypedValue)[];
  /** The value of the cell's (first) expression. */
  value: TypedValue | null;
  /** The values its first aggregate gathered here, in data order. */
  values: unknown[];
}

/** .NET failures of a cell's arithmetic that leave the cell empty (a column navigated to that
 *  has no value, a percentage of zero). */
const EMPTY_ON = new Set(['DivideByZeroException', 'OverflowException', 'NullReferenceException']);

export class CellEvaluator {
  private readonly compiled = new WeakMap<object, CompiledCell>();
  private readonly totals = new WeakMap<AdvDescriptorModel, CompiledFormula>();
  /** Aggregates over a whole column, row or the matrix (percentages), per owner and aggregate. */
  private readonly wholes = new WeakMap<object, Map<string, TypedValue | null>>();

  constructor(
    private readonly e: EngineContext,
    private readonly matrixName: string,
    private readonly rows: MatrixRows,
  ) {}

  private compile(source: string, where: string): CompiledFormula {
    const isUser = (name: string): boolean => this.e.scope.script?.hasMethod(name) === true;
    const formula = cellFormula(source, isUser, where);
    const expression = compileExpression(formula.source, {
      where,
      isName: this.e.scope.isName,
      isFunction: (name) => PLACEHOLDER.test(name) || this.e.scope.isFunction(name),
    });
    return { formula, expression };
  }

  /** A data cell's text compiled once (its brackets hold the formulas). */
  cell(o: TextObjectModel): CompiledCell {
    let c = this.compiled.get(o);
    if (!c) {
      const where = `${this.matrixName}.${o.name}`;
      c = parseTemplate(o.text, '[,]').map((p) => (p.kind === 'text' ? p.text : this.compile(p.source, where)));
      this.compiled.set(o, c);
    }
    return c;
  }

  evaluate(owner: object, c: CompiledCell, places: CellPlaces): CellResult {
    const out: CellResult = { parts: [], value: null, values: [] };
    let first = true;
    for (const part of c) {
      if (typeof part === 'string') {
        out.parts.push(part);
        continue;
      }
      const v = this.run(owner, part, places, first ? out.values : undefined);
      if (first) out.value = v;
      first = false;
      out.parts.push(v ?? NULL);
    }
    return out;
  }

  /** A group's SortByTotal over its rows. */
  total(d: AdvDescriptorModel, rows: Int32Array): TypedValue | null {
    let f = this.totals.get(d);
    if (!f) this.totals.set(d, (f = this.compile(d.sortByTotal, `${this.matrixName}.SortByTotal`)));
    const here = { here: () => rows, total: () => ({ owner: rows, rows }), column: () => null };
    return this.run(d, f, here, undefined);
  }

  private run(
    owner: object,
    f: CompiledFormula,
    places: CellPlaces,
    gathered: unknown[] | undefined,
  ): TypedValue | null {
    const where = `${this.matrixName}.Cell`;
    const refValue = (i: number): TypedValue | null => {
      const ref = f.formula.refs[i];
      const spec = ref ? f.formula.aggregates[ref.agg] : undefined;
      if (!ref || !spec) return null;
      const take = (rows: ArrayLike<number> | null, gather?: unknown[]): TypedValue | null => {
        if (!rows) return null;
        const values: TypedValue[] = [];
        for (let k = 0; k < rows.length; k++) {
          const v = this.rows.value(owner, 'adv-arg', spec.arg, where, rows[k] as number);
          if (v) values.push(v);
        }
        if (gather && gather.length === 0) for (const v of values) gather.push(v.value);
        if (spec.fn !== 'User') return aggregate(spec.fn, values, this.e.report.convertNulls);
        const r = this.e.scope.callScriptWithList(spec.user, values);
        return r.value === null || r.value === undefined ? null : { value: r.value, type: r.type ?? 'System.Object' };
      };
      const place = ref.place;
      switch (place.kind) {
        case 'Here':
          return take(places.here(), gathered);
        case 'Percent': {
          const whole = places.total(place.of);
          let byAggregate = this.wholes.get(whole.owner);
          if (!byAggregate) this.wholes.set(whole.owner, (byAggregate = new Map()));
          const id = `${spec.fn}\u0000${spec.user}\u0000${spec.arg}`;
          let total = byAggregate.get(id);
          if (total === undefined) byAggregate.set(id, (total = take(whole.rows)));
          return percent(take(places.here(), gathered), total, this.e.report.convertNulls);
        }
        case 'Column':
          return take(places.column(place, null));
        case 'SpecificColumn': {
          const key = this.e.exprs.calc(owner, `adv-key:${place.key}`, place.key, where);
          return take(places.column(place, key));
        }
      }
    };
    const scope: Scope = {
      resolve: (name) => this.e.scope.resolve(name),
      convertNulls: this.e.scope.convertNulls,
      formatter: this.e.scope.formatter,
      now: () => this.e.scope.now(),
      callScript: (name, args): Resolved => {
        const m = PLACEHOLDER.exec(name);
        if (!m) return this.e.scope.callScript(name, args);
        const v = refValue(Number(m[1]));
        return v ?? { value: null, type: 'System.Object' };
      },
    };
    try {
      const v = f.expression.evaluateTyped(scope, where);
      return v.value === null || v.value === undefined ? null : v;
    } catch (err) {
      if (err instanceof ExpressionError && err.netError !== undefined && EMPTY_ON.has(err.netError)) return null;
      if (err instanceof TemplateError || !(err instanceof Error)) throw err;
      throw new TemplateError(err.message, where);
    }
  }
}

const NULL: TypedValue = { value: null, type: 'System.Object' };

/** `part` as a fraction of `whole` (a double); null without both or of a zero whole. */
function percent(part: TypedValue | null, whole: TypedValue | null, convertNulls: boolean): TypedValue | null {
  if (!part || !whole) return null;
  const x = Number(String(part.value));
  const y = Number(String(whole.value));
  if (!Number.isFinite(x) || !Number.isFinite(y) || y === 0) return null;
  return applyOperator('/', { value: x, type: 'System.Double' }, { value: y, type: 'System.Double' }, { convertNulls });
}
