import path from 'node:path';
import { SupervisedChild, type RestartEvent } from '../platform/children';
import { PAYLOAD_KEYS_VAR } from '../temporal/codec/keys';
import { PAYLOAD_KEYS_ON_STDIN_VAR } from '../temporal/codec/keys-handoff';

const ROOT = path.resolve(__dirname, '..');

export interface WorkerTarget {
  deviceId: string;
  serial: string;
  token: string;
}

/**
 * One device worker process (workers/main-device-worker.ts) per approved phone, each supervised on its
 * own: a worker that dies is restarted with a growing delay (platform/children.ts), and
 * no phone's fault reaches another. The device token goes to the child in its environment only,
 * never on its command line or into the data dir. The payload keys go down its stdin (each
 * restart writes them again): a child's environment can be read in /proc by its user for as long
 * as it runs, its stdin only by the child, once.
 */
export function startPhoneWorker(
  opts: {
    adminUrl: string;
    adb: { host: string; port: number };
    dataDir: string;
    env: NodeJS.ProcessEnv;
    /** the admin's ring, `id:base64key,…` */
    payloadKeys: string;
    onRestart: (event: RestartEvent) => void;
  },
  t: WorkerTarget,
): Promise<SupervisedChild> {
  return SupervisedChild.start(
    {
      name: `device-worker-${t.serial}`,
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        path.join(ROOT, 'workers/main-device-worker.ts'),
        '--device-id',
        t.deviceId,
        '--serial',
        t.serial,
        '--adb-host',
        opts.adb.host,
        '--adb-port',
        String(opts.adb.port),
        '--admin-url',
        opts.adminUrl,
        '--data-dir',
        opts.dataDir,
      ],
      env: {
        ...opts.env,
        [PAYLOAD_KEYS_VAR]: undefined,
        [PAYLOAD_KEYS_ON_STDIN_VAR]: '1',
        CMAUTOBUY_DEVICE_TOKEN: t.token,
      },
      stdin: `${opts.payloadKeys}\n`,
      readyLine: /^DEVICE WORKER READY /,
      logFile: path.join(opts.dataDir, 'logs', `phone-host-${t.deviceId}.out`),
    },
    { onRestart: opts.onRestart },
  );
}
