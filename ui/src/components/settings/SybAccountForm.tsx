import { Show, type JSX } from 'solid-js';
import { formatTime } from '../../lib/time';
import FormFooter from '../FormFooter';
import TextField from '../TextField';
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
      <TextField
        label="地址"
        testid="syb-url"
        placeholder="例如 https://syb.example.com"
        value={a.url()}
        onValue={a.setUrl}
        field="syb-url"
        error={a.errors().url}
      />
      <TextField
        label="用户名"
        testid="syb-username"
        autocomplete="off"
        value={a.username()}
        onValue={a.setUsername}
        field="syb-username"
        error={a.errors().username}
      />
      <TextField
        label={
          <>
            密码{' '}
            <span class="muted" data-testid="syb-password-state">
              {a.view()?.password_set ? '已设置' : '未设置'}
            </span>
          </>
        }
        testid="syb-password"
        type="password"
        autocomplete="new-password"
        placeholder={a.view()?.password_set ? '已设置；留空则不修改' : '请输入密码'}
        value={a.password()}
        onValue={a.setPassword}
        field="syb-password"
        error={a.errors().password}
      >
        <span class="muted tk-hint">
          密码只保存在管理服务的内存中，不写入磁盘；管理服务重启后需要重新填写（除非已在环境变量中配置）。
        </span>
      </TextField>
      <FormFooter testid="syb" save={a.save} disabled={a.view() === null} label="保存账号" />
    </form>
  );
}
