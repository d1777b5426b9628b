// A chart's points for one print (FastReport's MSChartObject.GetData): the stored points of a
// static chart, the rows of its data source for a bound one (every row, no relation to the
// current master row, the chart Filter then each series' Filter; XValue, YValue1…, Color, Label
// per point; one series per AutoSeriesColumn value; on a DataFooter, the rows its data band has
// just printed, on a GroupFooter its group's rows), the values of the matrix cell it sits in;
// then each series' FinishData and AlignXValues. The data source's rows and position are
// restored after.

import type { DataSourceCursor, Row } from '../data/index.js';
import { applyOperator, Decimal, type TypedValue } from '../expr/index.js';
import type {
  BandModel,
  ChartObjectModel,
  ChartSeriesBindingModel,
  Color,
  DataBandModel,
  GroupHeaderBandModel,
} from '../frx/model.js';
import { allBands } from '../frx/load.js';
import { parseColor } from '../frx/colors.js';
import { CHART_LIMITS, ChartDataError, parseChartData } from '../chart/chart-xml.js';
import { alignXValues, finishData, newPoint, toOADate } from '../chart/finish-data.js';
import type { ChartModel, ChartPoint, ChartSeries } from '../chart/model.js';
import type { EngineContext } from './context.js';
import { cursorRestorer } from './datasource.js';

const parsed = new WeakMap<ChartObjectModel, ChartModel | ChartDataError>();

/** The template's chart (parsed once per object); a ChartDataError when its ChartData is bad. */
function templateChart(o: ChartObjectModel): ChartModel | ChartDataError {
  let c = parsed.get(o);
  if (!c) {
    try {
      c = parseChartData(o.chartData);
    } catch (err) {
      if (!(err instanceof ChartDataError)) throw err;
      c = err;
    }
    parsed.set(o, c);
  }
  return c;
}

const EMPTY_CHART: ChartModel = parseChartData('');

/** A number for a Y value (null, text that is no number: 0). */
function toNumber(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : 0;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Decimal) return v.toNumber();
  if (v instanceof Date) return toOADate(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

/** A colour from an expression's value: a colour name or text, an Int32 ARGB (alpha forced). */
function toColor(v: unknown): Color | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) {
    const n = v >>> 0;
    return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255, a: 255 };
  }
  if (typeof v === 'string') return parseColor(v);
  if (v && typeof v === 'object' && 'r' in v && 'g' in v && 'b' in v) return v as Color;
  return undefined;
}

class PointBudget {
  count = 0;
  constructor(
    private readonly e: EngineContext,
    private readonly name: string,
  ) {}
  take(): boolean {
    if (this.count >= CHART_LIMITS.maxPoints) {
      this.e.warnings.add(`${this.name}: more than ${CHART_LIMITS.maxPoints} points; the rest are left out`);
      return false;
    }
    this.count++;
    return true;
  }
}

/** AddXY with the point's Color and Label, from the current row. */
function addPoint(e: EngineContext, o: ChartObjectModel, b: ChartSeriesBindingModel, s: ChartSeries, k: number): void {
  const where = `${o.name}.${b.name || `Series${k + 1}`}`;
  if (b.xValue.trim() === '') return;
  const xv = e.exprs.calc(b, 'x', b.xValue, `${where}.XValue`).value;
  if (xv === null || xv === undefined) return;
  const ys: number[] = [];
  for (let i = 0; i < s.yValuesPerPoint; i++) {
    const src = b.yValues[i] ?? '';
    ys.push(src.trim() === '' ? 0 : toNumber(e.exprs.calc(b, `y${i}`, src, `${where}.YValue${i + 1}`).value));
  }
  let p: ChartPoint;
  if (typeof xv === 'string') p = newPoint(0, ys, xv);
  else if (xv instanceof Date) {
    const day =
      s.xValueType === 'Date' ? new Date(Date.UTC(xv.getUTCFullYear(), xv.getUTCMonth(), xv.getUTCDate())) : xv;
    p = newPoint(toOADate(day), ys);
  } else p = newPoint(toNumber(xv), ys);
  if (b.color.trim() !== '') p.color = toColor(e.exprs.calc(b, 'color', b.color, `${where}.Color`).value);
  if (b.label.trim() !== '') p.label = e.exprs.text(b, 'label', b.label, `${where}.Label`) ?? '';
  s.points.push(p);
}

function passes(e: EngineContext, owner: object, filter: string, where: string): boolean {
  return filter.trim() === '' || e.exprs.condition(owner, 'filter', filter, where) !== false;
}

/** Where a chart on a footer takes its rows from: the data band whose DataFooter it is on, or
 *  the group (with its outer groups) whose GroupFooter it is on. */
interface FooterSource {
  data: DataBandModel;
  groups: GroupHeaderBandModel[];
}

const footerSources = new WeakMap<ChartObjectModel, FooterSource | null>();

function footerSource(e: EngineContext, o: ChartObjectModel): FooterSource | null {
  let found = footerSources.get(o);
  if (found === undefined) {
    found = null;
    for (const page of e.report.pages)
      for (const band of allBands(page)) {
        if (!band.objects.includes(o)) continue;
        const parent = e.structure.bandParent.get(band);
        if (parent?.type === 'DataBand' && parent.footer === band && parent.dataSource !== '')
          found = { data: parent, groups: [] };
        if (parent?.type === 'GroupHeaderBand' && parent.groupFooter === band) {
          const groups: GroupHeaderBandModel[] = [];
          for (
            let g: BandModel | null | undefined = parent;
            g?.type === 'GroupHeaderBand';
            g = e.structure.bandParent.get(g)
          )
            groups.push(g);
          let data: DataBandModel | null = null;
          for (let g: GroupHeaderBandModel | null = parent; g && !data; g = g.nestedGroup) data = g.data;
          if (data && data.dataSource !== '') found = { data, groups };
        }
      }
    footerSources.set(o, found);
  }
  return found;
}

/** The rows of the group the footer closes: back from the current (last) row while every group
 *  condition keeps its value. */
function groupRows(
  e: EngineContext,
  cursor: DataSourceCursor,
  groups: readonly GroupHeaderBandModel[],
): readonly Row[] {
  const rows = cursor.rows;
  const last = Math.min(cursor.position, rows.length - 1);
  if (last < 0) return [];
  const key = (): TypedValue[] => groups.map((g) => e.exprs.calc(g, 'condition', g.condition, `${g.name}.Condition`));
  const same = (a: TypedValue, b: TypedValue): boolean => {
    try {
      return applyOperator('==', a, b).value === true;
    } catch {
      return false;
    }
  };
  cursor.position = last;
  const current = key();
  let first = last;
  while (first > 0 && !e.limits.aborted) {
    e.limits.visitRow();
    cursor.position = first - 1;
    const k = key();
    if (!k.every((v, i) => same(v, current[i] as TypedValue))) break;
    first--;
  }
  cursor.position = last;
  return rows.slice(first, last + 1);
}

/** Reads the bound chart's rows into its series: every row of its data source, or, on a
 *  DataFooter or GroupFooter, the rows its data band or group has just printed (GetData). */
function readRows(e: EngineContext, o: ChartObjectModel, chart: ChartModel): void {
  const footer = footerSource(e, o);
  const cursor = e.data.findSource(footer ? footer.data.dataSource : o.dataSource);
  if (!cursor) {
    e.warnings.add(`${o.name}: data source "${o.dataSource}" is not in the dictionary; the chart has no data`);
    for (const s of chart.series) s.points = [];
    return;
  }
  const budget = new PointBudget(e, o.name);
  const auto = o.autoSeriesColumn.trim() !== '';
  const model = chart.series[0];
  const modelBinding = o.series[0];
  if (auto) chart.series = [];
  for (const s of chart.series) s.points = [];
  const restoreCursor = cursorRestorer(cursor);
  try {
    const rows = !footer
      ? cursor.allRows()
      : footer.groups.length > 0
        ? groupRows(e, cursor, footer.groups)
        : cursor.rows;
    cursor.setRows(rows);
    for (let i = 0; i < rows.length && !e.limits.aborted; i++) {
      e.limits.visitRow();
      cursor.position = i;
      if (!passes(e, o, o.filter, `${o.name}.Filter`)) continue;
      if (auto) {
        if (!model || !modelBinding) break;
        const key = e.exprs.text(o, 'autoSeries', o.autoSeriesColumn, `${o.name}.AutoSeriesColumn`) ?? '';
        let s = chart.series.find((x) => x.name === key);
        if (!s) {
          if (chart.series.length >= CHART_LIMITS.maxSeries) {
            e.warnings.add(`${o.name}: more than ${CHART_LIMITS.maxSeries} auto series; the rest are left out`);
            continue;
          }
          s = { ...structuredClone(model), name: key, points: [] };
          if (o.autoSeriesColor.trim() !== '')
            s.color = toColor(e.exprs.calc(o, 'autoColor', o.autoSeriesColor, `${o.name}.AutoSeriesColor`).value);
          chart.series.push(s);
        }
        if (passes(e, modelBinding, modelBinding.filter, `${o.name}.${modelBinding.name}.Filter`) && budget.take())
          addPoint(e, o, modelBinding, s, 0);
        continue;
      }
      chart.series.forEach((s, k) => {
        const b = o.series[k];
        if (!b || !passes(e, b, b.filter, `${o.name}.${b.name}.Filter`)) return;
        if (budget.take()) addPoint(e, o, b, s, k);
      });
    }
  } finally {
    restoreCursor();
  }
  if (auto && o.autoSeriesSortOrder !== 'None') {
    const sign = o.autoSeriesSortOrder === 'Descending' ? -1 : 1;
    const collator = new Intl.Collator(e.culture.name);
    chart.series.sort((a, b) => sign * collator.compare(a.name, b.name));
  }
}

/** The chart with its points for the current print, and why it is empty when it cannot be read. */
export function chartForPrint(e: EngineContext, o: ChartObjectModel): ChartModel {
  const tpl = templateChart(o);
  if (tpl instanceof ChartDataError) {
    e.warnings.add(`${o.name}: ${tpl.message}; the chart is drawn empty`);
    return EMPTY_CHART;
  }
  const chart: ChartModel = { ...tpl, series: structuredClone(tpl.series) };
  if (o.dataSource.trim() !== '') readRows(e, o, chart);
  else if (e.cellData && chart.series[0]) {
    // Inside a matrix data cell: the cell's values, one point each (stored points are the
    // designer's preview, as in the AdvMatrix sparkline demo).
    const values = e.cellData.values.slice(0, CHART_LIMITS.maxPoints);
    chart.series[0].points = values.map((v, i) => newPoint(i + 1, [toNumber(v)]));
  }
  const auto = o.dataSource.trim() !== '' && o.autoSeriesColumn.trim() !== '';
  const collator = new Intl.Collator(e.culture.name);
  chart.series.forEach((s, k) => {
    const b = auto ? o.series[0] : o.series[k];
    if (!b) return;
    const explode =
      b.pieExplode === 'SpecificValue' && b.pieExplodeValue.trim() !== ''
        ? (e.exprs.text(b, 'explode', b.pieExplodeValue, `${o.name}.${b.name}.PieExplodeValue`) ?? '')
        : '';
    s.points = finishData(s.points, { ...b, pieExplodeValue: explode }, collator.compare);
  });
  if (o.alignXValues) {
    const aligned = alignXValues(chart.series.map((s) => s.points));
    chart.series.forEach((s, k) => {
      s.points = aligned[k] ?? s.points;
    });
  }
  return chart;
}
