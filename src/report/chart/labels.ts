// Data label texts: MS Chart's keywords in a series' or point's Label (#VALX, #VALY, #VALY2…,
// #PERCENT, #SERIESNAME, #LEGENDTEXT, #AXISLABEL, #INDEX, #TOTAL, #AVG, #MIN, #MAX, #FIRST,
// #LAST), each with an optional .NET format in braces (`#VALY{C}`).

import { fromOADate } from './finish-data.js';
import type { ChartPoint, ChartSeries } from './model.js';

/** How the caller formats a value (.NET ToString(format) in the report's culture). */
export type ValueFormatter = (value: number | Date, format: string) => string;

const KEYWORD_NAMES =
  'VALX|VALY[1-9]?|PERCENT|SERIESNAME|SER|LEGENDTEXT|AXISLABEL|INDEX|TOTAL|AVG|MIN|MAX|FIRST|LAST|LABEL';
const KEYWORDS = new RegExp(`#(${KEYWORD_NAMES})(?:\\{([^}]*)\\})?`, 'g');

export const isDateType = (t: string): boolean => t === 'Date' || t === 'DateTime' || t === 'Time';

/** The text of a point's X value: its axis label, else the number (a date for date types). */
export function xText(series: ChartSeries, p: ChartPoint, format: string, fmt: ValueFormatter): string {
  if (p.axisLabel !== '' && format === '') return p.axisLabel;
  if (isDateType(series.xValueType)) return fmt(fromOADate(p.x), format || 'd');
  if (p.axisLabel !== '') return p.axisLabel;
  return fmt(p.x, format);
}

/** The label a point shows ('' for none): its own Label, else the series', else "#VALY" when
 *  IsValueShownAsLabel. */
export function pointLabel(series: ChartSeries, index: number, fmt: ValueFormatter): string {
  const p = series.points[index];
  if (!p || p.empty) return '';
  const template = p.label || series.label || (series.isValueShownAsLabel ? '#VALY' : '');
  return template === '' ? '' : expandKeywords(template, series, index, fmt);
}

export function expandKeywords(template: string, series: ChartSeries, index: number, fmt: ValueFormatter): string {
  const p = series.points[index];
  if (!p) return template;
  const ys = series.points.filter((q) => !q.empty).map((q) => q.ys[0] ?? 0);
  const total = ys.reduce((a, b) => a + b, 0);
  const yFormat = (f: string | undefined): string => f ?? series.labelFormat;
  return template.replace(KEYWORDS, (_m, key: string, format: string | undefined) => {
    switch (key) {
      case 'VALX':
        return xText(series, p, format ?? '', fmt);
      case 'PERCENT':
        return fmt(total === 0 ? 0 : (p.ys[0] ?? 0) / total, format ?? 'P');
      case 'SERIESNAME':
      case 'SER':
        return series.name;
      case 'LEGENDTEXT':
        return series.legendText || series.name;
      case 'AXISLABEL':
        return p.axisLabel;
      case 'INDEX':
        return String(index);
      case 'LABEL':
        return p.label;
      case 'TOTAL':
        return fmt(total, yFormat(format));
      case 'AVG':
        return fmt(ys.length === 0 ? 0 : total / ys.length, yFormat(format));
      case 'MIN':
        return fmt(
          ys.reduce((a, b) => Math.min(a, b), ys[0] ?? 0),
          yFormat(format),
        );
      case 'MAX':
        return fmt(
          ys.reduce((a, b) => Math.max(a, b), ys[0] ?? 0),
          yFormat(format),
        );
      case 'FIRST':
        return fmt(ys[0] ?? 0, yFormat(format));
      case 'LAST':
        return fmt(ys[ys.length - 1] ?? 0, yFormat(format));
      default: {
        // VALY, VALY1…VALY9
        const k = key.length > 4 ? Number(key.slice(4)) - 1 : 0;
        return fmt(p.ys[k] ?? 0, yFormat(format));
      }
    }
  });
}
