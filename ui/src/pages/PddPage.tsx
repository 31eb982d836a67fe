import type { JSX } from 'solid-js';
import Placeholder from '../components/Placeholder';

export default function PddPage(): JSX.Element {
  return (
    <Placeholder
      title="PDD 商品"
      summary="已关联的拼多多商品，以及手机采集到的规格和价格。"
      planned={[
        '拼多多商品列表与采集状态（未采集、采集中、已采集、失败）',
        '发起采集或重新采集，查看采集进度',
        '查看采集到的规格组合与单价',
        '采集失败的原因，例如商品不一致（COLLECT_GOODS_MISMATCH）',
      ]}
    />
  );
}
