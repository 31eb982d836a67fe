import { startPhoneSim } from './index';
import { latencyProfileSchema } from './faults';
import { simPhoneSerials } from './phones';

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    console.error(`${name} must be a port number, got "${raw}"`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const latency = latencyProfileSchema.parse(process.env.CMAUTOBUY_SIM_LATENCY ?? 'realistic');
  const sim = await startPhoneSim({
    adbPort: port('CMAUTOBUY_SIM_ADB_PORT', 15037),
    controlPort: port('CMAUTOBUY_SIM_CONTROL_PORT', 15038),
    host: '127.0.0.1',
    phones: simPhoneSerials(),
    latency,
  });
  console.log(`SIM READY adb=${sim.adbPort} control=${sim.controlPort}`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
