import { For, type JSX } from 'solid-js';
import { OPTION_WARNINGS, type OptionWarning } from '../../../../domain/catalog-views';

/** 「缺货」/「价格未知」 beside an option: mapping or buying it is allowed, but worth a second look. */
export default function OptionWarnings(props: { warnings: readonly OptionWarning[] }): JSX.Element {
  return (
    <For each={props.warnings}>
      {(w) => (
        <span class="badge badge-warn after-text" data-testid="option-warning" data-warning={w}>
          {OPTION_WARNINGS[w]}
        </span>
      )}
    </For>
  );
}
