import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { CHAOS_URL_VAR } from '../../platform/chaos';
import { freePort } from '../../platform/network';
import { cmdline, descendants, running } from '../../platform/process-tree';
import { loginOperator, type OperatorClient } from '../../test/harness';
import { PROJECT_ROOT } from '../../temporal/binaries';

/**
 * `npm start` as the chaos run drives it: the real supervisor with every process it runs, on a
 * data dir of the run's own, with the chaos hook on (CMAUTOBUY_CHAOS_URL). A process is found by
 * its command line below the supervisor, so whatever the supervisor brought back is found again.
 */
export interface ChaosSystem {
  dataDir: string;
  adminUrl: string;
  temporalAddress: string;
  simControl: string;
  op: OperatorClient;
  /** the running processes of one kind (a device worker: of one phone) */
  pidsOf(target: string, deviceId?: string | null): number[];
  close(): Promise<void>;
}

const PASSWORD = 'chaos-run-password';

/** How each process of `npm start` shows in its command line. */
const COMMAND_LINES: Record<string, RegExp> = {
  'device-worker': /workers\/main-device-worker\.ts/,
  'admin-worker': /workers\/main-admin-worker\.ts/,
  'admin-http': /workers\/main-admin\.ts/,
  'phone-host': /phone-host\/main\.ts/,
  temporal: /\bserver start-dev\b/,
};

export async function startSystem(opts: {
  root: string;
  chaosUrl: string;
  /** an external Temporal (the cluster) and the payload keys it needs; the embedded dev server without */
  temporal?: { address: string; payloadKeys: string };
  /** the phones' own delays: a point is a point at any speed, `zero` runs the matrix faster */
  latency: 'zero' | 'realistic';
  say: (line: string) => void;
}): Promise<ChaosSystem> {
  const dataDir = path.join(opts.root, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  const [admin, temporalPort, temporalUi, adb, control, syb] = await Promise.all(
    Array.from({ length: 6 }, () => freePort()),
  );
  const log = fs.createWriteStream(path.join(opts.root, 'start.log'));
  const proc: ChildProcess = spawn(process.execPath, [path.join(PROJECT_ROOT, 'scripts/start.mjs')], {
    cwd: PROJECT_ROOT,
    env: {
      ...withoutPayloadKeys(process.env),
      CMAUTOBUY_DATA_DIR: dataDir,
      CMAUTOBUY_ADMIN_PORT: String(admin),
      CMAUTOBUY_TEMPORAL_PORT: String(temporalPort),
      CMAUTOBUY_TEMPORAL_UI_PORT: String(temporalUi),
      CMAUTOBUY_SIM_ADB_PORT: String(adb),
      CMAUTOBUY_SIM_CONTROL_PORT: String(control),
      CMAUTOBUY_SYB_SIM_PORT: String(syb),
      CMAUTOBUY_ADMIN_PASSWORD: PASSWORD,
      CMAUTOBUY_TEMPORAL_ADDRESS: opts.temporal?.address ?? '',
      ...(opts.temporal ? { CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS: opts.temporal.payloadKeys } : {}),
      [CHAOS_URL_VAR]: opts.chaosUrl,
      CMAUTOBUY_SIM_LATENCY: opts.latency,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stderr?.pipe(log);
  const adminUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start gave no READY line within 5 min (${opts.root}/start.log)`)),
      300_000,
    );
    readline.createInterface({ input: proc.stdout! }).on('line', (line) => {
      log.write(`${line}\n`);
      const m = /^READY admin=(\S+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.once('exit', (code) => reject(new Error(`npm start exited (${code}) before READY (${opts.root}/start.log)`)));
  });
  opts.say(`system ready: admin ${adminUrl}`);
  const op = await loginOperator({ url: adminUrl }, 'admin', PASSWORD);

  return {
    dataDir,
    adminUrl,
    temporalAddress: opts.temporal?.address ?? `127.0.0.1:${temporalPort}`,
    simControl: `http://127.0.0.1:${control}`,
    op,
    pidsOf(target, deviceId) {
      const pattern = COMMAND_LINES[target];
      if (!pattern) return [];
      return descendants(proc.pid!).filter((p) => {
        const line = cmdline(p);
        return pattern.test(line) && running(p) && (!deviceId || line.includes(`--device-id ${deviceId}`));
      });
    },
    async close() {
      proc.kill('SIGTERM');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          proc.kill('SIGKILL');
          resolve();
        }, 90_000);
        proc.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      log.end();
    },
  };
}

/** The embedded system makes its own key (test/harness.ts, imported for the operator's client, sets one for tests). */
function withoutPayloadKeys(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS: _ignored, ...rest } = env;
  return rest;
}
