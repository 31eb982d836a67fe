import { PDD_PACKAGE } from '../domain/pdd-app';
import { z } from 'zod';
import { parseConfig, parseFlags } from '../platform/config';
import { describeError } from '../platform/errors';
import { CounterClock } from './counters';
import { AdbDevice } from './adb/adb-device';
import { ADB_DEFAULT, adbPort } from './args';
import { DeviceError, isDeviceError } from './errors';
import { collectGoods } from './pdd/collect';
import { profileForVersion } from './pdd/profile';
import { PddSession } from './pdd/session';
import { StepLog } from './step-log';

const USAGE =
  'usage: npm run device -- collect --serial <serial> --goods <goods_id> [--adb-host 127.0.0.1] [--adb-port 5037]';

const optionsSchema = z.object({
  // without a serial AdbDevice refuses the phone with its own code (ADB_SERIAL_INVALID)
  '--serial': z.string().default(''),
  '--goods': z.string({ error: 'required' }).regex(/^\d+$/, 'must be a PDD goods id (digits)'),
  '--adb-host': z.string().default(ADB_DEFAULT.host),
  '--adb-port': adbPort.default(ADB_DEFAULT.port),
});

/**
 * `npm run device -- collect …`: one collect on one phone, outside Temporal and without a
 * claim, for an engineer checking a phone or a new app version. stdout carries only JSON: the
 * skus_json, or {"error": {code, message}} with a non-zero exit.
 */
async function main(argv: string[]): Promise<number> {
  let options: z.infer<typeof optionsSchema>;
  try {
    const { positional, flags } = parseFlags(argv, ['serial', 'goods', 'adb-host', 'adb-port']);
    if (positional[0] !== 'collect' || positional.length !== 1) return fail(new DeviceError('INVALID_INPUT', USAGE));
    options = parseConfig(optionsSchema, flags, { what: 'options', hint: USAGE });
  } catch (err) {
    const message = describeError(err);
    return fail(new DeviceError('INVALID_INPUT', message.includes(USAGE) ? message : `${message}; ${USAGE}`));
  }
  const goodsId = options['--goods'];
  try {
    const clock = new CounterClock();
    const adb = new AdbDevice(
      { host: options['--adb-host'], port: options['--adb-port'], serial: options['--serial'] },
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
  const e = isDeviceError(err) ? err : new DeviceError('ADB_FAILED', describeError(err));
  process.stdout.write(`${JSON.stringify({ error: { code: e.code, message: e.message } })}\n`);
  return e.code === 'INVALID_INPUT' ? 2 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(fail(err)),
);
