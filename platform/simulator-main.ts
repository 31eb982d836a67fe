import { z } from 'zod';
import { ConfigError, parseConfig } from './config';

/**
 * The entry of a simulator process (`sim/phone/main.ts`, `sim/syb/main.ts`): its environment
 * read with zod like every other process's, one READY line when it answers, and a clean close on
 * SIGINT/SIGTERM so `npm start` can stop it and restart it.
 */
export async function runSimulator<S extends z.ZodType, T extends { close(): Promise<void> }>(opts: {
  env: S;
  start: (env: z.infer<S>) => Promise<T>;
  readyLine: (sim: T) => string;
}): Promise<void> {
  try {
    const env = parseConfig(opts.env, process.env, {
      what: 'environment',
      hint: 'Fix or unset these variables (see docs/api.md).',
    });
    const sim = await opts.start(env);
    console.log(opts.readyLine(sim));
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
  } catch (e: unknown) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(e instanceof ConfigError ? 2 : 1);
  }
}
