import { Show, type Component, type JSX } from 'solid-js';
import { Dynamic } from 'solid-js/web';

/**
 * A list page's shell: the detail of the row the route names (`id`, from route-table.ts), else
 * the list. Keyed, so another id is a fresh detail page, never the last one's state.
 */
export default function ListOrDetail(props: {
  id: string | null;
  list: Component;
  detail: (id: string) => JSX.Element;
}): JSX.Element {
  return (
    <Show when={props.id} keyed fallback={<Dynamic component={props.list} />}>
      {(id) => props.detail(id)}
    </Show>
  );
}
