import { createHash } from 'node:crypto';
import type { PhoneAgentReport } from '../domain/phone-agent';
import type { ScreenNodesUpload } from '../domain/screen-nodes';
import type { Logger } from '../platform/logger';
import { describeError } from '../platform/errors';

export interface DeviceRegistration {
  serial: string;
  model: string;
  app_version: string;
  capabilities: string[];
}

export interface AdminClientOptions {
  adminUrl: string;
  deviceId: string;
  /** the device token (hex); never logged */
  token: string;
  log: Logger;
  /** first retry delay; doubles up to maxBackoffMs */
  backoffMs?: number;
  maxBackoffMs?: number;
  requestTimeoutMs?: number;
  /** the settings the admin answered with (phone-host settings kept on 设置) */
  onSettings?: (settings: PhoneHostSettings) => void;
  /** the admin refused the token (401): revoked or never issued; the worker must take no more claims */
  onRevoked?: (why: string) => void;
}

export interface PhoneHostSettings {
  artifact_retention_days: number;
}

function parseSettings(body: string): PhoneHostSettings | null {
  try {
    const parsed: unknown = JSON.parse(body);
    const days = (parsed as { settings?: { artifact_retention_days?: unknown } }).settings?.artifact_retention_days;
    return typeof days === 'number' && Number.isInteger(days) && days >= 1 ? { artifact_retention_days: days } : null;
  } catch {
    return null;
  }
}

export type RegisterOutcome = 'registered' | 'unauthorized' | 'stopped';

/**
 * Reports this phone to the admin (POST /api/device/register, idempotent). The admin may be
 * down when the worker starts: retry with backoff. A 401 means the token was revoked (or never
 * issued): say so clearly and tell the worker, which stops taking claims — a revoked phone must
 * not buy — instead of crash-looping.
 */
export class AdminClient {
  private unauthorized = false;
  private stopped = false;
  private pending: Promise<RegisterOutcome> | null = null;
  private latest: DeviceRegistration | null = null;

  constructor(private readonly opts: AdminClientOptions) {}

  /** Fire and forget: the newest registration wins; concurrent calls share one retry loop. */
  register(reg: DeviceRegistration): Promise<RegisterOutcome> {
    this.latest = reg;
    if (this.unauthorized) return Promise.resolve('unauthorized');
    if (!this.pending) {
      this.pending = this.loop().finally(() => {
        this.pending = null;
      });
    }
    return this.pending;
  }

  stop(): void {
    this.stopped = true;
  }

  private async loop(): Promise<RegisterOutcome> {
    let delay = this.opts.backoffMs ?? 1_000;
    const max = this.opts.maxBackoffMs ?? 60_000;
    for (;;) {
      if (this.stopped) return 'stopped';
      const reg = this.latest as DeviceRegistration;
      const result = await this.post(reg);
      if (result === 'ok') {
        this.opts.log.info(
          { deviceId: this.opts.deviceId, serial: reg.serial, app_version: reg.app_version },
          'registered with the admin',
        );
        if (this.latest === reg) return 'registered';
        continue;
      }
      if (result === 'unauthorized') {
        this.unauthorized = true;
        const why = `the admin at ${this.opts.adminUrl} answered 401 to device ${this.opts.deviceId}'s registration`;
        this.opts.log.error(
          { deviceId: this.opts.deviceId, adminUrl: this.opts.adminUrl },
          `device token revoked: ${why}; this worker takes no new claims — issue a new token with \`npm run cli -- device issue <name>\` and restart it`,
        );
        this.opts.onRevoked?.(why);
        return 'unauthorized';
      }
      this.opts.log.warn(
        { adminUrl: this.opts.adminUrl, reason: result, retryInMs: delay },
        'admin not reachable for registration; retrying',
      );
      await new Promise((r) => setTimeout(r, delay).unref());
      delay = Math.min(max, delay * 2);
    }
  }

  private async post(reg: DeviceRegistration): Promise<'ok' | 'unauthorized' | string> {
    try {
      const res = await fetch(new URL('/api/device/register', this.opts.adminUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${this.opts.deviceId}.${this.opts.token}`,
        },
        body: JSON.stringify(reg),
        signal: AbortSignal.timeout(this.opts.requestTimeoutMs ?? 10_000),
      });
      const body = await res.text().catch(() => '');
      if (res.ok) {
        const settings = parseSettings(body);
        if (settings) this.opts.onSettings?.(settings);
        return 'ok';
      }
      if (res.status === 401) return 'unauthorized';
      return `HTTP ${res.status}`;
    } catch (err) {
      return describeError(err);
    }
  }
}

/** The admin's answer to a status report: may this phone take a claim now, and why not. */
export type DeviceStatusAnswer =
  | {
      kind: 'answer';
      claimable: boolean;
      /** `check_requested`: 处理完毕，继续 was pressed and the admin waits for a fresh read (runtime/resume-check.ts) */
      attention: { reason_code: string; since: string; check_requested?: boolean } | null;
      /** the phone host's side: pending, low battery, locked, unprofiled PDD version */
      blocked?: { reason_code: string } | undefined;
      /** a person holds the phone from the admin: automation takes nothing and makes no input */
      held_by?: string | undefined;
      /** since when that person holds it: names the hold its recording belongs to (runtime/hold-recorder.ts) */
      held_since?: string | undefined;
    }
  | { kind: 'unauthorized' }
  | { kind: 'unavailable'; why: string };

/**
 * `POST /api/device/status`: reports whether the phone answers on ADB and asks whether it may
 * take a claim (an operator paused it, or a purchase stopped on a page only a person can clear).
 * Never throws: a 401 (revoked token) and an admin that does not answer are answers too.
 */
export async function reportDeviceStatus(
  opts: Pick<AdminClientOptions, 'adminUrl' | 'deviceId' | 'token' | 'requestTimeoutMs'>,
  status: { adb_connected: boolean; health?: object; agent?: PhoneAgentReport },
): Promise<DeviceStatusAnswer> {
  try {
    const res = await fetch(new URL('/api/device/status', opts.adminUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.deviceId}.${opts.token}` },
      body: JSON.stringify(status),
      signal: AbortSignal.timeout(opts.requestTimeoutMs ?? 5_000),
    });
    const body = await res.text().catch(() => '');
    if (res.status === 401) return { kind: 'unauthorized' };
    if (!res.ok) return { kind: 'unavailable', why: `HTTP ${res.status}` };
    const parsed = JSON.parse(body) as { claimable?: unknown; attention?: unknown; blocked?: unknown };
    if (typeof parsed.claimable !== 'boolean') return { kind: 'unavailable', why: 'no claimable in the answer' };
    const a = parsed.attention as
      { reason_code?: unknown; since?: unknown; check_requested?: unknown } | null | undefined;
    const attention =
      a && typeof a.reason_code === 'string' && typeof a.since === 'string'
        ? { reason_code: a.reason_code, since: a.since, check_requested: a.check_requested === true }
        : null;
    const b = parsed.blocked as { reason_code?: unknown } | null | undefined;
    const blocked = b && typeof b.reason_code === 'string' ? { reason_code: b.reason_code } : undefined;
    const h = (parsed as { held?: { held_by?: unknown; since?: unknown } | null }).held;
    const heldBy = h && typeof h.held_by === 'string' ? h.held_by : undefined;
    const heldSince = heldBy && typeof h?.since === 'string' ? h.since : undefined;
    return { kind: 'answer', claimable: parsed.claimable, attention, blocked, held_by: heldBy, held_since: heldSince };
  } catch (err) {
    return { kind: 'unavailable', why: describeError(err) };
  }
}

/**
 * Who holds the phone from the admin (`GET /api/device/hold`), asked before each automated act.
 * null: nobody, or the admin did not answer — an admin that cannot answer cannot grant a hold
 * either, and no submit passes without its fence.
 */
export async function askHolder(
  opts: Pick<AdminClientOptions, 'adminUrl' | 'deviceId' | 'token'>,
  timeoutMs = 2_000,
): Promise<string | null> {
  try {
    const res = await fetch(new URL('/api/device/hold', opts.adminUrl), {
      headers: { authorization: `Bearer ${opts.deviceId}.${opts.token}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { held_by?: unknown };
    return typeof body.held_by === 'string' ? body.held_by : null;
  } catch {
    return null;
  }
}

/** The fresh read behind 处理完毕，继续 (`POST /api/device/resume-check`); false when the admin did not take it. */
export async function sendResumeVerdict(
  opts: Pick<AdminClientOptions, 'adminUrl' | 'deviceId' | 'token'>,
  verdict: { ok: boolean; reason_code?: string; page: string },
): Promise<boolean> {
  try {
    const res = await fetch(new URL('/api/device/resume-check', opts.adminUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.deviceId}.${opts.token}` },
      body: JSON.stringify(verdict),
      signal: AbortSignal.timeout(5_000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * The reviewed popups an operator taught for this PDD version (`GET /api/device/overlays`), added
 * to its profile for one activity. None when the admin does not answer: the phone then stops on
 * them as before, never closes more.
 */
export async function fetchTaughtOverlays(
  opts: Pick<AdminClientOptions, 'adminUrl' | 'deviceId' | 'token'>,
  appVersion: string,
  log: Logger,
): Promise<unknown[]> {
  try {
    const url = new URL('/api/device/overlays', opts.adminUrl);
    url.searchParams.set('app_version', appVersion);
    const res = await fetch(url, {
      headers: { authorization: `Bearer ${opts.deviceId}.${opts.token}` },
      signal: AbortSignal.timeout(3_000),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as { overlays?: unknown };
    return Array.isArray(body.overlays) ? body.overlays : [];
  } catch (err) {
    log.warn({ err: describeError(err) }, 'could not read the taught popups; going on with the profile alone');
    return [];
  }
}

/**
 * `PUT /api/device/screen-nodes`: what the held phone shows, offered by 教弹窗 (docs/api.md §12.3).
 * False when the admin did not take it — the hold ended a moment ago (409 DEVICE_NOT_HELD) or it
 * did not answer; logged only, the next read is a second away.
 */
export async function sendScreenNodes(
  opts: Pick<AdminClientOptions, 'adminUrl' | 'deviceId' | 'token' | 'log'>,
  read: ScreenNodesUpload,
  timeoutMs = 5_000,
): Promise<boolean> {
  try {
    const res = await fetch(new URL('/api/device/screen-nodes', opts.adminUrl), {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.deviceId}.${opts.token}` },
      body: JSON.stringify(read),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    if (!res.ok) opts.log.debug({ status: res.status }, "the admin did not take the held phone's screen nodes");
    return res.ok;
  } catch (err) {
    opts.log.debug({ err: describeError(err) }, "the held phone's screen nodes could not be sent");
    return false;
  }
}

/**
 * One screenshot to a device route of the admin (`POST /api/device/evidence`, `…/hold-frames`):
 * multipart with the route's text fields, the PNG's SHA-256 and the PNG in `file`. The answer is
 * the caller's to read; a failure to reach the admin throws.
 */
export function postDevicePng(
  opts: Pick<AdminClientOptions, 'adminUrl' | 'deviceId' | 'token'>,
  path: string,
  fields: Record<string, string>,
  png: Buffer,
  timeoutMs: number,
): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('sha256', createHash('sha256').update(png).digest('hex'));
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'screen.png');
  return fetch(new URL(path, opts.adminUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${opts.deviceId}.${opts.token}` },
    body: form,
    signal: AbortSignal.timeout(timeoutMs),
  });
}
