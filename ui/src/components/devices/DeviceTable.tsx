import { For, Show, type JSX } from 'solid-js';
import type { DeviceView } from '../../../../domain/devices';
import type { DeviceAction } from './DeviceActionDialog';
import DeviceRow from './DeviceRow';
import './devices.css';

export default function DeviceTable(props: {
  devices: readonly DeviceView[];
  now: number;
  onRename: (device: DeviceView) => void;
  onRevoke: (device: DeviceView) => void;
  /** 批准 / 拒绝 / 暂停 / 恢复, asked about before they run */
  onAction: (device: DeviceView, action: DeviceAction) => void;
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
                onAction={(action) => props.onAction(d, action)}
              />
            )}
          </For>
        </tbody>
      </table>
      <Show when={props.devices.length === 0}>
        <p class="muted tk-empty" data-testid="device-empty">
          还没有设备。点击「添加手机主机」，按提示在连接手机的电脑上启动手机主机，插上的手机会以「待批准」出现在这里。
        </p>
      </Show>
    </div>
  );
}
