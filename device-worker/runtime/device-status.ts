import { describeError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { AdbDevice, type AdbTarget, type AdbTimeouts } from '../adb/adb-device';
import { reportDeviceStatus } from '../admin-client';
import { healthRefusal } from '../../domain/phone-health';
import { readHealthWith, type HealthReading } from '../adb/health-reading';
import { SUPPORTED_APP_VERSIONS } from '../pdd/profile';
import type { PhoneHolder } from './animations';
import type { PhoneAgentReport } from '../../domain/phone-agent';

/**
 * Whether this phone may take a claim right now (docs/api.md §12.1): it answers on ADB,
 * and the admin neither paused it nor has it waiting for a person (需处理), and its token is not
 * revoked. Checked every interval — the claim poller polls `devices` only while the last check
 * said yes — and again inside every claim, so a phone that changed since is refused before the
 * workflow sees a claim. The ADB state goes to the admin with each check, so 设备 shows a phone
 * that left ADB as offline even while this worker still polls Temporal.
 */
export class DeviceStatusWatch {
  private refusal: string | null = 'not checked yet';
  /** the last answer was a health refusal: the interval checks read health too, so it clears without a host */
  private healthBlocked = false;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<string | null> | null = null;
  private readonly adb: AdbDevice;
  /** the last answer asked for the read behind 处理完毕，继续 */
  private lastAnswerAskedCheck = false;
  private resumeChecking: Promise<void> | null = null;

  constructor(
    private readonly opts: {
      adb: AdbTarget;
      adbTimeouts: Partial<AdbTimeouts> | undefined;
      /** without an admin the worker runs unregistered: only ADB decides */
      admin: { url: string; token: string } | undefined;
      deviceId: string;
      log: Logger;
      /** after a check whose answer differs from the one before */
      onChange: () => void;
      /** the admin answered 401: the token is revoked */
      onRevoked: (why: string) => void;
      /** after every check, awaited before its answer: whose the phone is now (runtime/animations.ts) */
      onChecked?: (state: { adbConnected: boolean; holder: PhoneHolder }) => Promise<void>;
      /** the on-device agent's state, reported with every check (../agent/phone-agent.ts) */
      agent?: () => PhoneAgentReport;
      /** after every check of a phone on ADB, not awaited: the agent's health check and restart */
      afterReport?: () => void;
      /** the admin waits for a fresh read before it clears the phone's stop (runtime/resume-check.ts) */
      onResumeCheck?: () => Promise<void>;
      /** after every answer of the admin: the hold it names, null when nobody holds the phone */
      onHold?: (hold: { held_by: string; since: string } | null) => void;
    },
  ) {
    // its own connection: the device list every interval; read-only dumpsys/df only right before a claim
    this.adb = new AdbDevice(opts.adb, { ...opts.adbTimeouts, shellMs: 5_000 });
  }

  /** The last check's answer: null when a claim may be taken. */
  get lastRefusal(): string | null {
    return this.refusal;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.check().catch(() => undefined), intervalMs);
    void this.check();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.checking?.catch(() => undefined);
  }

  /**
   * Checks now (joining a check under way); null when the phone may take a claim. Right before a
   * claim (`beforeClaim`) it is a check of its own that also reads the phone's health — battery,
   * screen, PDD version — and hands the reading to the admin, so a phone that went flat or locked
   * since its host's last reading (up to a minute old) takes no claim.
   */
  check(opts: { beforeClaim?: boolean } = {}): Promise<string | null> {
    if (opts.beforeClaim || this.healthBlocked) return this.checkOnce(true);
    if (!this.checking)
      this.checking = this.checkOnce().finally(() => {
        this.checking = null;
      });
    return this.checking;
  }

  private async checkOnce(withHealth = false): Promise<string | null> {
    let refusal: string | null = null;
    let adbConnected = true;
    let health: HealthReading | null = null;
    try {
      await this.adb.ensureOnline(0);
    } catch (err) {
      adbConnected = false;
      refusal = `the phone does not answer on ADB (${describeError(err)})`;
    }
    if (adbConnected && withHealth) {
      health = await readHealthWith((command) => this.adb.shell(command)).catch((err: unknown) => {
        this.opts.log.warn({ err: describeError(err) }, 'could not read the phone health before a claim');
        return null;
      });
      // refused here too, so a worker without an admin (or an older admin) does not buy on it either
      const local = health
        ? healthRefusal(health, !health.app_version || SUPPORTED_APP_VERSIONS.includes(health.app_version))
        : null;
      if (local) refusal = `the phone's health stops claims (${local})`;
    }
    let healthBlocked = withHealth && refusal !== null && adbConnected;
    // without an admin only ADB decides, so the phone is automation's while the worker runs
    let holder: PhoneHolder = 'automation';
    const { admin } = this.opts;
    if (admin) {
      const answer = await reportDeviceStatus(
        { adminUrl: admin.url, deviceId: this.opts.deviceId, token: admin.token },
        {
          adb_connected: adbConnected,
          ...(health ? { health } : {}),
          ...(this.opts.agent ? { agent: this.opts.agent() } : {}),
        },
      );
      this.lastAnswerAskedCheck = answer.kind === 'answer' && answer.attention?.check_requested === true;
      if (answer.kind === 'answer')
        this.opts.onHold?.(
          answer.held_by && answer.held_since ? { held_by: answer.held_by, since: answer.held_since } : null,
        );
      else if (answer.kind === 'unauthorized') this.opts.onHold?.(null);
      holder =
        answer.kind === 'unavailable'
          ? undefined
          : answer.kind === 'unauthorized' || answer.attention || answer.held_by
            ? 'released'
            : 'automation';
      if (answer.kind === 'unauthorized') {
        refusal = 'the admin refused this device token (revoked)';
        this.opts.onRevoked(`the admin at ${admin.url} answered 401 to device ${this.opts.deviceId}'s status`);
      } else if (answer.kind === 'unavailable') {
        // no claim without the admin's yes: a paused or revoked phone must not buy meanwhile
        refusal ??= `the admin did not answer the status check (${answer.why})`;
      } else if (!answer.claimable) {
        if (answer.blocked) healthBlocked = true;
        refusal ??= answer.held_by
          ? `${answer.held_by} holds the phone from the admin`
          : answer.attention
            ? `the phone needs attention (${answer.attention.reason_code} since ${answer.attention.since})`
            : `the admin refused a claim (${answer.blocked?.reason_code ?? 'no reason given'})`;
      }
    }
    this.healthBlocked = healthBlocked && refusal !== null;
    if (refusal !== this.refusal) {
      if (refusal) this.opts.log.warn({ reason: refusal }, 'this phone takes no claim now');
      else this.opts.log.info('this phone may take claims again');
      this.refusal = refusal;
      this.opts.onChange();
    }
    await this.opts.onChecked?.({ adbConnected, holder });
    if (adbConnected) this.opts.afterReport?.();
    if (adbConnected && admin && this.lastAnswerAskedCheck) this.resumeCheck();
    return refusal;
  }

  /** One read at a time; its verdict goes to the admin, and the next check reports what that changed. */
  private resumeCheck(): void {
    const run = this.opts.onResumeCheck;
    if (!run || this.resumeChecking) return;
    this.resumeChecking = run()
      .catch((err: unknown) => this.opts.log.warn({ err: describeError(err) }, 'the read for 处理完毕，继续 failed'))
      .finally(() => {
        this.resumeChecking = null;
        void this.check();
      });
  }
}
