import type { JSX } from 'solid-js';
import Placeholder from '../components/Placeholder';

export default function ProductsPage(): JSX.Element {
  return (
    <Placeholder
      title="商品"
      summary="虾皮（Shopee 台湾）商品与 SKU，以及它们对应的拼多多商品。"
      planned={[
        '导入虾皮商品导出文件（xlsx），显示导入结果和失败的行',
        '按商品查看 SKU：规格原文、颜色、尺码、解析是否成功',
        '为每个虾皮商品粘贴拼多多商品链接',
        '把每个虾皮 SKU 对应到一个拼多多规格组合',
      ]}
    />
  );
}
