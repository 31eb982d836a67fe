import path from 'node:path';
import { SupervisedChild, type RestartEvent } from '../platform/children';

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
 * never on its command line or into the data dir.
 */
export function startPhoneWorker(
  opts: {
    adminUrl: string;
    adb: { host: string; port: number };
    dataDir: string;
    env: NodeJS.ProcessEnv;
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
      env: { ...opts.env, CMAUTOBUY_DEVICE_TOKEN: t.token },
      readyLine: /^DEVICE WORKER READY /,
      logFile: path.join(opts.dataDir, 'logs', `phone-host-${t.deviceId}.out`),
    },
    { onRestart: opts.onRestart },
  );
}
