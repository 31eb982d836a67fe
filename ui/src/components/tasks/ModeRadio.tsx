import { For, Show, type JSX } from 'solid-js';
import type { ExecutionMode } from './types';

interface Props {
  value: ExecutionMode;
  onChange: (mode: ExecutionMode) => void;
}

const MODES: ReadonlyArray<{ mode: ExecutionMode; testid: string; label: string }> = [
  { mode: 'dry_run', testid: 'mode-dry-run', label: '试运行（走到最终提交面板并核对三道价格闸门，不点击提交）' },
  { mode: 'live', testid: 'mode-live', label: '真实下单' },
];

export default function ModeRadio(props: Props): JSX.Element {
  return (
    <fieldset class="tk-fieldset" data-testid="mode-radio">
      <legend class="field-label">执行模式</legend>
      <For each={MODES}>
        {(m) => (
          <label class="tk-radio">
            <input
              type="radio"
              name="execution_mode"
              value={m.mode}
              data-testid={m.testid}
              checked={props.value === m.mode}
              onChange={() => props.onChange(m.mode)}
            />
            {m.label}
          </label>
        )}
      </For>
      <Show when={props.value === 'live'}>
        <p class="tk-warn" role="alert" data-testid="mode-live-warning">
          真实下单：开始采购后，手机会在拼多多点击一次「提交订单」，创建一笔待付款订单（不会付款）。请确认商品链接、规格、数量和最高总价无误。
        </p>
      </Show>
    </fieldset>
  );
}
