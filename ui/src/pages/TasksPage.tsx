import type { JSX } from 'solid-js';
import Placeholder from '../components/Placeholder';

export default function TasksPage(): JSX.Element {
  return (
    <Placeholder
      title="采购任务"
      summary="每个采购任务从草稿到下单、付款的全过程。"
      planned={[
        '按状态筛选任务：草稿、等待中、下单中、待付款、需人工处理、需核对等',
        '选择草稿任务并设定总价上限后批量启动（试运行或正式下单）',
        '查看三道价格闸门的读数、设备、订单号和失败原因',
        '对每个未结束的任务给出下一步：取消、重置为草稿、标记已付款、核对下单结果',
      ]}
    />
  );
}
