import { createSignal, For, Show, type JSX } from 'solid-js';
import type { ScreenNode } from '../../../../domain/screen-nodes';
import { getScreenNodes } from '../../api/endpoints';
import { createAction } from '../../lib/action';
import ErrorMessage from '../ErrorMessage';
import RawDetail from '../tasks/RawDetail';
import { nodeZh } from './overlay-entry';

/**
 * 从屏幕读取: what the held phone's worker last read (never a payment screen), listed so the
 * operator marks the popup's texts and its close control instead of typing them. The phone must
 * be held by this operator: its worker reads it only then.
 */
export default function ScreenNodesPicker(props: {
  deviceId: string;
  held: boolean;
  onSignature: (node: ScreenNode) => void;
  onClose: (node: ScreenNode) => void;
}): JSX.Element {
  const [nodes, setNodes] = createSignal<ScreenNode[] | null>(null);
  const [picked, setPicked] = createSignal<ScreenNode | null>(null);
  const load = createAction(async () => {
    const view = await getScreenNodes(props.deviceId);
    setPicked(null);
    setNodes(view.nodes);
    return view;
  });

  return (
    <div class="field ov-nodes" data-testid="teach-overlay-nodes">
      <div class="ov-nodes-head">
        <button
          type="button"
          class="btn"
          data-testid="teach-overlay-read"
          disabled={!props.held || load.busy()}
          title={props.held ? undefined : '先接管这台手机，才能读取它屏幕上的内容'}
          onClick={() => void load.run()}
        >
          {load.busy() ? '正在读取…' : '从屏幕读取'}
        </button>
        <span class="muted tk-hint">读取手机正显示的文字和按钮，点一项把它加为弹窗文字或设为关闭按钮。</span>
      </div>
      <ErrorMessage testid="teach-overlay-read-error" message={load.error()} />
      <Show when={nodes()}>
        {(list) => (
          <Show
            when={list().length > 0}
            fallback={
              <p class="muted" data-testid="teach-overlay-nodes-none">
                还没有读到这台手机的屏幕：接管后稍等一两秒再读取（支付页面不会被读取）。
              </p>
            }
          >
            <ul class="ov-node-list">
              <For each={list()}>
                {(node) => (
                  <li>
                    <button
                      type="button"
                      class="ov-node"
                      classList={{ 'ov-node-picked': picked() === node }}
                      data-testid="teach-overlay-node"
                      onClick={() => setPicked(node)}
                    >
                      {nodeZh(node)}
                      {node.clickable ? '（可点）' : ''}
                    </button>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        )}
      </Show>
      <Show when={picked()}>
        {(node) => <NodeActions node={node()} onSignature={props.onSignature} onClose={props.onClose} />}
      </Show>
    </div>
  );
}

/** What a marked node becomes: one of the popup's texts, or the control that closes it. */
function NodeActions(props: {
  node: ScreenNode;
  onSignature: (node: ScreenNode) => void;
  onClose: (node: ScreenNode) => void;
}): JSX.Element {
  const hasWords = (): boolean => props.node.text !== '' || props.node.content_desc !== '';
  return (
    <div class="ov-buttons" data-testid="teach-overlay-node-actions">
      <span>已选：{nodeZh(props.node)}</span>
      <button
        type="button"
        class="btn"
        data-testid="teach-overlay-node-signature"
        disabled={!hasWords()}
        title={hasWords() ? undefined : '这一项没有文字或描述，手机无法靠它认出弹窗'}
        onClick={() => props.onSignature(props.node)}
      >
        加为弹窗文字
      </button>
      <button
        type="button"
        class="btn"
        data-testid="teach-overlay-node-close"
        onClick={() => props.onClose(props.node)}
      >
        设为关闭按钮
      </button>
      <RawDetail
        detail={JSON.stringify({
          class: props.node.class,
          resource_id: props.node.resource_id,
          bounds: props.node.bounds,
        })}
        testId="teach-overlay-node-raw"
      />
    </div>
  );
}
