import { Show, type JSX } from 'solid-js';
import StatusBadge from '../components/StatusBadge';
import EvidenceGallery from '../components/tasks/EvidenceGallery';
import GatesPanel from '../components/tasks/GatesPanel';
import MoneyCard from '../components/tasks/MoneyCard';
import NextStepCard from '../components/tasks/NextStepCard';
import { createTaskDetail } from '../components/tasks/task-detail';
import TaskFacts from '../components/tasks/TaskFacts';
import '../components/tasks/tasks.css';
import Timeline from '../components/tasks/Timeline';
import { hrefFor } from '../router';
import { pathOf, ROUTES } from '../route-table';

/** A stop a person clears on the phone itself (a slider, a login) may want its screen. */
const STOPPED = new Set(['NEEDS_MANUAL', 'RECONCILIATION_REQUIRED']);

/** 采购任务详情: the view of `createTaskDetail` (components/tasks/task-detail.ts). */
export default function TaskDetailPage(props: { taskId: string }): JSX.Element {
  const detail = createTaskDetail(props.taskId);
  const { task, loadError } = detail;
  return (
    <section class="page" data-testid="page-task-detail" data-task-id={props.taskId}>
      <p>
        <a href={hrefFor('/tasks')} data-testid="back-to-tasks">
          ← 返回采购任务
        </a>
      </p>
      <Show when={loadError() !== null && task() === null}>
        <div class="card error-card" role="alert" data-testid="task-load-error">
          <p>
            无法加载任务 {props.taskId}：{loadError()}
          </p>
          <button type="button" class="btn" onClick={() => void detail.load()}>
            重试
          </button>
        </div>
      </Show>
      <Show
        when={task()}
        fallback={
          <Show when={loadError() === null}>
            <p class="muted">正在加载…</p>
          </Show>
        }
      >
        {(t) => (
          <>
            <div class="tk-head">
              <div>
                <h1 class="page-title">
                  采购任务{' '}
                  <span class="tk-mono" data-testid="task-id">
                    {t().task_id}
                  </span>
                </h1>
                <p class="page-summary">{t().title ?? t().pdd_goods_url}</p>
              </div>
              <StatusBadge status={t().status} label={t().status_zh} />
            </div>
            <NextStepCard task={t()} detail={detail} />
            <Show when={STOPPED.has(t().status) ? t().device_id : null}>
              {(id) => (
                <p>
                  <a href={hrefFor(pathOf(ROUTES.deviceScreen, { deviceId: id() }))} data-testid="task-screen-link">
                    查看手机屏幕
                  </a>
                  <span class="muted">（{t().device_name ?? '执行的手机'}）</span>
                </p>
              )}
            </Show>
            {/* a popup the phone could not recognise: teach it on that phone's screen, the dialog already open */}
            <Show when={t().reason_code === 'UNKNOWN_OVERLAY' ? t().device_id : null}>
              {(id) => (
                <p>
                  <a
                    href={hrefFor(`${pathOf(ROUTES.deviceScreen, { deviceId: id() })}?teach=1`)}
                    data-testid="task-teach-overlay-link"
                  >
                    教手机关闭这个弹窗
                  </a>
                  <span class="muted">（审核启用后，同一版本的手机遇到它会自己关闭）</span>
                </p>
              )}
            </Show>
            <TaskFacts task={t()} />
            <Show when={t().money}>{(m) => <MoneyCard money={m()} />}</Show>
            <GatesPanel gates={t().gates} quantity={t().quantity} maxTotalPriceCent={t().max_total_price_cent} />
            <EvidenceGallery evidence={t().evidence} />
            <Timeline entries={t().timeline} />
          </>
        )}
      </Show>
    </section>
  );
}
