import type { JSX } from 'solid-js';
import Placeholder from '../components/Placeholder';

export default function OrdersPage(): JSX.Element {
  return (
    <Placeholder
      title="订单"
      summary="从顺运宝同步来的客户订单明细。"
      planned={[
        '手动触发顺运宝同步，查看上次同步时间和错误',
        '订单明细列表：订单号、虾皮商品与 SKU、数量、金额（新台币）',
        '每行的匹配状态，以及从订单行生成采购任务',
        '按订单号或商品搜索，分页浏览',
      ]}
    />
  );
}
