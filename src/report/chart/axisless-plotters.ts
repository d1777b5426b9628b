// The plotters of the series types drawn without X/Y axes, by MS Chart's SeriesChartType name.
// The chart layout draws a series whose type is here with its plotter, in the chart area left
// after titles and legends; any other type is drawn on axes.

import { plotFunnel } from './plot-funnel.js';
import { plotDoughnut, plotPie } from './plot-pie.js';
import { plotRadar } from './plot-radar.js';
import type { AxislessPlotter } from './plot-types.js';

export const AXISLESS_PLOTTERS: Readonly<Record<string, AxislessPlotter>> = {
  Pie: plotPie,
  Doughnut: plotDoughnut,
  Funnel: plotFunnel,
  Pyramid: plotFunnel,
  Radar: plotRadar,
  Polar: plotRadar,
};
