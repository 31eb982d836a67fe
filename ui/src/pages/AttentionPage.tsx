import { For, Show, type JSX } from 'solid-js';
import type { AttentionItem } from '../../../domain/attention';
import ErrorMessage from '../components/ErrorMessage';
import {
  ATTENTION_PAGE_POLL_MS,
  attentionError,
  attentionItems,
  attentionLoadedAt,
  enableNotifications,
  loadAttention,
  notifyState,
} from '../components/attention/attention-queue';
import '../components/tasks/tasks.css';
import { createPoll } from '../lib/poll';
import { formatTime } from '../lib/time';
import { hrefFor } from '../router';
import { pathOf, ROUTES } from '../route-table';

/** 需处理: the phones and tasks waiting for a person, oldest first; the navigation keeps it fresh. */
export default function AttentionPage(): JSX.Element {
  createPoll(loadAttention, ATTENTION_PAGE_POLL_MS, { immediate: true });
  return (
    <section class="page" data-testid="page-attention">
      <div class="tk-head">
        <div>
          <h1 class="page-title">需处理</h1>
          <p class="page-summary">等待人工处理的手机和任务，等得最久的在前；每 5 秒自动刷新。</p>
        </div>
        <div class="tk-actions">
          <span class="muted" data-testid="attention-loaded-at">
            {attentionLoadedAt() ? `更新于 ${formatTime(attentionLoadedAt())}` : ''}
          </span>
          <NotifyButton />
        </div>
      </div>
      <ErrorMessage testid="attention-error" message={attentionError()} />
      <Show when={attentionItems()} fallback={<p class="muted">正在加载…</p>}>
        {(list) => (
          <Show
            when={list().length > 0}
            fallback={
              <p class="muted" data-testid="attention-empty">
                没有需要处理的手机或任务。
              </p>
            }
          >
            <div class="tk-table-wrap">
              <table class="tk-table" data-testid="attention-table">
                <thead>
                  <tr>
                    <th>类别</th>
                    <th>名称</th>
                    <th>原因</th>
                    <th>开始于</th>
                    <th>操作</th>
                  </tr>
                </thead>
                <tbody>
                  <For each={list()}>{(item) => <AttentionRow item={item} />}</For>
                </tbody>
              </table>
            </div>
          </Show>
        )}
      </Show>
    </section>
  );
}

function AttentionRow(props: { item: AttentionItem }): JSX.Element {
  const device = (): boolean => props.item.kind === 'device';
  return (
    <tr data-testid="attention-row" data-kind={props.item.kind} data-id={props.item.id}>
      <td>{device() ? '手机' : '任务'}</td>
      <td class="tk-title">{props.item.title ?? (device() ? '未命名手机' : '未命名任务')}</td>
      <td data-testid="attention-reason">{props.item.reason_zh}</td>
      <td class="tk-time">{formatTime(props.item.since)}</td>
      <td>
        <Show
          when={device()}
          fallback={
            <a href={hrefFor(pathOf(ROUTES.task, { taskId: props.item.id }))} data-testid="attention-link">
              查看任务
            </a>
          }
        >
          <a href={hrefFor('/devices')} data-testid="attention-link">
            去设备页处理
          </a>
        </Show>
        <Show when={props.item.device_id}>
          {(id) => (
            <>
              {' · '}
              <a href={hrefFor(pathOf(ROUTES.deviceScreen, { deviceId: id() }))} data-testid="attention-screen-link">
                屏幕
              </a>
            </>
          )}
        </Show>
      </td>
    </tr>
  );
}

/** 开启通知 until the operator answered; the browser's own prompt, only on this click. */
function NotifyButton(): JSX.Element {
  return (
    <Show
      when={notifyState() === 'default'}
      fallback={
        <Show when={notifyState() !== 'unsupported'}>
          <span class="muted" data-testid="attention-notify-state">
            {notifyState() === 'granted' ? '已开启通知' : '浏览器已禁止本页的通知'}
          </span>
        </Show>
      }
    >
      <button type="button" class="btn" data-testid="attention-notify" onClick={() => void enableNotifications()}>
        开启通知
      </button>
    </Show>
  );
}
