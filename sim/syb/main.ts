import { z } from 'zod';
import { port } from '../../platform/config';
import { runSimulator } from '../../platform/simulator-main';
import { startSybSim } from './server';

/** `npm run sim:syb`: the 顺运宝 simulator alone, on loopback (it has no authentication). */
void runSimulator({
  env: z.object({ CMAUTOBUY_SYB_SIM_PORT: port.default(8090) }),
  start: (env) => startSybSim({ port: env.CMAUTOBUY_SYB_SIM_PORT, host: '127.0.0.1' }),
  readyLine: (sim) => `SYB SIM READY url=${sim.url}`,
});
