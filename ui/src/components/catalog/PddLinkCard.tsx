import { createSignal, Show, type JSX } from 'solid-js';
import type { PddProductView, ProductDetailView } from '../../../../domain/catalog-views';
import { formatTime } from '../../lib/time';
import { hrefFor } from '../../router';
import ConfirmDialog from '../ConfirmDialog';
import { TextInput } from '../TextField';
import DeviceName from '../devices/DeviceName';
import type { ProductDetail } from './product-detail';
import StateBadge from './StateBadge';

/** 拼多多商品 on a product's page: the linked goods, its collect, and setting or changing the link. */
export default function PddLinkCard(props: {
  product: ProductDetailView;
  detail: ProductDetail;
  onMapping: () => void;
  onAutoMapping: () => void;
}): JSX.Element {
  return (
    <div class="card" data-testid="pdd-link-card">
      <h3>拼多多商品</h3>
      <Show when={props.product.pdd} fallback={<p class="muted">还没有填写拼多多链接。</p>}>
        {(pdd) => (
          <div data-testid="pdd-status" data-status={pdd().collect_status}>
            <p>
              商品 ID <strong data-testid="pdd-goods-id">{pdd().goods_id}</strong>{' '}
              {pdd().title ? `· ${pdd().title}` : ''}
              {pdd().shop_name ? ` · ${pdd().shop_name}` : ''} <StateBadge state={pdd().state} />
            </p>
            <CollectState pdd={pdd()} />
            <PddLinkActions
              pdd={pdd()}
              autoMappable={props.product.auto_mappable}
              detail={props.detail}
              onMapping={props.onMapping}
              onAutoMapping={props.onAutoMapping}
            />
          </div>
        )}
      </Show>
      <PddLinkForm linked={props.product.pdd !== null} detail={props.detail} />
    </div>
  );
}

/** When it was collected, the collect under way, or why it failed. */
function CollectState(props: { pdd: PddProductView }): JSX.Element {
  const pdd = (): PddProductView => props.pdd;
  return (
    <>
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
    </>
  );
}

/**
 * 开始采集 / 重新采集, 规格映射, 查看拼多多商品 and 解除链接 (confirmed first). Once collected the
 * next step is the mapping, so it comes first as the primary button — 按文字一致全部映射 while any
 * SKU can be mapped by its text — and 重新采集 steps back.
 */
function PddLinkActions(props: {
  pdd: PddProductView;
  autoMappable: number;
  detail: ProductDetail;
  onMapping: () => void;
  onAutoMapping: () => void;
}): JSX.Element {
  const pdd = (): PddProductView => props.pdd;
  const [confirmUnlink, setConfirmUnlink] = createSignal(false);
  const unlink = async (): Promise<void> => {
    await props.detail.unlink();
    setConfirmUnlink(false);
  };
  const mappingNext = (): boolean => Boolean(pdd().skus_json);
  const collect = (): JSX.Element => (
    <button
      type="button"
      class={mappingNext() ? 'btn' : 'btn btn-primary'}
      data-testid="collect-start"
      disabled={pdd().state === 'collecting'}
      onClick={() => void props.detail.collect(pdd().goods_id)}
    >
      {pdd().collect_status === 'pending' ? '开始采集' : '重新采集'}
    </button>
  );
  const mapping = (): JSX.Element => (
    <>
      <Show when={mappingNext() && props.autoMappable > 0}>
        <button type="button" class="btn btn-primary" data-testid="auto-mapping-open" onClick={props.onAutoMapping}>
          按文字一致全部映射（{props.autoMappable}）
        </button>{' '}
      </Show>
      <button
        type="button"
        class={mappingNext() && props.autoMappable === 0 ? 'btn btn-primary' : 'btn'}
        data-testid="mapping-open"
        disabled={!pdd().skus_json}
        onClick={props.onMapping}
      >
        规格映射
      </button>
    </>
  );
  return (
    <>
      <Show
        when={mappingNext()}
        fallback={
          <>
            {collect()} {mapping()}
          </>
        }
      >
        {mapping()} {collect()}
      </Show>{' '}
      <a class="btn btn-ghost" href={hrefFor(`/pdd/${pdd().goods_id}`)} data-testid="pdd-goods-open">
        查看拼多多商品
      </a>{' '}
      <button type="button" class="btn btn-ghost" data-testid="pdd-unlink" onClick={() => setConfirmUnlink(true)}>
        解除链接
      </button>
      <Show when={confirmUnlink()}>
        <ConfirmDialog
          title="解除拼多多链接"
          message={`解除后商品回到「未填链接」。已做的规格映射跟拼多多商品 ${pdd().goods_id} 保留，重新填同一链接即可恢复。`}
          confirmLabel="解除链接"
          testid="unlink-confirm"
          busy={props.detail.busy()}
          danger
          onConfirm={() => void unlink()}
          onClose={() => setConfirmUnlink(false)}
        />
      </Show>
    </>
  );
}

/** The link or share text to save, the first time or instead of the current one. */
function PddLinkForm(props: { linked: boolean; detail: ProductDetail }): JSX.Element {
  const [url, setUrl] = createSignal('');
  return (
    <div class="inline-form" style={{ 'margin-top': '8px' }}>
      <TextInput
        style={{ width: '420px' }}
        placeholder="粘贴拼多多商品链接或分享文字"
        value={url()}
        onValue={setUrl}
        testid="pdd-url"
      />
      <button
        type="button"
        class="btn"
        disabled={url().trim() === ''}
        onClick={() => void props.detail.saveLink(url(), () => setUrl(''))}
        data-testid="pdd-url-save"
      >
        {props.linked ? '更换链接' : '保存链接'}
      </button>
    </div>
  );
}

/** How many option combinations the stored collect holds; 0 when there is none. */
function collectedSkuCount(skusJson: unknown): number {
  if (typeof skusJson !== 'object' || skusJson === null || !('skus' in skusJson)) return 0;
  return Array.isArray(skusJson.skus) ? skusJson.skus.length : 0;
}
