import type { JSX } from 'solid-js';
import Placeholder from '../components/Placeholder';

export default function DevicesPage(): JSX.Element {
  return (
    <Placeholder
      title="设备"
      summary="执行采集和下单的安卓手机。"
      planned={[
        '设备列表：是否在线、拼多多 App 版本、正在执行的任务',
        '设备凭据的发放与吊销说明',
        '设备上传的截图证据',
      ]}
    />
  );
}
