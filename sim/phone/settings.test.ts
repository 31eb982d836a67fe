import type { Client } from '@devicefarmer/adbkit';
import { api, sh, useTestSim, type DeviceClient } from './testkit';

let client: Client;
let dev: DeviceClient;
let control: string;

useTestSim((rig) => ({ client, dev, control } = rig));

const SCALES = ['window_animation_scale', 'transition_animation_scale', 'animator_duration_scale'];

/** `settings` over adbkit, as a device worker turns a phone's animations off and back on. */
describe('settings global', () => {
  test('the three animation scales read 1.0 on a phone nobody changed', async () => {
    for (const name of SCALES) expect(await sh(dev, `settings get global ${name}`)).toBe('1.0\n');
    expect(await sh(dev, 'settings get global no_such_setting')).toBe('null\n');
  });

  test('put prints nothing and get prints the value as it was put', async () => {
    expect(await sh(dev, 'settings put global window_animation_scale 0')).toBe('');
    expect(await sh(dev, 'settings put global animator_duration_scale 0.5')).toBe('');
    expect(await sh(dev, 'settings get global window_animation_scale')).toBe('0\n');
    expect(await sh(dev, 'settings get global animator_duration_scale')).toBe('0.5\n');
    expect(await sh(dev, 'settings get global transition_animation_scale')).toBe('1.0\n');
    // several in one shell line, as one round trip does it
    await sh(dev, 'settings put global window_animation_scale 1.5 && settings put global transition_animation_scale 0');
    expect(
      await sh(dev, 'settings get global window_animation_scale; settings get global transition_animation_scale'),
    ).toBe('1.5\n0\n');
  });

  test('values are per phone, kept across connections, and a reset puts the defaults back', async () => {
    await sh(dev, 'settings put global window_animation_scale 0');
    expect(await sh(client.getDevice('sim-phone-1'), 'settings get global window_animation_scale')).toBe('0\n');
    expect(await sh(client.getDevice('sim-phone-2'), 'settings get global window_animation_scale')).toBe('1.0\n');
    await api(control, 'POST', '/devices/sim-phone-1/reset');
    expect(await sh(dev, 'settings get global window_animation_scale')).toBe('1.0\n');
  });

  test('delete, other namespaces and bad arguments answer as Android does', async () => {
    await sh(dev, 'settings put global window_animation_scale 0');
    expect(await sh(dev, 'settings delete global window_animation_scale')).toBe('Deleted 1 rows\n');
    expect(await sh(dev, 'settings get global window_animation_scale')).toBe('null\n');
    expect(await sh(dev, 'settings get system window_animation_scale')).toBe('null\n');
    expect(await sh(dev, 'settings get nope x 2>&1')).toMatch(/^Invalid namespace 'nope'/);
    expect(await sh(dev, 'settings put global window_animation_scale 2>&1')).toMatch(/^Bad arguments\nusage:/);
    expect(await sh(dev, 'settings get global window_animation_scale')).toBe('null\n');
  });
});
