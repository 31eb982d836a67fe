/** How long ago `since` was, as an operator reads it on the 设备 page: 「3 分钟」, 「2 小时 5 分钟」. */
export function ageZh(since: string | null, now: number = Date.now()): string {
  if (!since) return '—';
  const ms = now - new Date(since).getTime();
  if (!Number.isFinite(ms)) return '—';
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 1) return '不到 1 分钟';
  if (minutes < 60) return `${minutes} 分钟`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} 小时` : `${hours} 小时 ${minutes % 60} 分钟`;
}
