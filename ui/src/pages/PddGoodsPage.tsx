import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import type { CollectRunView } from '../../../domain/catalog-views';
import { getPddProduct, startCollect } from '../api/endpoints';
import OptionWarnings from '../components/catalog/OptionWarnings';
import PriceNote from '../components/catalog/PriceNote';
import PriceSource from '../components/catalog/PriceSource';
import StateBadge from '../components/catalog/StateBadge';
import '../components/catalog/catalog.css';
import { errorText } from '../errors';
import { formatYuan } from '../lib/money';
import { createPoll } from '../lib/poll';
import { formatTime } from '../lib/time';
import { hrefFor, navigate } from '../router';
import { collectRunStatusZh } from '../../../domain/collect-labels';
import DeviceName from '../components/devices/DeviceName';

const POLL_MS = 3_000;

/** PDD 商品详情: every collected option with price and stock, the goods' figures, the last collects. */
export default function PddGoodsPage(props: { pddGoodsId: string }): JSX.Element {
  const [goods, { refetch, mutate }] = createResource(() => props.pddGoodsId, getPddProduct);
  const [error, setError] = createSignal<string | null>(null);
  const current = () => (goods.state === 'ready' || goods.state === 'refreshing' ? goods.latest : undefined);
  createPoll(async () => mutate(await getPddProduct(props.pddGoodsId)), POLL_MS, {
    while: () => current()?.state === 'collecting',
  });

  const collect = async (): Promise<void> => {
    setError(null);
    try {
      await startCollect(props.pddGoodsId);
      await refetch();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section data-testid="page-pdd-goods">
      <button type="button" class="btn btn-ghost" onClick={() => navigate('/pdd')}>
        ← 返回拼多多商品列表
      </button>
      <Show when={goods.error as unknown}>
        <p class="form-error" role="alert" data-testid="pdd-goods-error">
          {errorText(goods.error)}
        </p>
      </Show>
      <Show when={error()}>
        <p class="form-error" role="alert">
          {error()}
        </p>
      </Show>
      <Show when={current()}>
        {(g) => (
          <>
            <h2 data-testid="pdd-goods-title">{g().title ?? `拼多多商品 ${g().goods_id}`}</h2>
            <p class="muted">
              商品 ID {g().goods_id}
              <Show when={g().shop_name}> · {g().shop_name}</Show> · <StateBadge state={g().state} />
              <Show when={g().metrics?.sales_text}>{(s) => <span data-testid="pdd-goods-sales"> · {s()}</span>}</Show>
              {' · '}
              <a href={g().canonical_url} target="_blank" rel="noopener noreferrer">
                打开拼多多页面
              </a>
            </p>
            <p>
              <button
                type="button"
                class="btn btn-primary"
                data-testid="pdd-goods-collect"
                disabled={g().state === 'collecting'}
                onClick={() => void collect()}
              >
                {g().collect_status === 'pending' ? '采集' : '重新采集'}
              </button>
              <Show when={g().state === 'failed' && g().collect_msg}>
                <span class="form-error after-text"> 采集失败：{g().collect_msg}</span>
              </Show>
            </p>

            <div class="card">
              <h3>
                规格
                <Show when={g().collected_at}>
                  <span class="list-total">采集于 {formatTime(g().collected_at)}</span>
                </Show>
              </h3>
              <p>
                <PriceNote rows={g().skus} />
              </p>
              <table class="cat-table" data-testid="pdd-goods-skus">
                <thead>
                  <tr>
                    <For each={g().dimensions}>{(d) => <th>{d.name}</th>}</For>
                    <th>价格</th>
                    <th>库存</th>
                  </tr>
                </thead>
                <tbody>
                  <For
                    each={g().skus}
                    fallback={
                      <tr>
                        <td colSpan={g().dimensions.length + 2} class="muted">
                          还没有采集结果
                        </td>
                      </tr>
                    }
                  >
                    {(row) => (
                      <tr
                        data-testid="pdd-goods-sku"
                        data-option-key={row.option_key}
                        data-available={row.available ? '1' : '0'}
                      >
                        <For each={g().dimensions}>{(d) => <td>{row.options[d.key] ?? ''}</td>}</For>
                        <td data-testid="pdd-goods-sku-price">
                          {row.price_cent === null ? '未知' : formatYuan(row.price_cent)}
                          <PriceSource row={row} />
                        </td>
                        <td data-testid="pdd-goods-sku-stock">
                          {row.available ? '有货' : ''}
                          <OptionWarnings warnings={row.warnings.filter((w) => w !== 'PRICE_UNKNOWN')} />
                        </td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
            </div>

            <div class="card" style={{ 'margin-top': '12px' }}>
              <h3>关联的虾皮商品</h3>
              <For each={g().linked_products} fallback={<p class="muted">没有虾皮商品指向这个拼多多商品</p>}>
                {(p) => (
                  <p>
                    <a href={hrefFor(`/products/${p.goods_id}`)}>{p.goods_id}</a> · {p.title}
                  </p>
                )}
              </For>
            </div>

            <div class="card" style={{ 'margin-top': '12px' }}>
              <h3>最近采集</h3>
              <table class="cat-table" data-testid="pdd-goods-collects">
                <thead>
                  <tr>
                    <th>开始时间</th>
                    <th>结果</th>
                    <th>设备</th>
                    <th>结束时间</th>
                  </tr>
                </thead>
                <tbody>
                  <For
                    each={g().recent_collects}
                    fallback={
                      <tr>
                        <td colSpan={4} class="muted">
                          还没有采集过
                        </td>
                      </tr>
                    }
                  >
                    {(run: CollectRunView) => (
                      <tr data-testid="pdd-goods-collect-run" data-status={run.status}>
                        <td>{formatTime(run.created_at)}</td>
                        <td>
                          {collectRunStatusZh(run.status) ?? '未知状态'}
                          <Show when={run.error_message}>
                            <div class="form-error">{run.error_message}</div>
                          </Show>
                        </td>
                        <td>
                          <DeviceName deviceId={run.device_id} />
                        </td>
                        <td>{formatTime(run.finished_at)}</td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
            </div>
          </>
        )}
      </Show>
    </section>
  );
}
