import { For, Show, type JSX } from 'solid-js';
import type { DeviceView } from '../../../../domain/devices';
import DeviceRow from './DeviceRow';
import './devices.css';

export default function DeviceTable(props: {
  devices: readonly DeviceView[];
  now: number;
  onRename: (device: DeviceView) => void;
  onRevoke: (device: DeviceView) => void;
  onPause: (device: DeviceView) => void;
  onResume: (device: DeviceView) => void;
  onChanged?: () => void;
}): JSX.Element {
  return (
    <div class="tk-table-wrap">
      <table class="tk-table" data-testid="device-table">
        <thead>
          <tr>
            <th>设备</th>
            <th>状态</th>
            <th>拼多多版本</th>
            <th>型号 / 序列号</th>
            <th>当前任务</th>
            <th>最近错误</th>
            <th>最近联系</th>
            <th>操作</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.devices}>
            {(d) => (
              <DeviceRow
                device={d}
                now={props.now}
                onRename={() => props.onRename(d)}
                onRevoke={() => props.onRevoke(d)}
                onPause={() => props.onPause(d)}
                onResume={() => props.onResume(d)}
                onChanged={() => props.onChanged?.()}
              />
            )}
          </For>
        </tbody>
      </table>
      <Show when={props.devices.length === 0}>
        <p class="muted tk-empty" data-testid="device-empty">
          还没有设备。点击「发放设备凭据」，再按提示在连接手机的主机上启动设备进程。
        </p>
      </Show>
    </div>
  );
}
