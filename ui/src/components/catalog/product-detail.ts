import { createEffect, createResource } from 'solid-js';
import type { ProductDetailView } from '../../../../domain/catalog-views';
import { getShopeeProduct, setPddLink, startCollect, unlinkPdd } from '../../api/endpoints';
import { createAction } from '../../lib/action';
import { createPoll } from '../../lib/poll';

const COLLECT_STARTED = '已开始采集，等待手机领取';

const POLL_MS = 2_000;

/**
 * One Shopee product as its page shows it, polled while its collect runs, and the page's actions:
 * each runs, reloads the product, then says what it did (or the error).
 */
export function createProductDetail(goodsId: () => string) {
  const [product, { refetch, mutate }] = createResource(goodsId, getShopeeProduct);
  const ready = (): ProductDetailView | undefined => (product.state === 'ready' ? product() : undefined);

  // Live status: poll while a collect is running.
  const collecting = (): boolean => {
    const p = ready();
    return p?.pdd?.collect_status === 'collecting' && !p.pdd.collect_stale;
  };
  createPoll(async () => mutate(await getShopeeProduct(goodsId())), POLL_MS, { while: collecting });

  const action = createAction(
    async (fn: () => Promise<unknown>, ok: string) => {
      await fn();
      // said once the page shows the new state, so the message never stands beside the old one
      await refetch();
      return ok;
    },
    { success: (ok) => ok },
  );
  const act = action.run;
  const message = action.notice;

  /** `saved` runs once the link is stored, before the page reloads (the form clears itself). */
  const saveLink = (url: string, saved: () => void): Promise<unknown> =>
    act(async () => {
      await setPddLink(goodsId(), url);
      saved();
    }, '已保存拼多多链接');
  // The collect's own notice is about a collect on its way: gone once that collect ended, either
  // way (a re-collect starts from 已采集, so the end counts only after the collect was seen running).
  let sawCollecting = false;
  const collect = (pddId: string): Promise<unknown> => {
    sawCollecting = false;
    return act(() => startCollect(pddId), COLLECT_STARTED);
  };
  createEffect(() => {
    const p = ready();
    const status = p?.pdd?.collect_status;
    if (message() !== COLLECT_STARTED) return;
    if (status === 'collecting' && !p?.pdd?.collect_stale) sawCollecting = true;
    else if (sawCollecting) action.setNotice(null);
  });
  const unlink = (): Promise<unknown> => act(() => unlinkPdd(goodsId()), '已解除拼多多链接');
  /** A change a dialog made (按文字一致全部映射): the page reloads, then says it. */
  const changed = (ok: string): Promise<unknown> => act(() => Promise.resolve(), ok);

  return {
    product,
    refetch,
    message,
    error: action.error,
    busy: action.busy,
    act,
    saveLink,
    collect,
    unlink,
    changed,
  };
}
export type ProductDetail = ReturnType<typeof createProductDetail>;
