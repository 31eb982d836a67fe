import { z } from 'zod';
import type { HostSetupFacts } from './host-setup';
import type { PhoneHealth, PhoneState } from './phone-health';
import type { PhoneAgentReport } from './phone-agent';
import { hasUnsafeNameChars, UNSAFE_NAME_MESSAGE } from './text';

/**
 * The PDD account a phone is logged in as (its nickname or number), as an operator writes it on
 * 设备; null clears it. Nothing on the phone reports it: a person paying needs to know which
 * account to open.
 */
export const devicePddAccountSchema = z
  .string()
  .trim()
  .min(1, 'pdd_account must not be empty (send null to clear it)')
  .max(64, 'pdd_account must be at most 64 characters')
  .refine((s) => !hasUnsafeNameChars(s), `pdd_account ${UNSAFE_NAME_MESSAGE}`)
  .nullable();

/** The longest display name a device may have; the issue form and the rename field use it too. */
export const DEVICE_NAME_MAX_LENGTH = 100;

/**
 * What operators call a phone (e.g. 深圳-01). Trimmed; no control characters, so a name cannot
 * break a table row or a log line.
 */
export const deviceDisplayNameSchema = z
  .string()
  .trim()
  .min(1, 'display_name must not be empty')
  .max(DEVICE_NAME_MAX_LENGTH, `display_name must be at most ${DEVICE_NAME_MAX_LENGTH} characters`)
  .refine((s) => !hasUnsafeNameChars(s), `display_name ${UNSAFE_NAME_MESSAGE}`);

/**
 * Where `online` came from: the phone's own queue pollers as Temporal reports them, or — when
 * Temporal does not answer — the last registration or claim the admin saw.
 */
type OnlineSource = 'temporal' | 'last_seen';

/** The newest stop of one of the device's purchase attempts. */
export interface DeviceLastError {
  code: string;
  reason_zh: string;
  detail: string | null;
  task_id: string;
  at: string;
}

/**
 * A phone as operators see it (`GET /api/devices`). Online is worked out when read, never
 * stored.
 */
export interface DeviceView {
  device_id: string;
  display_name: string;
  /** the PDD account the phone is logged in as, set on 设备; null: nobody said */
  pdd_account?: string | null;
  online: boolean;
  online_source: OnlineSource;
  app_version: string | null;
  /** the purchase task the phone has claimed and is ordering (CLAIMED or ORDERING) */
  current_task_id: string | null;
  /** since when it holds `current_task_id` */
  claimed_at: string | null;
  last_error: DeviceLastError | null;
  /** set: the phone takes no new claim until an operator resumes it */
  attention: DeviceAttention | null;
  /** the read-screen agent as the worker last reported it; `AGENT_NOT_REPORTED` before any report */
  agent: PhoneAgentReport;
  serial: string | null;
  model: string | null;
  last_seen_at: string | null;
  created_at: string;
  /** phone hosts (docs/phone-hosts.md); a phone issued by hand is `active` with no host */
  state?: PhoneState;
  host_id?: string | null;
  /** the name its phone host was issued under (hosts have names, their ids are for engineers); null: no host */
  host_name?: string | null;
  health?: PhoneHealth | null;
  /** the host's health reading's refusal alone (attention, holds and presence aside) */
  claim_block?: { reason_code: string; message: string } | null;
  /**
   * Why the phone takes no purchase now by the one claim rule (admin/devices/claimability.ts,
   * `ClaimBlock` codes with their words); null: it may
   */
  claim_blocked_by?: { reason_code: string; reason_zh: string } | null;
  /** registered with the admin lately, yet no worker polls its Temporal queue (wrong address or namespace) */
  temporal_missing?: boolean;
  /** the operator holding the phone from the admin (人工操作中); null: automation's */
  held_by?: string | null;
}

/** `POST /api/devices`: the token exists only in this answer. */
export interface IssuedDeviceView {
  device_id: string;
  display_name: string;
  token: string;
  /** what the command for the phone machine is built from (domain/device-worker-command.ts) */
  setup: HostSetupFacts;
}

/**
 * Why a phone needs a person before it may take another claim: an operator paused it, or a
 * purchase on it stopped at a page only a person can clear on the phone (docs/api.md §12.1).
 */
const ATTENTION_REASONS = {
  PAUSED_BY_OPERATOR: '操作员已暂停',
  LOGIN_REQUIRED: '拼多多已退出登录，请在手机上重新登录',
  CAPTCHA_REQUIRED: '出现验证码，请在手机上人工完成验证',
  RISK_FACE: '拼多多要求人脸验证，请在手机上人工完成',
  RISK_SMS: '拼多多要求短信验证，请在手机上人工完成',
  HIERARCHY_UNAVAILABLE:
    '页面一直在变化，读不出页面内容：请在手机上启用读屏代理（UiAutomator2 服务），或关闭该页面的动态内容',
  // found by the read behind 处理完毕，继续 (a stop of its own only on the task)
  UNKNOWN_OVERLAY: '手机上有未识别的弹窗，请在屏幕中关闭后再继续',
} as const satisfies Record<string, string>;
export type AttentionReason = keyof typeof ATTENTION_REASONS;

/** The device failure codes of a purchase stop that put its phone on 需处理. */
const ATTENTION_STOP_CODES: readonly AttentionReason[] = [
  'LOGIN_REQUIRED',
  'CAPTCHA_REQUIRED',
  'RISK_FACE',
  'RISK_SMS',
  // a screen that never goes idle on a phone without a running agent: every retry would stop the same way
  'HIERARCHY_UNAVAILABLE',
];

export function isAttentionReason(code: string): code is AttentionReason {
  return Object.prototype.hasOwnProperty.call(ATTENTION_REASONS, code);
}

export function isAttentionStopCode(code: string): code is AttentionReason {
  return (ATTENTION_STOP_CODES as readonly string[]).includes(code);
}

/** The operator's words for an attention reason; an unknown one (from a newer admin) still shows. */
export function attentionReasonZh(code: string): string {
  return Object.prototype.hasOwnProperty.call(ATTENTION_REASONS, code)
    ? ATTENTION_REASONS[code as AttentionReason]
    : `需处理（${code}）`;
}

export interface DeviceAttention {
  reason_code: string;
  since: string;
}

/**
 * What the phone host asks before it takes a claim (`POST /api/device/status`): whether this
 * phone may take one now, and why not.
 */
export interface DeviceClaimability {
  claimable: boolean;
  /** `check_requested`: 处理完毕，继续 was pressed and a fresh read of the phone is awaited */
  attention: (DeviceAttention & { check_requested?: boolean }) | null;
  /** the phone host's reading stops it (docs/phone-hosts.md "Health"); clears by itself */
  blocked?: { reason_code: string; message: string };
  /** a person holds the phone from the admin (人工操作中): no claim, no automated input */
  held: { held_by: string; since: string } | null;
}

/** `GET /api/app-versions`: the release gate of one PDD app version. */
export interface AppVersionView {
  app_version: string;
  /** a registered device worker reported a page profile for it */
  profile: boolean;
  last_dry_run_passed_at: string | null;
  /** the task of that dry run: what a release rests on */
  last_dry_run_task_id: string | null;
  released: boolean;
  released_at: string | null;
}
