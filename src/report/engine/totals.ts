// Totals (Dictionary <Total>): accumulated after each row of the Evaluator band, reset after the
// PrintOn band has printed (ResetAfterPrint; not when the band is a repeated copy unless
// ResetOnReprint). Totals printed in a page/column footer or a repeated footer leave out rows a
// keep block moves to the next page until the block is placed (FastReport's keep totals).

import { applyOperator, compareValues, INTEGER_TYPES, type Resolved, type TypedValue } from '../expr/index.js';
import type { BandModel, TotalModel } from '../frx/model.js';
import { TemplateError } from '../errors.js';

interface Acc {
  value: TypedValue | null;
  count: number;
  distinct: Set<string> | undefined;
}

interface TotalRt {
  model: TotalModel;
  evaluator: BandModel | undefined;
  printOn: BandModel | undefined;
  acc: Acc;
  keep: Acc | undefined;
  pageFooter: boolean;
}

export interface TotalsHost {
  /** Evaluates the total's expression / condition in the current row. */
  calc(owner: object, key: string, source: string, where: string): TypedValue;
  convertNulls: boolean;
}

function distinctKey(v: TypedValue): string {
  const x = v.value;
  if (x instanceof Date) return `d${x.getTime()}`;
  if (typeof x === 'object' && x !== null && 'toString' in x) return `o${String(x)}`;
  return `${typeof x}:${String(x)}`;
}

const emptyAcc = (distinct: boolean): Acc => ({ value: null, count: 0, distinct: distinct ? new Set() : undefined });

export class Totals {
  private readonly list: TotalRt[];

  constructor(
    models: readonly TotalModel[],
    bandByName: (name: string) => BandModel | undefined,
    private readonly host: TotalsHost,
    warn: (m: string) => void,
  ) {
    this.list = models.map((model) => {
      const evaluator = model.evaluator ? bandByName(model.evaluator) : undefined;
      const printOn = model.printOn ? bandByName(model.printOn) : undefined;
      if (model.evaluator && !evaluator)
        warn(`Total "${model.name}": Evaluator band "${model.evaluator}" does not exist; the total stays empty`);
      else if (!model.evaluator) warn(`Total "${model.name}" has no Evaluator band; it stays empty`);
      if (model.printOn && !printOn)
        warn(`Total "${model.name}": PrintOn band "${model.printOn}" does not exist; the total is never reset`);
      const pageFooter =
        printOn !== undefined &&
        (printOn.type === 'PageFooterBand' ||
          printOn.type === 'ColumnFooterBand' ||
          ('repeatOnEveryPage' in printOn && printOn.repeatOnEveryPage));
      return {
        model,
        evaluator,
        printOn,
        acc: emptyAcc(model.totalType === 'CountDistinct'),
        keep: undefined,
        pageFooter,
      };
    });
  }

  private find(name: string): TotalRt | undefined {
    return (
      this.list.find((t) => t.model.name === name) ??
      this.list.find((t) => t.model.name.toLowerCase() === name.toLowerCase())
    );
  }

  has(name: string): boolean {
    return this.find(name) !== undefined;
  }

  /** The total's current value (Count/CountDistinct: Int32; Avg: sum / count; empty: null). */
  value(name: string): Resolved | undefined {
    const t = this.find(name);
    if (!t) return undefined;
    const a = t.acc;
    switch (t.model.totalType) {
      case 'Count':
        return { value: a.count, type: 'System.Int32' };
      case 'CountDistinct':
        return { value: a.distinct?.size ?? 0, type: 'System.Int32' };
      case 'Avg': {
        if (a.value === null || a.count === 0) return { value: null };
        const sum: TypedValue = INTEGER_TYPES.has(a.value.type)
          ? { value: Number(a.value.value), type: 'System.Double' }
          : a.value;
        return applyOperator(
          '/',
          sum,
          { value: a.count, type: 'System.Int32' },
          { convertNulls: this.host.convertNulls },
        );
      }
      default:
        return a.value === null ? { value: null } : a.value;
    }
  }

  /** After a band has printed: accumulate (Evaluator) or reset (PrintOn). */
  processBand(band: BandModel, repeated: boolean, evaluatorVisible: boolean): void {
    for (const t of this.list) {
      if (t.evaluator === band) this.add(t, evaluatorVisible);
      else if (t.printOn === band && t.model.resetAfterPrint && (!repeated || t.model.resetOnReprint)) {
        t.acc = emptyAcc(t.model.totalType === 'CountDistinct');
      }
    }
  }

  private add(t: TotalRt, visible: boolean): void {
    const m = t.model;
    if (!visible && !m.includeInvisibleRows) return;
    const where = `Total "${m.name}"`;
    if (
      m.evaluateCondition.trim() !== '' &&
      this.host.calc(t, 'cond', m.evaluateCondition, `${where}.EvaluateCondition`).value === false
    )
      return;
    if (m.totalType !== 'Count' && m.expression.trim() === '') return;
    const acc = t.keep ?? t.acc;
    if (m.totalType === 'Count') {
      acc.count++;
      return;
    }
    const v = this.host.calc(t, 'expr', m.expression, `${where}.Expression`);
    if (v.value === null || v.value === undefined) {
      if (m.totalType !== 'Avg') acc.count++;
      return;
    }
    this.merge(t, acc, v);
    acc.count++;
  }

  private merge(t: TotalRt, acc: Acc, v: TypedValue): void {
    const type = t.model.totalType;
    if (type === 'CountDistinct') {
      acc.distinct?.add(distinctKey(v));
      return;
    }
    if (acc.value === null) {
      acc.value = v;
      return;
    }
    try {
      if (type === 'Sum' || type === 'Avg')
        acc.value = applyOperator('+', acc.value, v, { convertNulls: this.host.convertNulls });
      else if (type === 'Min' && compareValues(acc.value, v) > 0) acc.value = v;
      else if (type === 'Max' && compareValues(acc.value, v) < 0) acc.value = v;
    } catch (e) {
      if (e instanceof TemplateError) throw new TemplateError(e.message, `Total "${t.model.name}"`);
      throw e;
    }
  }

  clear(): void {
    for (const t of this.list) {
      t.acc = emptyAcc(t.model.totalType === 'CountDistinct');
      t.keep = undefined;
    }
  }

  startKeep(): void {
    for (const t of this.list) if (t.pageFooter && !t.keep) t.keep = emptyAcc(t.model.totalType === 'CountDistinct');
  }

  endKeep(): void {
    for (const t of this.list) {
      const k = t.keep;
      if (!k) continue;
      t.keep = undefined;
      if (k.value !== null) this.merge(t, t.acc, k.value);
      for (const d of k.distinct ?? []) t.acc.distinct?.add(d);
      t.acc.count += k.count;
    }
  }
}
