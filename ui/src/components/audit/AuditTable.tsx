import { createSignal, Show, type JSX } from 'solid-js';
import type { AuditListItem } from '../../../../domain/audit-views';
import { formatTime } from '../../lib/time';
import { hrefFor } from '../../router';
import { ListTable } from '../ListParts';
import { actionLabel, actorLabel, targetKindLabel } from './labels';

const COLUMNS = ['时间', '操作人', '操作', '对象', '详情'] as const;
/** Longer details fold to one line of this many characters. */
const FOLDED_CHARS = 80;

/** 审计日志's rows: 时间 / 操作人 / 操作 / 对象 / 详情, newest first. */
export default function AuditTable(props: {
  items: readonly AuditListItem[];
  loading: boolean;
  /** device id → the phone's name on 设备 */
  phoneNames: ReadonlyMap<string, string>;
}): JSX.Element {
  return (
    <ListTable
      testid="audit-table"
      columns={COLUMNS}
      items={props.items}
      loading={props.loading}
      empty="没有符合条件的记录"
    >
      {(row) => (
        <tr data-testid="audit-row" data-action={row.action}>
          <td class="au-time">{formatTime(row.at)}</td>
          <td data-testid="audit-actor">{actorLabel(row.actor, props.phoneNames)}</td>
          <td data-testid="audit-action" title={row.action}>
            {actionLabel(row.action)}
          </td>
          <td data-testid="audit-target">
            <Target target={row.target} phoneNames={props.phoneNames} />
          </td>
          <td>
            <Details details={row.details} />
          </td>
        </tr>
      )}
    </ListTable>
  );
}

/** A task opens its page, a phone 设备, a goods its page; anything else is named. */
function Target(props: { target: AuditListItem['target']; phoneNames: ReadonlyMap<string, string> }): JSX.Element {
  return (
    <Show when={props.target} fallback={<span class="muted">—</span>}>
      {(t) => {
        const href = (): string | null => {
          const id = encodeURIComponent(t().id);
          switch (t().kind) {
            case 'task':
              return `/tasks/${id}`;
            case 'device':
              return '/devices';
            case 'shopee_product':
              return `/products/${id}`;
            case 'pdd_product':
              return `/pdd/${id}`;
            default:
              return null;
          }
        };
        const name = (): string => (t().kind === 'device' ? (props.phoneNames.get(t().id) ?? t().id) : t().id);
        return (
          <>
            {targetKindLabel(t().kind)}{' '}
            <Show when={href()} fallback={<span class="au-id">{name()}</span>}>
              {(h) => (
                <a href={hrefFor(h())} class="au-id" data-testid="audit-target-link">
                  {name()}
                </a>
              )}
            </Show>
          </>
        );
      }}
    </Show>
  );
}

/** The details as compact JSON on one line; a long one folds and opens in place. */
function Details(props: { details: unknown }): JSX.Element {
  const [open, setOpen] = createSignal(false);
  const text = (): string => (props.details === null ? '' : JSON.stringify(props.details));
  const long = (): boolean => text().length > FOLDED_CHARS;
  return (
    <Show when={text() !== ''} fallback={<span class="muted">—</span>}>
      <Show
        when={open()}
        fallback={
          <code class="au-details" data-testid="audit-details">
            {long() ? `${text().slice(0, FOLDED_CHARS)}…` : text()}
          </code>
        }
      >
        <pre class="au-details au-details-open" data-testid="audit-details">
          {JSON.stringify(props.details, null, 2)}
        </pre>
      </Show>
      <Show when={long()}>
        <button
          type="button"
          class="btn btn-ghost au-toggle"
          data-testid="audit-details-toggle"
          onClick={() => setOpen(!open())}
        >
          {open() ? '收起' : '展开'}
        </button>
      </Show>
    </Show>
  );
}
