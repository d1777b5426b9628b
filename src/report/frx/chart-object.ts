// MSChartObject and SparklineObject → their model. The chart itself (series, areas, legends,
// titles) is MS Chart's own XML serialization, stored base64 in `ChartData`; it is kept as written
// and decoded by the chart library when the chart prints. Each `<MSChartSeries>` child binds the
// chart series of the same index to data.

import { TRANSPARENT } from './colors.js';
import { readComponent } from './component.js';
import type { ChartGroupBy, ChartObjectModel, ChartSeriesBindingModel } from './model.js';
import { Attrs, describe, type LoadContext } from './values.js';
import type { XmlElement } from './xml.js';

/** More `<MSChartSeries>` than this is a hostile template (MS Chart has no limit; demos use ≤ 4). */
export const MAX_CHART_SERIES = 256;

const GROUP_BY: readonly ChartGroupBy[] = [
  'None',
  'XValue',
  'Number',
  'Years',
  'Months',
  'Weeks',
  'Days',
  'Hours',
  'Minutes',
  'Seconds',
  'Milliseconds',
];

function parseSeriesBinding(el: XmlElement, ctx: LoadContext): ChartSeriesBindingModel {
  const a = new Attrs(el, ctx);
  // The legacy GroupByXValue="true" is GroupBy="XValue".
  const legacyGroup = a.bool('GroupByXValue', false);
  const s: ChartSeriesBindingModel = {
    name: a.str('Name'),
    filter: a.str('Filter'),
    sortBy: a.enumOf('SortBy', ['None', 'XValue', 'YValue'] as const, 'None'),
    sortOrder: a.enumOf('SortOrder', ['Ascending', 'Descending'] as const, 'Ascending'),
    groupBy: a.enumOf('GroupBy', GROUP_BY, legacyGroup ? 'XValue' : 'None'),
    groupInterval: a.float('GroupInterval', 1),
    groupFunction: a.enumOf('GroupFunction', ['Sum', 'Min', 'Max', 'Avg', 'Count'] as const, 'Sum'),
    collect: a.enumOf(
      'Collect',
      ['None', 'TopN', 'BottomN', 'LessThan', 'LessThanPercent', 'GreaterThan', 'GreaterThanPercent'] as const,
      'None',
    ),
    collectValue: a.float('CollectValue', 0),
    collectedItemText: a.str('CollectedItemText'),
    collectedItemColor: a.color('CollectedItemColor', TRANSPARENT),
    pieExplode: a.enumOf('PieExplode', ['None', 'BiggestValue', 'LowestValue', 'SpecificValue'] as const, 'None'),
    pieExplodeValue: a.str('PieExplodeValue'),
    xValue: a.str('XValue'),
    yValues: [a.str('YValue1'), a.str('YValue2'), a.str('YValue3'), a.str('YValue4')],
    color: a.str('Color'),
    label: a.str('Label'),
  };
  a.rest();
  return s;
}

export function parseChartObject(el: XmlElement, ctx: LoadContext): ChartObjectModel {
  const a = new Attrs(el, ctx);
  const o: ChartObjectModel = {
    type: el.name === 'SparklineObject' ? 'SparklineObject' : 'MSChartObject',
    ...readComponent(a),
    dataSource: a.str('DataSource'),
    filter: a.str('Filter'),
    alignXValues: a.bool('AlignXValues', false),
    autoSeriesColumn: a.str('AutoSeriesColumn'),
    autoSeriesColor: a.str('AutoSeriesColor'),
    autoSeriesSortOrder: a.enumOf('AutoSeriesSortOrder', ['None', 'Ascending', 'Descending'] as const, 'None'),
    autoSeriesForce: a.bool('AutoSeriesForce', false),
    chartData: a.str('ChartData'),
    series: [],
  };
  for (const child of el.children) {
    if (child.name !== 'MSChartSeries') ctx.warn(`${describe(child)} inside ${describe(el)} is ignored`);
    else if (o.series.length >= MAX_CHART_SERIES)
      ctx.warn(`${o.name}: more than ${MAX_CHART_SERIES} series; the rest are ignored`);
    else o.series.push(parseSeriesBinding(child, ctx));
  }
  o.raw = a.rest();
  return o;
}
