import { Show, type JSX } from 'solid-js';
import { formatTime } from '../../lib/time';
import FieldError from '../FieldError';
import FormFooter from '../FormFooter';
import { createSybAccount } from './syb-account';

/**
 * 顺运宝账号. The password is held in the admin's memory only (docs/syb-protocol.md): it is never
 * shown, only whether one is set, and after an admin restart it has to be entered again unless
 * the environment provides it. An empty password field leaves the current one as it is.
 */
export default function SybAccountForm(): JSX.Element {
  const a = createSybAccount();
  return (
    <form class="card tk-section tk-form" data-testid="syb-form" onSubmit={(e) => void a.submit(e)} novalidate>
      <h2 class="tk-section-title">顺运宝账号</h2>
      <Show when={a.view()}>
        {(v) => (
          <p class="muted" data-testid="syb-state" data-configured={String(v().configured)}>
            {v().configured ? '账号完整，订单按计划自动同步。' : '账号未填完整，订单同步已暂停。'}
            <Show when={v().session_expires_at}>{(at) => <> 当前登录有效至 {formatTime(at())}。</>}</Show>
          </p>
        )}
      </Show>
      <label class="field">
        <span class="field-label">地址</span>
        <input
          class="input"
          data-testid="syb-url"
          placeholder="例如 https://syb.example.com"
          value={a.url()}
          onInput={(e) => a.setUrl(e.currentTarget.value)}
        />
        <FieldError field="syb-url" message={a.errors().url} />
      </label>
      <label class="field">
        <span class="field-label">用户名</span>
        <input
          class="input"
          data-testid="syb-username"
          autocomplete="off"
          value={a.username()}
          onInput={(e) => a.setUsername(e.currentTarget.value)}
        />
        <FieldError field="syb-username" message={a.errors().username} />
      </label>
      <label class="field">
        <span class="field-label">
          密码{' '}
          <span class="muted" data-testid="syb-password-state">
            {a.view()?.password_set ? '已设置' : '未设置'}
          </span>
        </span>
        <input
          class="input"
          type="password"
          autocomplete="new-password"
          data-testid="syb-password"
          placeholder={a.view()?.password_set ? '已设置；留空则不修改' : '请输入密码'}
          value={a.password()}
          onInput={(e) => a.setPassword(e.currentTarget.value)}
        />
        <span class="muted tk-hint">
          密码只保存在管理服务的内存中，不写入磁盘；管理服务重启后需要重新填写（除非已在环境变量中配置）。
        </span>
        <FieldError field="syb-password" message={a.errors().password} />
      </label>
      <FormFooter
        testid="syb"
        error={a.formError()}
        notice={a.notice()}
        busy={a.busy()}
        disabled={a.view() === null}
        label="保存账号"
      />
    </form>
  );
}
