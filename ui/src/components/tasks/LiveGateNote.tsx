import { For, type JSX } from 'solid-js';
import { hrefFor } from '../../router';

/**
 * The release gate above a list with live tasks: no phone runs a released PDD version, so each
 * of them would stop before 提交订单. Where to release it is one click away.
 */
export default function LiveGateNote(props: {
  warnings: ReadonlyArray<{ code: string; message: string }>;
}): JSX.Element {
  return (
    <For each={props.warnings}>
      {(w) => (
        <p class="tk-notice tk-warn" role="note" data-testid="task-live-gate" data-code={w.code}>
          {w.message} <a href={hrefFor('/devices')}>前往「设备 → 拼多多版本」</a>
        </p>
      )}
    </For>
  );
}
