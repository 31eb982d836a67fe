import { startSybSim } from './server';

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

/** `npm run sim:syb`: the 顺运宝 simulator alone, on loopback (it has no authentication). */
async function main(): Promise<void> {
  const sim = await startSybSim({ port: port('CMAUTOBUY_SYB_SIM_PORT', 8090), host: '127.0.0.1' });
  console.log(`SYB SIM READY url=${sim.url}`);
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
