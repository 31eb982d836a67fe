import type { JSX } from 'solid-js';
import { formatYuan } from '../lib/money';
import './components.css';

interface Props {
  count: number;
  capSumCents: number;
  busy: boolean;
  onStart: () => void;
  onClear: () => void;
}

export default function SelectionBar(props: Props): JSX.Element {
  return (
    <div class="tk-selbar" data-testid="selection-bar">
      <span data-testid="selection-summary">
        已选 <strong data-testid="selection-count">{props.count}</strong> 个任务，最高总额合计{' '}
        <strong data-testid="selection-sum">{formatYuan(props.capSumCents)}</strong>
      </span>
      <button type="button" class="btn btn-ghost" data-testid="selection-clear" onClick={() => props.onClear()}>
        清除选择
      </button>
      <button
        type="button"
        class="btn btn-primary"
        data-testid="start-selected"
        disabled={props.count === 0 || props.busy}
        onClick={() => props.onStart()}
      >
        开始采购（只创建待付款订单）
      </button>
    </div>
  );
}
