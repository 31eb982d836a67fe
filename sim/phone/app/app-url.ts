/** The app's accepted deep links; anything else is not resolvable (sim/phone/SCREENS.md "Navigation, loading and staleness"). */
export function parseAppUrl(url: string): { kind: 'goods'; goodsId: string } | { kind: 'orders'; type: number } | null {
  const m =
    /^(?:https:\/\/mobile\.yangkeduo\.com|pinduoduo:\/\/com\.xunmeng\.pinduoduo)\/([a-z0-9_]+)\.html(?:\?(.*))?$/.exec(
      url,
    );
  if (!m) return null;
  const params = new URLSearchParams(m[2] ?? '');
  if (m[1] === 'goods' || m[1] === 'goods2') {
    const id = params.get('goods_id');
    return id && /^[0-9]+$/.test(id) ? { kind: 'goods', goodsId: id } : null;
  }
  if (m[1] === 'orders') {
    const type = Number(params.get('type') ?? '0');
    return { kind: 'orders', type: type === 1 ? 1 : 0 };
  }
  return null;
}
