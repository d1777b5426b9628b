// Which MS Chart series types are drawn how: without axes (their plotters, axisless-plotters.ts),
// as bars across a horizontal value axis, stacked, as 100 % stacks, as ranges, as prices.

export const AXISLESS_TYPES: ReadonlySet<string> = new Set(['Pie', 'Doughnut', 'Funnel', 'Pyramid', 'Radar', 'Polar']);
/** Types whose points (not series) take the palette's colours and appear in the legend. */
export const POINT_COLORED_TYPES: ReadonlySet<string> = new Set(['Pie', 'Doughnut', 'Funnel', 'Pyramid']);
/** The X axis runs vertically, the values horizontally. */
export const HORIZONTAL_TYPES: ReadonlySet<string> = new Set(['Bar', 'StackedBar', 'StackedBar100', 'RangeBar']);
export const COLUMN_TYPES: ReadonlySet<string> = new Set([
  'Column',
  'Bar',
  'StackedColumn',
  'StackedBar',
  'StackedColumn100',
  'StackedBar100',
  'RangeColumn',
  'RangeBar',
]);
export const STACKED_TYPES: ReadonlySet<string> = new Set([
  'StackedColumn',
  'StackedBar',
  'StackedArea',
  'StackedColumn100',
  'StackedBar100',
  'StackedArea100',
]);
export const HUNDRED_PERCENT_TYPES: ReadonlySet<string> = new Set([
  'StackedColumn100',
  'StackedBar100',
  'StackedArea100',
]);
export const RANGE_TYPES: ReadonlySet<string> = new Set([
  'Range',
  'SplineRange',
  'RangeBar',
  'RangeColumn',
  'Candlestick',
  'Stock',
  'ErrorBar',
  'BoxPlot',
]);
/** Every type drawn on axes here. */
export const CARTESIAN_TYPES: ReadonlySet<string> = new Set([
  ...COLUMN_TYPES,
  'Line',
  'FastLine',
  'Spline',
  'StepLine',
  'Area',
  'SplineArea',
  'StackedArea',
  'StackedArea100',
  'Point',
  'FastPoint',
  'Bubble',
  'Range',
  'SplineRange',
  'Candlestick',
  'Stock',
  'Kagi',
  'Renko',
]);
