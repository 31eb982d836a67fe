import { z } from 'zod';
import { port } from '../../platform/config';
import { runSimulator } from '../../platform/simulator-main';
import { latencyProfileSchema } from './faults';
import { startPhoneSim } from './index';
import { simPhoneSerials } from './phones';

/** `npm run sim`: the phone simulator alone, on loopback, with `CMAUTOBUY_SIM_PHONES` phones. */
void runSimulator({
  env: z.object({
    CMAUTOBUY_SIM_ADB_PORT: port.default(15037),
    CMAUTOBUY_SIM_CONTROL_PORT: port.default(15038),
    CMAUTOBUY_SIM_LATENCY: latencyProfileSchema.default('realistic'),
  }),
  start: (env) =>
    startPhoneSim({
      adbPort: env.CMAUTOBUY_SIM_ADB_PORT,
      controlPort: env.CMAUTOBUY_SIM_CONTROL_PORT,
      host: '127.0.0.1',
      phones: simPhoneSerials(),
      latency: env.CMAUTOBUY_SIM_LATENCY,
    }),
  readyLine: (sim) => `SIM READY adb=${sim.adbPort} control=${sim.controlPort}`,
});
