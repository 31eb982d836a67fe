import { For, Show, type JSX } from 'solid-js';
import DeviceRow from './DeviceRow';
import type { DeviceView } from '../../../../domain/devices';

export default function DeviceTable(props: { devices: readonly DeviceView[] }): JSX.Element {
  return (
    <div class="tk-table-wrap">
      <table class="tk-table" data-testid="device-table">
        <thead>
          <tr>
            <th>设备</th>
            <th>状态</th>
            <th>App 版本</th>
            <th>型号 / 序列号</th>
            <th>当前任务</th>
            <th>最近联系</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.devices}>{(d) => <DeviceRow device={d} />}</For>
        </tbody>
      </table>
      <Show when={props.devices.length === 0}>
        <p class="muted tk-empty" data-testid="device-empty">
          还没有登记的设备。用 <code>npm run cli -- device issue &lt;名称&gt;</code> 发放凭据后启动设备进程。
        </p>
      </Show>
    </div>
  );
}
