import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  TitleComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { OverviewDay, OverviewPhone } from '../../api/money';
import { formatYuan } from '../../lib/money';
import { shortDay, stopLabelsOfRange, stopsByLabel } from './overview-data';

/** What 概览's charts are made of (echarts-setup.ts registers exactly these). */
export type ChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TitleComponentOption
  | TooltipComponentOption
>;

const DANGER = '#d92d20';
const OK = '#1a9f4b';
/** Up to a month the bars carry their numbers; beyond that they would overlap, the tooltip tells. */
const LABELS_UP_TO_DAYS = 31;

/** A number on a bar, none on an empty one. */
const countLabel = (p: { value?: unknown }): string =>
  typeof p.value === 'number' && p.value > 0 ? String(p.value) : '';
/** Cents on an axis or in a tooltip; the chart only ever holds whole cents. */
const yuan = (v: unknown): string => (typeof v === 'number' ? formatYuan(Math.round(v)) : '—');
/** An axis tick: whole yuan without the cents ('¥50'), which the ticks always are or nearly. */
const axisYuan = (v: unknown): string => yuan(v).replace(/\.00$/, '');

/** A chart with nothing to draw says so in its middle, instead of empty axes. */
function emptyOption(text: string): ChartOption {
  return {
    title: { text, left: 'center', top: 'middle', textStyle: { color: '#646a73', fontSize: 14, fontWeight: 'normal' } },
    series: [],
  };
}

function countBar(name: string, data: number[], labels: boolean): BarSeriesOption {
  return {
    type: 'bar',
    name,
    data,
    barMaxWidth: 18,
    label: { show: labels, position: 'top', formatter: countLabel },
  };
}

/** 采购与毛利: live purchases, 待付款 and 已付款 per day as bars, the day's margin as a line (red below zero). */
export function purchasesOption(days: readonly OverviewDay[]): ChartOption {
  const labels = days.length <= LABELS_UP_TO_DAYS;
  const margin: LineSeriesOption = {
    type: 'line',
    name: '当日毛利',
    yAxisIndex: 1,
    connectNulls: false,
    lineStyle: { color: OK },
    itemStyle: { color: OK },
    data: days.map((d) =>
      d.margin_cny_cent === null
        ? null
        : { value: d.margin_cny_cent, itemStyle: { color: d.margin_cny_cent < 0 ? DANGER : OK } },
    ),
    tooltip: { valueFormatter: yuan },
  };
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 48, right: 72, top: 40, bottom: 28 },
    xAxis: { type: 'category', data: days.map((d) => shortDay(d.date)) },
    yAxis: [
      { type: 'value', name: '笔数', minInterval: 1 },
      { type: 'value', name: '毛利', axisLabel: { formatter: axisYuan }, splitLine: { show: false } },
    ],
    series: [
      countBar(
        '真实下单',
        days.map((d) => d.live_purchases),
        labels,
      ),
      countBar(
        '到达待付款',
        days.map((d) => d.waiting_payment_count),
        labels,
      ),
      countBar(
        '已付款',
        days.map((d) => d.paid_count),
        labels,
      ),
      margin,
    ],
  };
}

/** 停止原因: stops per day stacked by reason, in the operator's words. */
export function stopsOption(days: readonly OverviewDay[]): ChartOption {
  const reasons = stopLabelsOfRange(days);
  if (reasons.length === 0) return emptyOption('这段时间没有停止');
  const labels = days.length <= LABELS_UP_TO_DAYS;
  const perDay = days.map((d) => new Map(stopsByLabel(d.stops)));
  return {
    tooltip: { trigger: 'axis' },
    legend: { type: 'scroll', top: 0, textStyle: { width: 220, overflow: 'truncate' }, tooltip: { show: true } },
    grid: { left: 48, right: 24, top: 40, bottom: 28 },
    xAxis: { type: 'category', data: days.map((d) => shortDay(d.date)) },
    yAxis: { type: 'value', name: '次数', minInterval: 1 },
    series: reasons.map((reason): BarSeriesOption => ({
      type: 'bar',
      name: reason,
      stack: 'stops',
      barMaxWidth: 18,
      data: perDay.map((m) => m.get(reason) ?? 0),
      label: { show: labels, formatter: countLabel },
    })),
  };
}

/** 待付款 per phone: what is still to be paid on each phone, largest first, with how many orders. */
export function phonesOption(phones: readonly OverviewPhone[]): ChartOption {
  const waiting = phones
    .filter((p) => p.waiting_payment_count > 0)
    .sort((a, b) => (b.waiting_payment_cny_cent ?? 0) - (a.waiting_payment_cny_cent ?? 0));
  if (waiting.length === 0) return emptyOption('没有待付款的订单');
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: yuan },
    grid: { left: 120, right: 120, top: 8, bottom: 24 },
    xAxis: { type: 'value', axisLabel: { formatter: axisYuan } },
    yAxis: { type: 'category', inverse: true, data: waiting.map(phoneName) },
    series: [
      {
        type: 'bar',
        name: '待付款金额',
        barMaxWidth: 22,
        data: waiting.map((p) => p.waiting_payment_cny_cent),
        label: {
          show: true,
          position: 'right',
          formatter: (p: { dataIndex: number; value?: unknown }) =>
            `${yuan(p.value)}（${waiting[p.dataIndex]?.waiting_payment_count ?? 0}笔）`,
        },
      },
    ],
  };
}

/** A phone is shown by its name; one never named by its id, as 设备 does. */
export const phoneName = (p: OverviewPhone): string => p.display_name ?? p.device_id;

/** Phones chart height: a bar each, readable, never a sliver. */
export const phonesChartHeight = (phones: readonly OverviewPhone[]): number =>
  Math.max(160, 40 + 36 * phones.filter((p) => p.waiting_payment_count > 0).length);
