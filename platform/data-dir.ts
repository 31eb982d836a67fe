import path from 'node:path';
import { ConfigError } from './config';

/**
 * The data dir layout (README.md "Data dir"), resolved once so nobody joins paths by hand: the
 * admin, the supervisor, the Temporal dev server and every device worker agree on it.
 */
export interface DataPaths {
  root: string;
  adminDb: string;
  temporalDb: string;
  logs: string;
  evidence: string;
  device(deviceId: string): DevicePaths;
}

interface DevicePaths {
  root: string;
  ledgerDb: string;
  artifacts: string;
  logs: string;
}

/** A device id names a folder and a task queue, so it is restricted to what is safe in both. */
export const SAFE_DEVICE_ID = /^[A-Za-z0-9._-]+$/;

export function dataPaths(dataDir: string): DataPaths {
  const root = path.resolve(dataDir);
  return {
    root,
    adminDb: path.join(root, 'admin.db'),
    temporalDb: path.join(root, 'temporal', 'temporal.db'),
    logs: path.join(root, 'logs'),
    evidence: path.join(root, 'evidence'),
    device(deviceId) {
      if (!SAFE_DEVICE_ID.test(deviceId))
        throw new ConfigError(`device id ${JSON.stringify(deviceId)} is not a safe folder name`);
      const dir = path.join(root, 'device', deviceId);
      return {
        root: dir,
        ledgerDb: path.join(dir, 'ledger.db'),
        artifacts: path.join(dir, 'artifacts'),
        logs: path.join(dir, 'logs'),
      };
    },
  };
}
