import type { EChartsType } from 'echarts/core';
import { createEffect, createSignal, onCleanup, onMount, Show, type JSX } from 'solid-js';
import type { ChartOption } from './overview-charts';

// Replaced whole on every update (an empty chart's title must go when data comes); the legend is
// merged, so what the operator switched off there stays off across polls.
const REPLACED = ['series', 'title', 'xAxis', 'yAxis', 'grid'];

/**
 * One ECharts chart in a card. ECharts is loaded with the first chart (its own chunk), so the
 * other pages do not download it; the poller's new option redraws it in place.
 */
export default function OverviewChart(props: {
  testid: string;
  title: string;
  option: ChartOption | null;
  height?: number;
  /** `ov-wide` spans the row */
  class?: string;
}): JSX.Element {
  let el: HTMLDivElement | undefined;
  let chart: EChartsType | undefined;
  let disposed = false;
  const [ready, setReady] = createSignal(false);
  const [failed, setFailed] = createSignal(false);

  onMount(() => {
    import('./echarts-setup')
      .then(({ initChart }) => {
        if (disposed || !el) return;
        chart = initChart(el);
        setReady(true);
      })
      .catch(() => setFailed(true));
    const resize = new ResizeObserver(() => chart?.resize());
    if (el) resize.observe(el);
    onCleanup(() => resize.disconnect());
  });

  createEffect(() => {
    const option = props.option;
    if (!ready() || !chart || !option) return;
    // the page's font, so Chinese is drawn as the rest of the page draws it
    const fontFamily = el ? getComputedStyle(el).fontFamily : undefined;
    chart.setOption({ animation: false, textStyle: { fontFamily }, ...option }, { replaceMerge: REPLACED });
  });

  onCleanup(() => {
    disposed = true;
    chart?.dispose();
  });

  return (
    <div class={`card ov-chart-card ${props.class ?? ''}`}>
      <h2 class="ov-chart-title">{props.title}</h2>
      <Show when={failed()}>
        <p class="form-error" role="alert">
          图表加载失败，请刷新页面；下方表格的数字不受影响。
        </p>
      </Show>
      <div
        ref={(node) => (el = node)}
        class="ov-chart"
        role="img"
        aria-label={props.title}
        data-testid={props.testid}
        style={{ height: `${props.height ?? 280}px` }}
      />
    </div>
  );
}
