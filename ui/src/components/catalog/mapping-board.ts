import { createResource, createSignal } from 'solid-js';
import { OPTION_WARNINGS, type MappingBoard, type PddSkuRow } from '../../../../domain/catalog-views';
import { clearMapping, getMappingBoard, setMapping } from '../../api/endpoints';
import { createAction } from '../../lib/action';

/** A PDD row's options as the board's dimensions order them: '黑色 / M'. */
export function optionsLabel(row: { options: Record<string, string> }, dims: MappingBoard['dimensions']): string {
  return (dims.length > 0 ? dims.map((d) => row.options[d.key] ?? '') : Object.values(row.options)).join(' / ');
}

/** 规格映射's data: the board, the Shopee SKU picked, and mapping or clearing one. */
export function createMappingBoard(goodsId: () => string) {
  const [board, { refetch }] = createResource(goodsId, getMappingBoard);
  const [selected, setSelected] = createSignal<string | null>(null);
  const [notice, setNotice] = createSignal<string | null>(null);

  const current = () => (board.state === 'ready' || board.state === 'refreshing' ? board.latest : undefined);
  const selectedSku = () => current()?.shopee_skus.find((s) => s.sku_id === selected());

  // a mapping's warning stays until the next mapping: clearing another SKU does not take it away
  const change = createAction(async (call: () => Promise<unknown>) => {
    await call();
    await refetch();
  });
  const map = (row: PddSkuRow): void => {
    const sku = selected();
    if (!sku) return;
    void change.run(async () => {
      setNotice(null);
      const saved = await setMapping(sku, row.options);
      if (saved.warnings.length > 0)
        setNotice(`已映射，但这个规格${saved.warnings.map((w) => OPTION_WARNINGS[w]).join('、')}，下单前请确认`);
    });
  };
  const clear = (sku: string): void => void change.run(() => clearMapping(sku));

  return { board, current, selected, setSelected, selectedSku, error: change.error, notice, map, clear };
}
export type MappingBoardState = ReturnType<typeof createMappingBoard>;
