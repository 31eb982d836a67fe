import path from 'node:path';
import type { Env } from '../../admin/config/env';
import type { DataPaths } from '../../platform/data-dir';
import { PROJECT_ROOT } from '../../temporal/binaries';
import type { TemporalTarget } from '../../temporal/connection';
import type { EmbeddedTemporal } from './temporal';
import type { ChildSpec } from '../../platform/children';
import type { MetricsTargets } from './metrics-targets';
import { sybAccountEnv } from './syb-sim';

/**
 * The children of `npm start` (../supervisor.ts starts them in this file's order), each with the
 * environment it needs and no more: every child gets the Temporal address, the data dir and the
 * log level; the payload keys only the admin, its worker and the phone host; the SYB account
 * only the admin and its worker; the operator's initial password only the admin.
 */
export class ChildSpecs {
  private readonly node = process.execPath;
  /** The SYB password goes to the admin only: every other child runs without it. */
  private readonly childEnv: NodeJS.ProcessEnv;

  constructor(
    private readonly env: Env,
    private readonly paths: DataPaths,
    target: TemporalTarget,
    /** the payload keys, for the children that encrypt or decrypt Temporal payloads */
    private readonly keyEnv: NodeJS.ProcessEnv,
    private readonly temporal: EmbeddedTemporal | undefined,
    private readonly metrics: MetricsTargets,
  ) {
    this.childEnv = {
      CMAUTOBUY_TEMPORAL_ADDRESS: target.address,
      CMAUTOBUY_DATA_DIR: paths.root,
      CMAUTOBUY_LOG_LEVEL: env.CMAUTOBUY_LOG_LEVEL,
      CMAUTOBUY_SYB_PASSWORD: undefined,
    };
  }

  /** The phone simulator with its phones. */
  sim(): ChildSpec {
    return {
      name: 'sim',
      background: true,
      command: this.node,
      args: ts('sim/phone/main.ts'),
      env: this.childEnv,
      readyLine: /SIM READY adb=(\d+) control=(\d+)/,
      logFile: this.log('sim.out'),
    };
  }

  /** The 顺运宝 simulator. */
  sybSim(): ChildSpec {
    return {
      name: 'syb-sim',
      background: true,
      command: this.node,
      args: ts('sim/syb/main.ts'),
      env: { ...this.childEnv, CMAUTOBUY_SYB_SIM_PORT: String(this.env.CMAUTOBUY_SYB_SIM_PORT) },
      readyLine: /SYB SIM READY url=(\S+)/,
      logFile: this.log('syb-sim.out'),
    };
  }

  /** The admin; its worker runs as the next child, off the event loop that answers operators. */
  async admin(sybSimUrl: string): Promise<ChildSpec> {
    const { env } = this;
    return {
      name: 'admin',
      answersOperators: true,
      command: this.node,
      args: ts('workers/main-admin.ts', ['--no-worker']),
      env: {
        ...this.childEnv,
        ...this.keyEnv,
        ...(env.CMAUTOBUY_ADMIN_PASSWORD ? { CMAUTOBUY_ADMIN_PASSWORD: env.CMAUTOBUY_ADMIN_PASSWORD } : {}),
        ...(await sybAccountEnv(env, sybSimUrl)),
        // the admin sees this server as an existing one (CMAUTOBUY_TEMPORAL_ADDRESS), so it is
        // told where the UI it serves to operators is
        ...(this.temporal?.uiUrl ? { CMAUTOBUY_TEMPORAL_UI_UPSTREAM: this.temporal.uiUrl } : {}),
      },
      readyLine: /ADMIN READY (\S+)/,
      logFile: this.log('admin.out'),
      terminalOnly: /^Initial password for operator/,
    };
  }

  /**
   * The admin's Temporal worker (workers/main-admin-worker.ts); started after the admin, which
   * has migrated the DB.
   */
  async adminWorker(sybSimUrl: string): Promise<ChildSpec> {
    const { metrics } = this;
    return {
      name: 'admin-worker',
      background: true,
      command: this.node,
      args: ts('workers/main-admin-worker.ts', [
        '--metrics-port',
        String(await metrics.port('admin-worker', 'admin-worker')),
      ]),
      env: {
        ...this.childEnv,
        ...this.keyEnv,
        // its SYB sync activity logs in to 顺运宝 like the admin's 立即同步
        ...(await sybAccountEnv(this.env, sybSimUrl)),
        CMAUTOBUY_TEMPORAL_METRICS_PORT: String(await metrics.port('temporal-sdk', 'admin-worker')),
      },
      readyLine: /ADMIN WORKER READY/,
      logFile: this.log('admin-worker.out'),
    };
  }

  /** One phone host for the simulator's phones (docs/phone-hosts.md "Under npm start"). */
  async phoneHost(adminUrl: string, adbPort: string, hostToken: string): Promise<ChildSpec> {
    return {
      name: 'phone-host',
      background: true,
      command: this.node,
      args: ts('phone-host/main.ts', [
        '--admin-url',
        adminUrl,
        '--adb-host',
        '127.0.0.1',
        '--adb-port',
        adbPort,
        '--metrics-port',
        String(await this.metrics.port('phone-host', 'sim-host')),
      ]),
      // no payload keys: a phone host gets them over its admin channel (docs/phone-hosts.md)
      env: {
        ...this.childEnv,
        CMAUTOBUY_HOST_TOKEN: hostToken,
        CMAUTOBUY_HOST_SYNC_MS: process.env.CMAUTOBUY_HOST_SYNC_MS ?? '2000',
      },
      readyLine: /PHONE HOST READY/,
      logFile: this.log('phone-host.out'),
    };
  }

  private log(file: string): string {
    return path.join(this.paths.logs, file);
  }
}

/** A TypeScript entry run by node through tsx. */
function ts(entry: string, args: string[] = []): string[] {
  return ['--import', 'tsx', path.join(PROJECT_ROOT, entry), ...args];
}
