import { claimBlockZh, type WaitingFor } from '../../domain/claimability';
import type { DraftWarning } from '../../domain/purchase/views';
import type { AdminDb } from '../db/database';
import { phoneClaimStates, unreleasedPhones, waitingFor, type PhoneClaimState } from '../devices/claimability';

/**
 * What the phones say about a live or waiting purchase, from the one claim rule
 * (admin/devices/claimability.ts): APP_VERSION_NOT_RELEASED before a live purchase no phone could
 * submit today, NO_PHONE_CAN_CLAIM on a started task no phone will take without a person, and
 * the phones it waits for.
 */

type Mode = 'live' | 'dry_run';
const modeOf = (mode: string | null | undefined): Mode => (mode === 'live' ? 'live' : 'dry_run');

/** A live task in these states has not reached the fence yet: the release gate still lies ahead. */
const BEFORE_FENCE: ReadonlySet<string> = new Set(['DRAFT', 'PENDING', 'CLAIMED', 'ORDERING']);
const gated = (task: { status: string; execution_mode: string | null }): boolean =>
  modeOf(task.execution_mode) === 'live' && BEFORE_FENCE.has(task.status);

/** The release gate's warning, naming the versions and the phones on them; null when a phone could submit. */
function releaseGateWarning(phones: readonly PhoneClaimState[]): DraftWarning | null {
  const unreleased = unreleasedPhones(phones);
  if (!unreleased) return null;
  const byVersion = new Map<string, string[]>();
  for (const p of unreleased) {
    const v = p.app_version ?? '未知版本';
    byVersion.set(v, [...(byVersion.get(v) ?? []), p.display_name]);
  }
  const list = [...byVersion].map(([v, names]) => `${v}（${names.join('、')}）`).join('、');
  return {
    code: 'APP_VERSION_NOT_RELEASED',
    message: `没有手机的拼多多版本已发布用于真实下单：${list}。真实下单会在提交前被拦下、不会点击提交；请先用该版本的手机试运行通过，再到「设备 → 拼多多版本」发布`,
  };
}

/** NO_PHONE_CAN_CLAIM: nobody takes the task until a person acts, with each phone's reason. */
function noPhoneWarning(waiting: readonly WaitingFor[]): DraftWarning {
  return {
    code: 'NO_PHONE_CAN_CLAIM',
    message:
      waiting.length === 0
        ? '没有手机能领取这个任务：还没有可用的手机，请先在「设备」页添加手机'
        : `没有手机能领取这个任务：${waiting.map((w) => `${w.display_name}（${claimBlockZh(w.reason_code)}）`).join('、')}。处理后空闲的手机会自动领取`,
  };
}

/** A task's warnings from the phones and who it waits for, for its status and mode. */
export function claimWarningsOf(
  phones: readonly PhoneClaimState[],
  task: { status: string; execution_mode: string | null },
): { warnings: DraftWarning[]; waiting_for: WaitingFor[] } {
  const mode = modeOf(task.execution_mode);
  const warnings: DraftWarning[] = [];
  const gate = gated(task) ? releaseGateWarning(phones) : null;
  if (gate) warnings.push(gate);
  if (task.status !== 'PENDING') return { warnings, waiting_for: [] };
  const wait = waitingFor(phones, mode);
  if (wait.stuck) warnings.push(noPhoneWarning(wait.waiting_for));
  return { warnings, waiting_for: wait.waiting_for };
}

/** `claimWarningsOf` for one task, reading the phones. */
export async function claimWarnings(
  db: AdminDb,
  task: { status: string; execution_mode: string | null },
): Promise<{ warnings: DraftWarning[]; waiting_for: WaitingFor[] }> {
  if (!gated(task) && task.status !== 'PENDING') return { warnings: [], waiting_for: [] };
  return claimWarningsOf(await phoneClaimStates(db), task);
}

/** The release gate's warning for the task list, read once per answer (it follows no task). */
export async function liveGateWarnings(db: AdminDb): Promise<DraftWarning[]> {
  const gate = releaseGateWarning(await phoneClaimStates(db));
  return gate ? [gate] : [];
}
