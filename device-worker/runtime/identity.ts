import os from 'node:os';

/**
 * The Temporal `identity` of every Worker and client of one device worker: the host, the phone
 * and the process, so a poller, an `ActivityTaskStarted` or a describe call in the history says
 * which machine drove which phone (the SDK's default, `pid@host`, does not name the phone).
 */
export function deviceWorkerIdentity(
  deviceId: string,
  host: string = os.hostname(),
  pid: number = process.pid,
): string {
  return `device-worker@${host}/${deviceId}/${pid}`;
}
