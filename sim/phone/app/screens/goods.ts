import type { Goods } from '../../catalog/schema';
import { formatYuan } from '../../money';
import { node, type UiNode } from '../node';
import { rangeText, type Pricing } from '../pricing';
import { backButton, SCREEN_H, SCREEN_W } from './common';

function bottomTab(x0: number, id: string, label: string): UiNode {
  return node('Linear', [x0, 2196, x0 + 180, 2376], { id, clickable: true, action: { kind: 'none' } }, [
    node('Text', [x0 + 30, 2250, x0 + 150, 2320], { text: label }),
  ]);
}

function topBar(): UiNode {
  return node('Linear', [0, 84, SCREEN_W, 216], { id: 'll_top_bar' }, [
    backButton(),
    node('Image', [948, 96, 1056, 204], { id: 'iv_share', desc: '分享', clickable: true, action: { kind: 'none' } }),
  ]);
}

export function goodsScreen(goods: Goods, pricing: Pricing): UiNode {
  const lowest = Math.min(...goods.skus.map((s) => pricing.unit(s)));
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
    node('Recycler', [0, 0, SCREEN_W, 2196], { id: 'goods_detail_list', scrollable: true }, [
      node('Image', [0, 0, 1080, 1080], { id: 'iv_goods_banner', desc: '商品图片', fill: 'image' }),
      node('Linear', [0, 1080, 1080, 1230], { id: 'll_goods_price_area' }, [
        node('Text', [36, 1100, 560, 1200], { id: 'tv_goods_price', text: rangeText(goods.skus, pricing) }),
        // The promo with the same words as the purchase entry: a trap, never the entry.
        node('Text', [580, 1120, 760, 1180], { id: 'tv_goods_promo', text: '快要抢光' }),
        node('Text', [780, 1120, 1044, 1180], { id: 'tv_goods_sales', text: '已拼10万+件' }),
      ]),
      node('Text', [36, 1240, 1044, 1360], { id: 'tv_goods_title', text: goods.title }),
      node('Linear', [0, 1400, 1080, 1560], { id: 'll_mall_entry', clickable: true, action: { kind: 'none' } }, [
        node('Image', [36, 1420, 156, 1540], { id: 'iv_mall_logo', fill: 'image' }),
        node('Text', [180, 1440, 800, 1500], { id: 'tv_mall_name', text: goods.shop_name }),
        node('Text', [860, 1440, 1044, 1500], { id: 'tv_mall_enter', text: '进店逛逛' }),
      ]),
      node('Text', [36, 1600, 1044, 1660], { id: 'tv_goods_desc_title', text: '商品详情' }),
      node('Image', [0, 1680, 1080, 2196], { id: 'iv_goods_desc', fill: 'image' }),
    ]),
    topBar(),
    node('Linear', [0, 2196, SCREEN_W, 2376], { id: 'll_bottom_bar' }, [
      bottomTab(0, 'll_bottom_mall', '店铺'),
      bottomTab(180, 'll_bottom_fav', '收藏'),
      bottomTab(360, 'll_bottom_service', '客服'),
      node(
        'Linear',
        [540, 2196, 1080, 2376],
        { id: 'll_bottom_buy', clickable: true, action: { kind: 'open_panel' }, fill: 'red' },
        [
          node('Text', [560, 2212, 1060, 2292], { id: 'tv_bottom_buy_price', text: `快要抢光 ${formatYuan(lowest)}` }),
          node('Text', [560, 2300, 1060, 2360], { id: 'tv_bottom_buy_desc', text: '免拼购买' }),
        ],
      ),
    ]),
  ]);
}

export function delistedScreen(title: string): UiNode {
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
    node('Recycler', [0, 0, SCREEN_W, 2196], { id: 'goods_detail_list', scrollable: true }, [
      node('Image', [0, 0, 1080, 1080], { id: 'iv_goods_banner', desc: '商品图片', fill: 'grey' }),
      node('Text', [36, 1100, 1044, 1200], { id: 'tv_goods_offline', text: '商品已下架' }),
      node('Text', [36, 1240, 1044, 1360], { id: 'tv_goods_title', text: title }),
    ]),
    topBar(),
    node('Linear', [0, 2196, SCREEN_W, 2376], { id: 'll_bottom_offline', fill: 'grey' }, [
      node('Text', [36, 2240, 700, 2330], { id: 'tv_bottom_offline', text: '商品已下架', enabled: false }),
      node('Text', [760, 2220, 1060, 2350], {
        id: 'tv_find_similar',
        text: '找相似',
        clickable: true,
        action: { kind: 'none' },
      }),
    ]),
  ]);
}
