// `ChartData` → ChartModel: base64 → MS Chart's XML serialization (read with the template XML
// reader and its limits) → series, points, chart areas, axes, legends, titles. What the XML omits
// takes MS Chart's default. A blob that cannot be read is the caller's warning (ChartDataError).

import type { Color, FontSpec } from '../frx/model.js';
import { BLACK, parseColor, TRANSPARENT, WHITE } from '../frx/colors.js';
import { parseBool, parseFloatInv, parseFont } from '../frx/value-parsers.js';
import { parseXml, type XmlElement } from '../frx/xml.js';
import type {
  ChartAreaModel,
  ChartAxis,
  ChartGrid,
  ChartLegend,
  ChartModel,
  ChartPoint,
  ChartSeries,
  ChartTitle,
  Docking,
  StringAlignment,
} from './model.js';
import { paletteColors } from './palettes.js';

/** Limits on one chart, whatever the template says (demos: ≤ 4 series, ≤ 30 points each). */
export const CHART_LIMITS = Object.freeze({
  maxPoints: 100_000,
  maxSeries: 256,
  maxDataBytes: 8 * 1024 * 1024,
});

export class ChartDataError extends Error {}

/** MS Chart's default font ("Microsoft Sans Serif, 8pt"). */
export const CHART_DEFAULT_FONT: Readonly<FontSpec> = Object.freeze({
  family: 'Microsoft Sans Serif',
  sizePt: 8,
  bold: false,
  italic: false,
  underline: false,
  strikeout: false,
});

const font = (s: string | undefined, def: Readonly<FontSpec> = CHART_DEFAULT_FONT): FontSpec =>
  (s === undefined ? undefined : parseFont(s)) ?? { ...def };
const color = (s: string | undefined, def: Readonly<Color>): Color =>
  (s === undefined ? undefined : parseColor(s)) ?? { ...def };
const optColor = (s: string | undefined): Color | undefined => (s === undefined ? undefined : parseColor(s));
const num = (s: string | undefined, def: number): number => {
  const v = s === undefined ? undefined : parseFloatInv(s);
  return v !== undefined && Number.isFinite(v) ? v : def;
};
const optNum = (s: string | undefined): number | undefined => {
  const v = s === undefined ? undefined : parseFloatInv(s);
  return v !== undefined && Number.isFinite(v) ? v : undefined;
};
const bool = (s: string | undefined, def: boolean): boolean => (s === undefined ? def : (parseBool(s) ?? def));
const oneOf = <T extends string>(s: string | undefined, values: readonly T[], def: T): T =>
  values.find((v) => v.toLowerCase() === (s ?? '').trim().toLowerCase()) ?? def;
const child = (el: XmlElement | undefined, name: string): XmlElement | undefined =>
  el?.children.find((c) => c.name === name);
const children = (el: XmlElement | undefined, name: string): XmlElement[] =>
  el ? el.children.filter((c) => c.name === name) : [];

/** "Key=Value, Key=Value" with `\,` for a comma inside a value. */
export function parseCustomProperties(s: string | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (!s) return out;
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (ch === '\\' && s[i + 1] === ',') {
      cur += ',';
      i++;
    } else if (ch === ',') {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  for (const p of parts) {
    const eq = p.indexOf('=');
    if (eq > 0) out[p.slice(0, eq).trim()] = p.slice(eq + 1).trim();
  }
  return out;
}

/** Decodes `ChartData` (base64 of the chart XML). */
export function decodeChartData(base64: string): string {
  const clean = base64.replace(/\s+/g, '');
  if (clean.length > (CHART_LIMITS.maxDataBytes * 4) / 3 + 4) throw new ChartDataError('ChartData is too large');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1)
    throw new ChartDataError('ChartData is not base64');
  let text = Buffer.from(clean, 'base64').toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text;
}

/** The chart of a `ChartData` attribute; '' is a new chart (one Column series, no points). */
export function parseChartData(base64: string): ChartModel {
  if (base64.trim() === '') return readChart(undefined);
  const text = decodeChartData(base64);
  let root: XmlElement;
  try {
    root = parseXml(text, { maxInputBytes: CHART_LIMITS.maxDataBytes, maxElements: 300_000, maxDepth: 20 }).root;
  } catch (err) {
    throw new ChartDataError(`ChartData is not chart XML (${(err as Error).message})`);
  }
  if (root.name !== 'Chart') throw new ChartDataError(`ChartData holds <${root.name}>, not <Chart>`);
  return readChart(root);
}

function readChart(root: XmlElement | undefined): ChartModel {
  const a = root?.attrs ?? {};
  const paletteName = a.Palette ?? 'BrightPastel';
  const series: ChartSeries[] = [];
  let points = 0;
  for (const el of children(child(root, 'Series'), 'Series')) {
    if (series.length >= CHART_LIMITS.maxSeries) throw new ChartDataError(`more than ${CHART_LIMITS.maxSeries} series`);
    const s = readSeries(el);
    points += s.points.length;
    if (points > CHART_LIMITS.maxPoints) throw new ChartDataError(`more than ${CHART_LIMITS.maxPoints} points`);
    series.push(s);
  }
  const areas = children(child(root, 'ChartAreas'), 'ChartArea').map(readArea);
  if (areas.length === 0) areas.push(readArea(undefined));
  return {
    paletteName,
    palette: paletteColors(paletteName),
    backColor: color(a.BackColor, WHITE),
    borderlineColor: color(a.BorderlineColor, BLACK),
    borderlineWidth: num(a.BorderlineWidth, 1),
    borderlineDash: a.BorderlineDashStyle ?? 'NotSet',
    borderSkin: child(root, 'BorderSkin')?.attrs.SkinStyle ?? 'None',
    series,
    areas,
    legends: children(child(root, 'Legends'), 'Legend').map(readLegend),
    titles: children(child(root, 'Titles'), 'Title').map(readTitle),
  };
}

/** A series of a new chart, or an auto-series clone's model. */
export function readSeries(el: XmlElement | undefined): ChartSeries {
  const a = el?.attrs ?? {};
  const yValuesPerPoint = Math.max(1, Math.min(32, Math.trunc(num(a.YValuesPerPoint, 1))));
  const s: ChartSeries = {
    name: a.Name ?? '',
    enabled: bool(a.Enabled, true),
    chartType: a.ChartType ?? 'Column',
    chartArea: a.ChartArea ?? '',
    legend: a.Legend ?? '',
    legendText: a.LegendText ?? '',
    isVisibleInLegend: bool(a.IsVisibleInLegend, true),
    color: optColor(a.Color),
    borderColor: optColor(a.BorderColor),
    borderWidth: num(a.BorderWidth, 1),
    borderDashStyle: a.BorderDashStyle ?? 'Solid',
    label: a.Label ?? '',
    isValueShownAsLabel: bool(a.IsValueShownAsLabel, false),
    labelFormat: a.LabelFormat ?? '',
    font: font(a.Font),
    labelForeColor: color(a.LabelForeColor, BLACK),
    markerStyle: a.MarkerStyle ?? 'None',
    markerSize: num(a.MarkerSize, 5),
    markerColor: optColor(a.MarkerColor),
    markerBorderColor: optColor(a.MarkerBorderColor),
    markerBorderWidth: num(a.MarkerBorderWidth, 1),
    custom: parseCustomProperties(a.CustomProperties),
    yValuesPerPoint,
    xValueType: a.XValueType ?? 'Auto',
    isXValueIndexed: bool(a.IsXValueIndexed, false),
    yAxisType: oneOf(a.YAxisType, ['Primary', 'Secondary'] as const, 'Primary'),
    xAxisType: oneOf(a.XAxisType, ['Primary', 'Secondary'] as const, 'Primary'),
    points: [],
  };
  for (const p of children(child(el, 'Points'), 'DataPoint')) s.points.push(readPoint(p, yValuesPerPoint));
  return s;
}

function readPoint(el: XmlElement, yCount: number): ChartPoint {
  const a = el.attrs;
  const ys = (a.YValues ?? '').split(',').map((v) => num(v, 0));
  while (ys.length < yCount) ys.push(0);
  return {
    x: num(a.XValue, 0),
    ys: ys.slice(0, yCount),
    axisLabel: a.AxisLabel ?? '',
    label: a.Label ?? '',
    color: optColor(a.Color),
    empty: bool(a.IsEmpty, false),
    custom: parseCustomProperties(a.CustomProperties),
  };
}

function readGrid(el: XmlElement | undefined, defEnabled: boolean): ChartGrid {
  const a = el?.attrs ?? {};
  const dash = a.LineDashStyle ?? 'Solid';
  return {
    enabled: bool(a.Enabled, defEnabled) && dash !== 'NotSet',
    color: color(a.LineColor, BLACK),
    width: num(a.LineWidth, 1),
    dash,
  };
}

function readAxis(el: XmlElement | undefined): ChartAxis {
  const a = el?.attrs ?? {};
  const labels = child(el, 'LabelStyle')?.attrs ?? {};
  const tick = child(el, 'MajorTickMark');
  const lineDash = a.LineDashStyle ?? 'Solid';
  return {
    enabled: oneOf(a.Enabled, ['Auto', 'True', 'False'] as const, 'Auto'),
    lineColor: color(a.LineColor, BLACK),
    lineWidth: lineDash === 'NotSet' ? 0 : num(a.LineWidth, 1),
    lineDash,
    majorGrid: readGrid(child(el, 'MajorGrid'), true),
    majorTick: { ...readGrid(tick, true), size: num(tick?.attrs.Size, 1) },
    labelsEnabled: bool(labels.Enabled, true),
    labelFont: font(labels.Font),
    labelColor: color(labels.ForeColor, BLACK),
    labelFormat: labels.Format ?? '',
    labelAngle: num(labels.Angle, 0),
    isMarginVisible: bool(a.IsMarginVisible, true),
    isStartedFromZero: bool(a.IsStartedFromZero, true),
    isReversed: bool(a.IsReversed, false),
    minimum: optNum(a.Minimum),
    maximum: optNum(a.Maximum),
    interval: optNum(a.Interval),
    title: a.Title ?? '',
    titleFont: font(a.TitleFont),
    titleColor: color(a.TitleForeColor, BLACK),
  };
}

function readArea(el: XmlElement | undefined): ChartAreaModel {
  const style = child(el, 'Area3DStyle')?.attrs ?? {};
  return {
    name: el?.attrs.Name ?? 'Default',
    axisX: readAxis(child(el, 'AxisX')),
    axisY: readAxis(child(el, 'AxisY')),
    axisX2: readAxis(child(el, 'AxisX2')),
    axisY2: readAxis(child(el, 'AxisY2')),
    backColor: color(el?.attrs.BackColor, TRANSPARENT),
    enable3D: bool(style.Enable3D, false),
    visible: bool(el?.attrs.Visible, true),
  };
}

const DOCKING = ['Top', 'Bottom', 'Left', 'Right'] as const;
const ALIGNMENT = ['Near', 'Center', 'Far'] as const;

function readLegend(el: XmlElement): ChartLegend {
  const a = el.attrs;
  return {
    name: a.Name ?? '',
    enabled: bool(a.Enabled, true),
    docking: oneOf<Docking>(a.Docking, DOCKING, 'Right'),
    alignment: oneOf<StringAlignment>(a.Alignment, ALIGNMENT, 'Near'),
    font: font(a.Font),
    foreColor: color(a.ForeColor, BLACK),
    backColor: color(a.BackColor, TRANSPARENT),
    insideChartArea: bool(a.IsDockedInsideChartArea, false),
    title: a.Title ?? '',
  };
}

function readTitle(el: XmlElement): ChartTitle {
  const a = el.attrs;
  // Alignment is a ContentAlignment (TopLeft … BottomRight); only its horizontal part matters.
  const align = a.Alignment ?? 'MiddleCenter';
  return {
    text: a.Text ?? '',
    visible: bool(a.Visible, true),
    font: font(a.Font),
    foreColor: color(a.ForeColor, BLACK),
    docking: oneOf<Docking>(a.Docking, DOCKING, 'Top'),
    alignment: align.endsWith('Left') ? 'Near' : align.endsWith('Right') ? 'Far' : 'Center',
  };
}
