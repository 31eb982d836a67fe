import { For, Show, type JSX } from 'solid-js';
import { TIMELINE_STEP_ZH } from '../../../../domain/purchase-labels';
import { formatTime } from '../../lib/time';
import { detailZh } from './details';
import RawDetail from './RawDetail';
import { isReasonCode, reasonZh } from './reasons';
import { isTimelineEntry, isPurchaseStatus, statusZh, type TimelineEntry } from './types';

function stepZh(status: string): string {
  if (isPurchaseStatus(status)) return statusZh(status);
  return Object.prototype.hasOwnProperty.call(TIMELINE_STEP_ZH, status)
    ? TIMELINE_STEP_ZH[status as keyof typeof TIMELINE_STEP_ZH]
    : '其他记录';
}

/**
 * The entry's detail in Chinese (from its facts), or folded under 技术详情: the permitted
 * submission's id is for engineers matching it with the phone's ledger, not for the operator.
 */
function Detail(props: { entry: TimelineEntry }): JSX.Element {
  const zh = (): string | null => detailZh(props.entry);
  return (
    <Show when={zh()} fallback={<RawDetail detail={props.entry.detail} />}>
      {(text) => <span class="muted">{text()}</span>}
    </Show>
  );
}

export default function Timeline(props: { entries: readonly unknown[] }): JSX.Element {
  // Entries are the workflow's own records; anything not shaped like one is skipped, not guessed.
  const entries = (): TimelineEntry[] => props.entries.filter(isTimelineEntry);
  return (
    <div class="card tk-section" data-testid="timeline">
      <h2 class="tk-section-title">执行记录</h2>
      <Show when={entries().length > 0} fallback={<p class="muted">暂无记录</p>}>
        <ol class="tk-timeline">
          <For each={entries()}>
            {(e) => (
              <li data-testid="timeline-entry" data-status={e.status} data-reason={e.reason ?? ''}>
                <span class="tk-time">{formatTime(e.at)}</span>
                <strong>{stepZh(e.status)}</strong>
                <Show when={e.reason}>
                  {(r) => (
                    <>
                      <span>{reasonZh(r(), e.status)}</span>
                      <Show when={!isReasonCode(r())}>
                        <RawDetail detail={`reason ${r()}`} />
                      </Show>
                    </>
                  )}
                </Show>
                <Detail entry={e} />
                <Show when={e.actor}>{(a) => <span class="muted">操作人 {a()}</span>}</Show>
              </li>
            )}
          </For>
        </ol>
      </Show>
    </div>
  );
}
