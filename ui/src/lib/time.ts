/** The one way the UI shows a time: server timestamps are UTC ('2026-01-02T03:04:05Z'), operators read local time; unknown is '—'. */
export function formatTime(utc: string | null | undefined): string {
  if (!utc) return '—';
  const d = new Date(utc);
  if (Number.isNaN(d.getTime())) return utc;
  return d.toLocaleString('zh-CN', { hour12: false });
}
