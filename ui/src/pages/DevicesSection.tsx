import { Show, type JSX } from 'solid-js';
import { matchRoute, ROUTES } from '../route-table';
import DeviceScreenPage from './DeviceScreenPage';
import DevicesPage from './DevicesPage';

/** `/devices` is the list of phones, `/devices/<id>/screen` one phone's live screen. */
export default function DevicesSection(): JSX.Element {
  return (
    <Show when={matchRoute(ROUTES.deviceScreen)?.deviceId} keyed fallback={<DevicesPage />}>
      {(id) => <DeviceScreenPage deviceId={id} />}
    </Show>
  );
}
