import type { JSX } from 'solid-js';
import { createHealth, type HealthState } from '../health';

const LABELS: Record<HealthState, string> = {
  checking: '正在检查服务…',
  ok: '服务正常',
  'temporal-down': 'Temporal 未连接',
  unreachable: '管理服务无响应',
};

const HINTS: Record<HealthState, string> = {
  checking: '',
  ok: '管理服务与 Temporal 均可用',
  'temporal-down': '可以浏览数据，但采集和采购任务暂时无法启动或推进',
  unreachable: '无法访问管理服务 /healthz，页面数据可能不是最新的',
};

export default function HealthIndicator(): JSX.Element {
  const state = createHealth();
  return (
    <span
      class="health"
      data-testid="health"
      data-state={state()}
      title={HINTS[state()]}
      role="status"
      aria-live="polite"
    >
      <span class="health-dot" aria-hidden="true" />
      <span class="health-label">{LABELS[state()]}</span>
    </span>
  );
}
