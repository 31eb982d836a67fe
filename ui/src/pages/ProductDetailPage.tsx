import { createSignal, Show, type JSX } from 'solid-js';
import ErrorMessage from '../components/ErrorMessage';
import AutoMappingDialog from '../components/catalog/AutoMappingDialog';
import MappingDialog from '../components/catalog/MappingDialog';
import PddLinkCard from '../components/catalog/PddLinkCard';
import { createProductDetail } from '../components/catalog/product-detail';
import { AddSku, SkuTable } from '../components/catalog/SkuTable';
import StateBadge from '../components/catalog/StateBadge';
import '../components/catalog/catalog.css';
import { errorText } from '../errors';
import { navigate } from '../router';

/** 商品详情: SKUs (parse failures marked for completion), the PDD link, collect with live status. */
export default function ProductDetailPage(props: { goodsId: string }): JSX.Element {
  const detail = createProductDetail(() => props.goodsId);
  const { product, message, error, act } = detail;
  const [mapping, setMapping] = createSignal(false);
  const [autoMapping, setAutoMapping] = createSignal(false);

  return (
    <section data-testid="page-product-detail">
      <button type="button" class="btn btn-ghost" onClick={() => navigate('/products')}>
        ← 返回商品列表
      </button>
      <ErrorMessage message={product.error ? errorText(product.error) : null} />
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
            <ErrorMessage testid="detail-error" message={error()} />

            <PddLinkCard
              product={p()}
              detail={detail}
              onMapping={() => setMapping(true)}
              onAutoMapping={() => setAutoMapping(true)}
            />

            <div class="card" style={{ 'margin-top': '12px' }}>
              <h3>SKU</h3>
              <SkuTable
                skus={p().skus}
                act={act}
                collected={Boolean(p().pdd?.skus_json) && p().pdd?.deleted !== true}
              />
              <AddSku goodsId={p().goods_id} act={act} />
            </div>

            <Show when={autoMapping()}>
              <AutoMappingDialog
                goodsId={p().goods_id}
                onClose={() => setAutoMapping(false)}
                onDone={(count) => {
                  setAutoMapping(false);
                  void detail.changed(`已按文字一致映射 ${count} 个 SKU`);
                }}
              />
            </Show>
            <Show when={mapping()}>
              <MappingDialog
                goodsId={p().goods_id}
                onClose={() => {
                  setMapping(false);
                  void detail.refetch();
                }}
              />
            </Show>
          </>
        )}
      </Show>
    </section>
  );
}
