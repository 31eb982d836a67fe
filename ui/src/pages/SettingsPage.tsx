import type { JSX } from 'solid-js';
import Placeholder from '../components/Placeholder';

export default function SettingsPage(): JSX.Element {
  return (
    <Placeholder
      title="设置"
      summary="采购台的账号和运行参数。"
      planned={[
        '修改当前账号的密码',
        '顺运宝账号与自动同步频率',
        '授权有效期、采集超时等运行参数',
        '服务状态：管理服务、Temporal、各台设备',
      ]}
    />
  );
}
