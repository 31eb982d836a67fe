import { Show, type JSX } from 'solid-js';
import { hrefFor } from '../../router';
import type { DeviceView } from '../../../../domain/devices';
import { formatTime } from '../../lib/time';

export default function DeviceRow(props: { device: DeviceView }): JSX.Element {
  const d = (): DeviceView => props.device;
  return (
    <tr data-testid="device-row" data-device-id={d().device_id} data-online={d().online ? 'true' : 'false'}>
      <td>
        <div>{d().display_name ?? d().device_id}</div>
        <div class="tk-mono muted">{d().device_id}</div>
      </td>
      <td>
        <span class={`tk-badge ${d().online ? 'tk-tone-ok' : 'tk-tone-done'}`} data-testid="device-online">
          {d().online ? '在线' : '离线'}
        </span>
      </td>
      <td>{d().app_version ?? '—'}</td>
      <td>{[d().model, d().serial].filter((s) => s).join(' · ') || '—'}</td>
      <td>
        <Show when={d().current_task_id} fallback="—">
          {(id) => (
            <a href={hrefFor(`/tasks/${encodeURIComponent(id())}`)} data-testid="device-task-link">
              {id()}
            </a>
          )}
        </Show>
      </td>
      <td class="tk-time">{formatTime(d().last_seen_at)}</td>
    </tr>
  );
}
