import { createSignal, Show, type JSX } from 'solid-js';
import type { SystemCheckResult } from '../../../domain/system-check';
import { runSystemCheck } from '../api/endpoints';
import ActionButton from '../components/ActionButton';
import ErrorMessage from '../components/ErrorMessage';
import MoneySettingsForm from '../components/settings/MoneySettingsForm';
import PublicUrlForm from '../components/settings/PublicUrlForm';
import SafetySettingsForm from '../components/settings/SafetySettingsForm';
import SybAccountForm from '../components/settings/SybAccountForm';
import '../components/tasks/tasks.css';
import { createAction } from '../lib/action';
import { formatTime } from '../lib/time';

export default function SettingsPage(): JSX.Element {
  const [result, setResult] = createSignal<SystemCheckResult | null>(null);
  const check = createAction(async () => {
    setResult(null);
    setResult(await runSystemCheck());
  });

  return (
    <section class="page" data-testid="page-settings">
      <h1 class="page-title">设置</h1>
      <p class="page-summary">
        安全上限、授权与保留期限、金额（汇率与费用）、顺运宝账号，以及系统自检。修改保存后立即生效，无需重启。
      </p>
      <SafetySettingsForm />
      <MoneySettingsForm />
      <PublicUrlForm />
      <SybAccountForm />
      <div class="card tk-section">
        <h2 class="tk-section-title">系统自检</h2>
        <p class="muted">
          经 Temporal 运行一个自检工作流，由管理服务的后台执行进程读取数据库，证明 管理服务 → Temporal → 执行进程 →
          数据库 整条链路可用。
        </p>
        <ActionButton action={check} class="btn btn-primary" testid="system-check" busyLabel="正在自检…">
          系统自检
        </ActionButton>
        <Show when={result()}>
          {(r) => (
            <dl class="tk-facts tk-check-result" data-testid="system-check-result">
              <dt>结果</dt>
              <dd class="tk-ok">正常</dd>
              <dt>Temporal 工作流</dt>
              <dd class="tk-mono" data-testid="system-check-workflow">
                {r().workflow_id}
              </dd>
              <dt>数据库</dt>
              <dd data-testid="system-check-db">{r().db === 'ok' ? `正常（${r().tables} 张表）` : r().db}</dd>
              <dt>检查时间</dt>
              <dd>{formatTime(r().checked_at)}</dd>
            </dl>
          )}
        </Show>
        <ErrorMessage testid="system-check-error" prefix="自检失败：" message={check.error()} />
      </div>
    </section>
  );
}
