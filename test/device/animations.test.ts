import fs from 'node:fs';
import path from 'node:path';
import { startPhoneSim, type PhoneSim } from '../../sim/phone/index';
import { AdbDevice } from '../../device-worker/adb/adb-device';
import { PhoneAnimations, SAVED_SCALES_FILE, type AnimationScales } from '../../device-worker/runtime/animations';
import { tempDataDir, testLogger } from '../harness';

/** The phone's animation scales around automation (device-worker/runtime/animations.ts), over adbkit on the simulator. */
describe('phone animations', () => {
  let sim: PhoneSim;
  let adb: AdbDevice;
  let dir: string;
  const file = () => path.join(dir, SAVED_SCALES_FILE);
  const animations = () =>
    new PhoneAnimations({ shell: (c) => adb.shell(c), file: file(), log: testLogger('animations') });
  const scales = async (): Promise<string> =>
    adb.shell(
      'settings get global window_animation_scale; settings get global transition_animation_scale; ' +
        'settings get global animator_duration_scale',
    );
  const saved = (): AnimationScales =>
    (JSON.parse(fs.readFileSync(file(), 'utf8')) as { scales: AnimationScales }).scales;
  const own = { window_animation_scale: '0.5', transition_animation_scale: '0.5', animator_duration_scale: '1.0' };

  beforeAll(async () => {
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, latency: 'zero', phones: ['sim-anim'] });
    adb = new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial: 'sim-anim' });
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(async () => {
    dir = tempDataDir('animations');
    sim.phone('sim-anim').reset();
    await adb.shell(
      'settings put global window_animation_scale 0.5 && settings put global transition_animation_scale 0.5',
    );
  });

  it('sets the three scales to 0 while automation holds the phone and puts its own back at the stop', async () => {
    const a = animations();
    await a.turnOff();
    expect(await scales()).toBe('0\n0\n0\n');
    expect(saved()).toEqual(own);
    await a.stop();
    expect(await scales()).toBe('0.5\n0.5\n1.0\n');
    expect(fs.existsSync(file())).toBe(false);
    // stopped: a status check that finishes late turns nothing off again
    await a.follow({ adbConnected: true, holder: 'automation' });
    expect(await scales()).toBe('0.5\n0.5\n1.0\n');
  });

  it('after a worker killed with the scales at 0, the next one keeps the saved values and never saves the zeros', async () => {
    await animations().turnOff(); // killed here: never stopped
    expect(await scales()).toBe('0\n0\n0\n');
    const next = animations();
    await next.turnOff();
    expect(saved()).toEqual(own);
    expect(await scales()).toBe('0\n0\n0\n');
    await next.stop();
    expect(await scales()).toBe('0.5\n0.5\n1.0\n');
  });

  it('puts them back when the phone is released (paused, 需处理, revoked) and off again when automation takes it back', async () => {
    const a = animations();
    await a.follow({ adbConnected: true, holder: 'automation' });
    expect(await scales()).toBe('0\n0\n0\n');
    await a.follow({ adbConnected: true, holder: undefined });
    expect(await scales()).toBe('0\n0\n0\n');
    await a.follow({ adbConnected: true, holder: 'released' });
    expect(await scales()).toBe('0.5\n0.5\n1.0\n');
    expect(fs.existsSync(file())).toBe(false);
    // the person changed one meanwhile: that is the phone's own value now
    await adb.shell('settings put global animator_duration_scale 2.0');
    await a.follow({ adbConnected: true, holder: 'automation' });
    expect(await scales()).toBe('0\n0\n0\n');
    await a.stop();
    expect(await scales()).toBe('0.5\n0.5\n2.0\n');
  });

  it('a scale never set is deleted again, not put to 1', async () => {
    await adb.shell('settings delete global transition_animation_scale');
    const a = animations();
    await a.turnOff();
    expect(saved().transition_animation_scale).toBe('null');
    await a.stop();
    expect(await scales()).toBe('0.5\nnull\n1.0\n');
  });

  it('a saved file it cannot read is kept and nothing on the phone changes', async () => {
    fs.writeFileSync(file(), '{"scales": {"window_animation_scale": "0"}}\n');
    await expect(animations().turnOff()).rejects.toThrow(/does not hold three animation scales/);
    expect(await scales()).toBe('0.5\n0.5\n1.0\n');
    expect(fs.readFileSync(file(), 'utf8')).toContain('"0"');
  });
});
