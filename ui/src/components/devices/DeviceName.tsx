import { createResource, type JSX } from 'solid-js';
import { listDevices } from '../../api/endpoints';

// One request per page load however many rows name a device; a rename shows on the next load.
let names: Promise<Map<string, string>> | undefined;

function loadNames(): Promise<Map<string, string>> {
  names ??= listDevices()
    .then((list) => new Map(list.map((d) => [d.device_id, d.display_name])))
    .catch(() => {
      names = undefined; // try again next time instead of remembering the failure
      return new Map<string, string>();
    });
  return names;
}

/** Forget the cached names (after a rename, issue or revoke on the 设备 page). */
export function forgetDeviceNames(): void {
  names = undefined;
}

/**
 * A device as operators call it. Where the server did not send the name, it is looked up among
 * the active devices; a device that is gone shows its id.
 */
export default function DeviceName(props: { deviceId: string | null; name?: string | null }): JSX.Element {
  const [lookup] = createResource(
    () => (props.name ? null : props.deviceId),
    async (deviceId) => (await loadNames()).get(deviceId) ?? null,
  );
  const text = (): string => props.name ?? lookup() ?? props.deviceId ?? '—';
  return (
    <span data-testid="device-name" data-device-id={props.deviceId ?? undefined}>
      {text()}
    </span>
  );
}
