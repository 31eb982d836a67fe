import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { init, use, type EChartsType } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

// Only what 概览 draws, so the chunk stays small; loaded on the first chart, not with every page.
// SVG rather than canvas: the labels are text in the DOM, drawn in the page's own (CJK) font,
// and a browser test can read the figures it shows.
use([BarChart, LineChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, SVGRenderer]);

export function initChart(el: HTMLElement): EChartsType {
  return init(el, undefined, { renderer: 'svg', locale: 'ZH' });
}
