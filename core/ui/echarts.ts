/**
 * The echarts the app draws with: bar and line charts on a grid, pie and gauge charts (dashboards), with
 * tooltips and a legend, on canvas — built from echarts' modules rather than the whole library (about half
 * its size; the home page loads it). A chart using another series type or component registers it here.
 */
import { init, use as register } from 'echarts/core';
import { BarChart, GaugeChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

// echarts' `use` (named like a React hook, which it is not).
register([BarChart, LineChart, PieChart, GaugeChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export { init };
export type { ECharts } from 'echarts/core';
