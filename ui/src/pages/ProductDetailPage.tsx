import { createEffect, createResource, createSignal, Show, type JSX } from 'solid-js';
import { getShopeeProduct, setPddLink, startCollect, unlinkPdd } from '../api/endpoints';
import ConfirmDialog from '../components/ConfirmDialog';
import MappingDialog from '../components/catalog/MappingDialog';
import { AddSku, SkuTable } from '../components/catalog/SkuTable';
import StateBadge from '../components/catalog/StateBadge';
import '../components/catalog/catalog.css';
import { errorText } from '../errors';
import { createPoll } from '../lib/poll';
import { formatTime } from '../lib/time';
import { hrefFor, navigate } from '../router';
import DeviceName from '../components/devices/DeviceName';

const COLLECT_STARTED = '已开始采集，等待手机领取';

const POLL_MS = 2_000;

/** 商品详情: SKUs (parse failures marked for completion), the PDD link, collect with live status. */
export default function ProductDetailPage(props: { goodsId: string }): JSX.Element {
  const [product, { refetch, mutate }] = createResource(() => props.goodsId, getShopeeProduct);
  const [message, setMessage] = createSignal<string | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [mapping, setMapping] = createSignal(false);

  // Live status: poll while a collect is running.
  const collecting = (): boolean => {
    const p = product.state === 'ready' ? product() : undefined;
    return p?.pdd?.collect_status === 'collecting' && !p.pdd.collect_stale;
  };
  createPoll(async () => mutate(await getShopeeProduct(props.goodsId)), POLL_MS, { while: collecting });

  const act = async (fn: () => Promise<unknown>, ok: string): Promise<void> => {
    setError(null);
    setMessage(null);
    try {
      await fn();
      // said once the page shows the new state, so the message never stands beside the old one
      await refetch();
      setMessage(ok);
    } catch (err) {
      setError(errorText(err));
    }
  };

  const [url, setUrl] = createSignal('');
  const saveLink = (): Promise<void> =>
    act(async () => {
      await setPddLink(props.goodsId, url());
      setUrl('');
    }, '已保存拼多多链接');
  // The collect's own notice is about a collect on its way: gone once that collect ended, either
  // way (a re-collect starts from 已采集, so the end counts only after the collect was seen running).
  let sawCollecting = false;
  const collect = (pddId: string): Promise<void> => {
    sawCollecting = false;
    return act(() => startCollect(pddId), COLLECT_STARTED);
  };
  createEffect(() => {
    const p = product.state === 'ready' ? product() : undefined;
    const status = p?.pdd?.collect_status;
    if (message() !== COLLECT_STARTED) return;
    if (status === 'collecting' && !p?.pdd?.collect_stale) sawCollecting = true;
    else if (sawCollecting) setMessage(null);
  });
  const [confirmUnlink, setConfirmUnlink] = createSignal(false);
  const [unlinking, setUnlinking] = createSignal(false);
  const unlink = async (): Promise<void> => {
    setUnlinking(true);
    await act(() => unlinkPdd(props.goodsId), '已解除拼多多链接');
    setUnlinking(false);
    setConfirmUnlink(false);
  };

  return (
    <section data-testid="page-product-detail">
      <button type="button" class="btn btn-ghost" onClick={() => navigate('/products')}>
        ← 返回商品列表
      </button>
      <Show when={product.error as unknown}>
        <p class="form-error" role="alert">
          {errorText(product.error)}
        </p>
      </Show>
      <Show when={product.state === 'ready' || product.state === 'refreshing' ? product.latest : undefined}>
        {(p) => (
          <>
            <h2 data-testid="product-title">{p().title}</h2>
            <p class="muted">
              商品ID {p().goods_id}
              <Show when={p().main_sku_code}> · 主商品货号 {p().main_sku_code}</Show>
              <Show when={p().shopee_status}> · {p().shopee_status}</Show> · <StateBadge state={p().state} />
            </p>
            <Show when={message()}>
              <p data-testid="detail-message">{message()}</p>
            </Show>
            <Show when={error()}>
              <p class="form-error" role="alert" data-testid="detail-error">
                {error()}
              </p>
            </Show>

            <div class="card" data-testid="pdd-link-card">
              <h3>拼多多商品</h3>
              <Show when={p().pdd} fallback={<p class="muted">还没有填写拼多多链接。</p>}>
                {(pdd) => (
                  <div data-testid="pdd-status" data-status={pdd().collect_status}>
                    <p>
                      商品 ID <strong data-testid="pdd-goods-id">{pdd().goods_id}</strong>{' '}
                      {pdd().title ? `· ${pdd().title}` : ''}
                      {pdd().shop_name ? ` · ${pdd().shop_name}` : ''} <StateBadge state={pdd().state} />
                    </p>
                    <Show when={pdd().collected_at}>
                      <p class="muted">
                        采集时间 {formatTime(pdd().collected_at)}，{collectedSkuCount(pdd().skus_json)} 个规格
                      </p>
                    </Show>
                    <Show when={pdd().state === 'collecting'}>
                      <p class="muted" data-testid="collect-live">
                        采集中
                        <Show when={pdd().collect_device_id} fallback="（等待手机领取）">
                          {(d) => (
                            <>
                              （设备 <DeviceName deviceId={d()} />）
                            </>
                          )}
                        </Show>
                        …
                      </p>
                    </Show>
                    <Show when={pdd().state === 'failed'}>
                      <p class="form-error" data-testid="collect-failure">
                        采集失败：{pdd().collect_msg ?? pdd().collect_code ?? '原因未知'}
                        <Show when={pdd().artifact_ref}>
                          <br />
                          诊断文件位置：<code data-testid="artifact-ref">{pdd().artifact_ref}</code>
                        </Show>
                      </p>
                    </Show>
                    <button
                      type="button"
                      class="btn btn-primary"
                      data-testid="collect-start"
                      disabled={pdd().state === 'collecting'}
                      onClick={() => void collect(pdd().goods_id)}
                    >
                      {pdd().collect_status === 'pending' ? '开始采集' : '重新采集'}
                    </button>{' '}
                    <button
                      type="button"
                      class="btn"
                      data-testid="mapping-open"
                      disabled={!pdd().skus_json}
                      onClick={() => setMapping(true)}
                    >
                      规格映射
                    </button>{' '}
                    <a class="btn btn-ghost" href={hrefFor(`/pdd/${pdd().goods_id}`)} data-testid="pdd-goods-open">
                      查看拼多多商品
                    </a>{' '}
                    <button
                      type="button"
                      class="btn btn-ghost"
                      data-testid="pdd-unlink"
                      onClick={() => setConfirmUnlink(true)}
                    >
                      解除链接
                    </button>
                    <Show when={confirmUnlink()}>
                      <ConfirmDialog
                        title="解除拼多多链接"
                        message={`解除后商品回到「未填链接」。已做的规格映射跟拼多多商品 ${pdd().goods_id} 保留，重新填同一链接即可恢复。`}
                        confirmLabel="解除链接"
                        testid="unlink-confirm"
                        busy={unlinking()}
                        danger
                        onConfirm={() => void unlink()}
                        onClose={() => setConfirmUnlink(false)}
                      />
                    </Show>
                  </div>
                )}
              </Show>
              <div class="inline-form" style={{ 'margin-top': '8px' }}>
                <input
                  class="input"
                  style={{ width: '420px' }}
                  placeholder="粘贴拼多多商品链接或分享文字"
                  value={url()}
                  onInput={(e) => setUrl(e.currentTarget.value)}
                  data-testid="pdd-url"
                />
                <button
                  type="button"
                  class="btn"
                  disabled={url().trim() === ''}
                  onClick={() => void saveLink()}
                  data-testid="pdd-url-save"
                >
                  {p().pdd ? '更换链接' : '保存链接'}
                </button>
              </div>
            </div>

            <div class="card" style={{ 'margin-top': '12px' }}>
              <h3>SKU</h3>
              <SkuTable
                skus={p().skus}
                act={act}
                collected={Boolean(p().pdd?.skus_json) && p().pdd?.deleted !== true}
              />
              <AddSku goodsId={p().goods_id} act={act} />
            </div>

            <Show when={mapping()}>
              <MappingDialog
                goodsId={p().goods_id}
                onClose={() => {
                  setMapping(false);
                  void refetch();
                }}
              />
            </Show>
          </>
        )}
      </Show>
    </section>
  );
}

/** How many option combinations the stored collect holds; 0 when there is none. */
function collectedSkuCount(skusJson: unknown): number {
  if (typeof skusJson !== 'object' || skusJson === null || !('skus' in skusJson)) return 0;
  return Array.isArray(skusJson.skus) ? skusJson.skus.length : 0;
}
