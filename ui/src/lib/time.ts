import { phaseOf } from '../../../domain/purchase/state-machine';

/** The one way the UI shows a time: server timestamps are UTC ('2026-01-02T03:04:05Z'), operators read local time; unknown is '—'. */
export function formatTime(utc: string | null | undefined): string {
  if (!utc) return '—';
  const d = new Date(utc);
  if (Number.isNaN(d.getTime())) return utc;
  return d.toLocaleString('zh-CN', { hour12: false });
}

/** States the workflow moves on its own (domain/purchase/state-machine.ts): 用时 is still running. */
const moving = (status: string): boolean => phaseOf(status) === 'running';

/**
 * 用时: from the start to the end, or to the stop a person must act on (the admin sends
 * `duration_seconds` for both); 进行中 while a phone works on it, — for a draft.
 */
export function durationText(t: { status: string; duration_seconds: number | null }): string {
  if (t.duration_seconds !== null) {
    const s = t.duration_seconds;
    if (s < 60) return `${s}秒`;
    if (s < 3600) return `${Math.floor(s / 60)}分${s % 60}秒`;
    return `${Math.floor(s / 3600)}小时${Math.floor((s % 3600) / 60)}分`;
  }
  return moving(t.status) ? '进行中' : '—';
}
