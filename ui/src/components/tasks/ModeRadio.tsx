import { Show, type JSX } from 'solid-js';
import type { ExecutionMode } from './types';

interface Props {
  value: ExecutionMode;
  onChange: (mode: ExecutionMode) => void;
}

export default function ModeRadio(props: Props): JSX.Element {
  return (
    <fieldset class="tk-fieldset" data-testid="mode-radio">
      <legend class="field-label">执行模式</legend>
      <label class="tk-radio">
        <input
          type="radio"
          name="execution_mode"
          value="dry_run"
          data-testid="mode-dry-run"
          checked={props.value === 'dry_run'}
          onChange={() => props.onChange('dry_run')}
        />
        试运行（走到最终提交面板并核对三道价格闸门，不点击提交）
      </label>
      <label class="tk-radio">
        <input
          type="radio"
          name="execution_mode"
          value="live"
          data-testid="mode-live"
          checked={props.value === 'live'}
          onChange={() => props.onChange('live')}
        />
        真实下单
      </label>
      <Show when={props.value === 'live'}>
        <p class="tk-warn" role="alert" data-testid="mode-live-warning">
          真实下单：开始采购后，手机会在拼多多点击一次「提交订单」，创建一笔待付款订单（不会付款）。请确认商品链接、规格、数量和最高总价无误。
        </p>
      </Show>
    </fieldset>
  );
}
