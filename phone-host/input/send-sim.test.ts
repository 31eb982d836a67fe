import type { Readable } from 'node:stream';
import { AdbDevice } from '../../device-worker/adb/adb-device';
import type { PhoneSim } from '../../sim/phone';
import { useTestSim } from '../../sim/phone/testkit';
import { sendInput } from './send';
import { UNICODE_IME } from './unicode-ime';

/**
 * Text on the simulator, whose shell quotes as a phone's does and whose keyboard is Android's
 * own until the Unicode IME is installed and chosen: what the phone types is what the person typed.
 */
const SERIAL = 'sim-phone-1';
const SCREEN = { width: 1080, height: 2376 };

let sim: PhoneSim;
useTestSim((rig) => ({ sim } = rig));

class CountingAdb extends AdbDevice {
  pushes: string[] = [];
  override async push(contents: Readable, remotePath: string, timeoutMs: number): Promise<void> {
    this.pushes.push(remotePath);
    await super.push(contents, remotePath, timeoutMs);
  }
}

const adbOf = (): CountingAdb => new CountingAdb({ host: '127.0.0.1', port: sim.adbPort, serial: SERIAL });
const keyboard = async (adb: AdbDevice): Promise<string> =>
  (await adb.shell('settings get secure default_input_method')).trim();

test('ASCII text goes through `input text` on the phone keyboard, quotes and spaces intact', async () => {
  const adb = adbOf();
  const before = await keyboard(adb);
  await sendInput(adb, { kind: 'text', text: `it's "50%s" $x & y` }, SCREEN);
  expect(
    sim
      .phone(SERIAL)
      .typed.map((t) => t.text)
      .join(''),
  ).toBe(`it's "50%s" $x & y`);
  expect(adb.pushes).toEqual([]);
  expect(await keyboard(adb)).toBe(before);
});

test('Chinese text installs the settings app once, types through its IME and puts the keyboard back', async () => {
  const adb = adbOf();
  const before = await keyboard(adb);
  await sendInput(adb, { kind: 'text', text: '中文 a&b 😀' }, SCREEN);
  await sendInput(adb, { kind: 'text', text: '好的' }, SCREEN);
  const typed = sim.phone(SERIAL).typed;
  expect(typed.map((t) => t.text)).toEqual(['中文 a&b 😀', '好的']);
  expect(typed.every((t) => t.ime === UNICODE_IME)).toBe(true);
  expect(adb.pushes).toEqual(['/data/local/tmp/settings_apk-debug.apk']);
  expect(await keyboard(adb)).toBe(before);
});
