import { PDD_PACKAGE } from '../domain/pdd-app';
import { z } from 'zod';
import { parseConfig, parseFlags } from '../platform/config';
import { describeError } from '../platform/errors';
import { CounterClock } from './counters';
import { AdbDevice } from './adb/adb-device';
import { ADB_DEFAULT, adbPort } from './args';
import { DeviceError, isDeviceError } from './errors';
import { collectGoods } from './pdd/collect';
import { captureFixture, checkFixtures, FIXTURES_DIR } from './pdd/fixtures';
import { loadProfiles, ProfileError, profileForVersion } from './pdd/profile';
import { PddSession } from './pdd/session';
import { StepLog } from './step-log';

const USAGE = [
  'usage: npm run device -- collect --serial <serial> --goods <goods_id> [--adb-host 127.0.0.1] [--adb-port 5037]',
  '       npm run device -- capture --serial <serial> --name <name> [--expect <screen>] [--dir <fixtures dir>] [--adb-host …] [--adb-port …]',
  '       npm run device -- check-profile --version <app version> [--fixtures <dir>] [--profiles <dir>]',
].join('\n');

const adbOptions = {
  // without a serial AdbDevice refuses the phone with its own code (ADB_SERIAL_INVALID)
  '--serial': z.string().default(''),
  '--adb-host': z.string().default(ADB_DEFAULT.host),
  '--adb-port': adbPort.default(ADB_DEFAULT.port),
};

const collectSchema = z.object({
  ...adbOptions,
  '--goods': z.string({ error: 'required' }).regex(/^\d+$/, 'must be a PDD goods id (digits)'),
});

const captureSchema = z.object({
  ...adbOptions,
  '--name': z.string({ error: 'required' }).regex(/^[a-z0-9][a-z0-9._-]{0,79}$/, 'lower-case letters, digits, . _ -'),
  '--expect': z.string().optional(),
  '--dir': z.string().default(FIXTURES_DIR),
});

const checkSchema = z.object({
  '--version': z.string({ error: 'required' }).min(1),
  '--fixtures': z.string().default(FIXTURES_DIR),
  '--profiles': z.string().optional(),
});

const FLAGS: Record<string, readonly string[]> = {
  collect: ['serial', 'goods', 'adb-host', 'adb-port'],
  capture: ['serial', 'name', 'expect', 'dir', 'adb-host', 'adb-port'],
  'check-profile': ['version', 'fixtures', 'profiles'],
};

function options<T extends z.ZodType>(schema: T, argv: string[], command: string): z.infer<T> {
  const { positional, flags } = parseFlags(argv, FLAGS[command] ?? []);
  if (positional.length !== 1) throw new DeviceError('INVALID_INPUT', USAGE);
  return parseConfig(schema, flags, { what: 'options', hint: USAGE });
}

function phone(o: { '--serial': string; '--adb-host': string; '--adb-port': number }, clock: CounterClock): AdbDevice {
  return new AdbDevice({ host: o['--adb-host'], port: o['--adb-port'], serial: o['--serial'] }, {}, () =>
    clock.roundTrip(),
  );
}

/**
 * `npm run device -- …`, outside Temporal and without a claim, for an engineer checking a phone
 * or a new app version: `collect` one goods; `capture` the screen shown now into the fixtures;
 * `check-profile` — which screen a version's profile reads each fixture as, and which it cannot
 * read. stdout carries only JSON: the result, or {"error": {code, message}} with a non-zero exit.
 */
async function main(argv: string[]): Promise<number> {
  let run: () => Promise<number>;
  try {
    const command = parseFlags(argv, [...new Set(Object.values(FLAGS).flat())]).positional[0] ?? '';
    if (command === 'collect') {
      const o = options(collectSchema, argv, command);
      run = async () => {
        const clock = new CounterClock();
        const adb = phone(o, clock);
        await adb.ensureOnline();
        const profile = profileForVersion(await adb.versionName(PDD_PACKAGE));
        const result = await collectGoods(new PddSession(adb, profile, clock, new StepLog()), o['--goods']);
        process.stdout.write(`${JSON.stringify(result)}\n`);
        process.stderr.write(`${JSON.stringify({ counters: clock.snapshot() })}\n`);
        return 0;
      };
    } else if (command === 'capture') {
      const o = options(captureSchema, argv, command);
      run = async () => {
        const adb = phone(o, new CounterClock());
        await adb.ensureOnline();
        const meta = await captureFixture(adb, {
          dir: o['--dir'],
          name: o['--name'],
          ...(o['--expect'] ? { expect: o['--expect'] } : {}),
        });
        process.stdout.write(`${JSON.stringify(meta)}\n`);
        return 0;
      };
    } else if (command === 'check-profile') {
      const o = options(checkSchema, argv, command);
      run = async () => {
        const all = o['--profiles'] ? loadProfiles(o['--profiles']) : null;
        const profile = all ? all.find((p) => p.appVersion === o['--version']) : profileForVersion(o['--version']);
        if (!profile) throw new DeviceError('APP_VERSION_UNSUPPORTED', `no profile for ${o['--version']}`);
        const results = checkFixtures(profile, o['--fixtures']);
        for (const r of results) process.stdout.write(`${JSON.stringify(r)}\n`);
        return results.every((r) => r.problem === null) ? 0 : 1;
      };
    } else {
      return fail(new DeviceError('INVALID_INPUT', USAGE));
    }
  } catch (err) {
    const message = describeError(err);
    return fail(new DeviceError('INVALID_INPUT', message.includes(USAGE) ? message : `${message}; ${USAGE}`));
  }
  try {
    return await run();
  } catch (err) {
    return fail(err);
  }
}

function fail(err: unknown): number {
  if (err instanceof ProfileError) {
    process.stdout.write(`${JSON.stringify({ error: { code: 'PROFILE_INVALID', message: err.message } })}\n`);
    return 1;
  }
  const e = isDeviceError(err) ? err : new DeviceError('ADB_FAILED', describeError(err));
  process.stdout.write(`${JSON.stringify({ error: { code: e.code, message: e.message } })}\n`);
  return e.code === 'INVALID_INPUT' ? 2 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(fail(err)),
);
