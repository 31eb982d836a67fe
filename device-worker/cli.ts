import { PDD_PACKAGE } from '../domain/pdd-app';
import { CounterClock } from './counters';
import { AdbDevice } from './adb/adb-device';
import { parseFlags, portOf } from './args';
import { DeviceError, isDeviceError } from './errors';
import { collectGoods } from './pdd/collect';
import { profileForVersion } from './pdd/profile';
import { PddSession } from './pdd/session';
import { StepLog } from './step-log';

const USAGE = 'usage: npm run device -- collect --serial <serial> --goods <goods_id> [--adb-host 127.0.0.1] [--adb-port 5037]';

/**
 * `npm run device -- collect …`: one collect on one phone, outside Temporal and without a
 * claim, for an engineer checking a phone or a new app version. stdout carries only JSON: the
 * skus_json, or {"error": {code, message}} with a non-zero exit.
 */
async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseFlags>;
  try {
    parsed = parseFlags(argv, ['serial', 'goods', 'adb-host', 'adb-port']);
  } catch (err) {
    return fail(new DeviceError('INVALID_INPUT', `${(err as Error).message}; ${USAGE}`));
  }
  const { positional, flags } = parsed;
  if (positional[0] !== 'collect' || positional.length !== 1) return fail(new DeviceError('INVALID_INPUT', USAGE));
  const goodsId = flags['goods'] ?? '';
  if (!/^\d+$/.test(goodsId)) return fail(new DeviceError('INVALID_INPUT', `--goods must be a PDD goods id (digits); ${USAGE}`));
  try {
    const clock = new CounterClock();
    const adb = new AdbDevice(
      { host: flags['adb-host'] ?? '127.0.0.1', port: portOf(flags['adb-port'], 5037, '--adb-port'), serial: flags['serial'] ?? '' },
      {},
      () => clock.roundTrip(),
    );
    await adb.ensureOnline();
    const profile = profileForVersion(await adb.versionName(PDD_PACKAGE));
    const steps = new StepLog();
    const result = await collectGoods(new PddSession(adb, profile, clock, steps), goodsId);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.stderr.write(`${JSON.stringify({ counters: clock.snapshot() })}\n`);
    return 0;
  } catch (err) {
    return fail(err);
  }
}

function fail(err: unknown): number {
  const e = isDeviceError(err) ? err : new DeviceError('ADB_FAILED', (err as Error)?.message ?? String(err));
  process.stdout.write(`${JSON.stringify({ error: { code: e.code, message: e.message } })}\n`);
  return e.code === 'INVALID_INPUT' ? 2 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(fail(err)),
);
