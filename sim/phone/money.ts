/** Integer cents → `12.56`; prices never pass through floating point. */
export function formatCent(cent: number): string {
  const sign = cent < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cent));
  const yuan = Math.floor(abs / 100);
  const fen = abs % 100;
  return `${sign}${yuan}.${fen < 10 ? '0' : ''}${fen}`;
}

export function formatYuan(cent: number, coupon = false): string {
  return `${coupon ? '券后' : ''}¥${formatCent(cent)}`;
}

export function formatRange(minCent: number, maxCent: number, coupon = false): string {
  if (minCent === maxCent) return formatYuan(minCent, coupon);
  return `${coupon ? '券后' : ''}¥${formatCent(minCent)}-${formatCent(maxCent)}`;
}
