import { createSignal, For, Show, type JSX } from 'solid-js';
import type { HostSetupCommand, HostSetupNeed } from '../../../../domain/host-setup';

const NEED_ZH: Record<HostSetupNeed, string> = {
  'repository-url': '把 <repository-url> 换成本仓库的 git 地址（管理服务所在的代码目录没有 origin 远程地址）。',
  'client-certificate':
    'Temporal 要求客户端证书：先把这台主机自己的证书和私钥放到 ~/.cmautobuy/temporal-client.pem 和 ~/.cmautobuy/temporal-client.key。',
  'api-key': '运行时会提示输入 Temporal API key（输入不显示，也不会留在命令历史里），请准备好。',
  'temporal-on-loopback':
    '管理服务连接的 Temporal 只监听本机，其他电脑连不上：请先让管理服务使用两边都能访问的 CMAUTOBUY_TEMPORAL_ADDRESS。',
  'payload-keys':
    '运行时会提示输入加密密钥（管理服务的 CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS；输入不显示，也不会留在命令历史里），请向管理员索取。',
  'adb-serial': '把 <adb serial> 换成 adb devices 列出的这台手机的序列号。',
};

function CopyButton(props: { testid: string; label: string; text: string }): JSX.Element {
  const [copied, setCopied] = createSignal(false);
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(props.text);
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard (plain http): the operator selects the text instead
    }
  };
  return (
    <button type="button" class="btn" data-testid={props.testid} onClick={() => void copy()}>
      {copied() ? '已复制' : props.label}
    </button>
  );
}

/**
 * What to run on the phone machine after 发放主机凭据 / 发放设备凭据 (domain/host-setup.ts): built
 * from 设置's 管理服务对外地址, never from the address this browser uses, which is often loopback.
 * `testid` is the dialog's prefix (`host-issued` → `host-issued-command`, …).
 */
export default function SetupSteps(props: {
  command: HostSetupCommand | null;
  testid: string;
  /** what the second script starts, after 在仓库目录里运行 */
  runs: string;
  /** 重新发放主机凭据 … */
  again: string;
}): JSX.Element {
  return (
    <Show
      when={props.command}
      fallback={
        <p class="tk-warn" data-testid={`${props.testid}-no-public-url`}>
          还没有设置「管理服务对外地址」，无法给出在其他电脑上可直接运行的命令。请先到
          <a href="#/settings" data-testid={`${props.testid}-settings-link`}>
            设置
          </a>
          填写，再{props.again}。
        </p>
      }
    >
      {(c) => (
        <>
          <p class="muted">1. 在连接手机的电脑上安装一次 Node.js 20、git、adb 和本仓库：</p>
          <pre class="tk-mono dv-command" data-testid={`${props.testid}-install`}>
            {c().install}
          </pre>
          <CopyButton testid={`${props.testid}-copy-install`} label="复制安装命令" text={c().install} />
          <p class="muted">2. 在仓库目录里运行（{props.runs}）：</p>
          <pre class="tk-mono dv-command" data-testid={`${props.testid}-command`}>
            {c().run}
          </pre>
          <CopyButton testid={`${props.testid}-copy`} label="复制启动命令" text={c().run} />
          <For each={c().needs}>
            {(need) => (
              <p class="tk-warn" data-testid={`${props.testid}-need`} data-need={need}>
                {NEED_ZH[need]}
              </p>
            )}
          </For>
        </>
      )}
    </Show>
  );
}
