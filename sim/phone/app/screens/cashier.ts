import { formatYuan } from '../../money';
import { node, type UiNode } from '../node';
import { SCREEN_H, SCREEN_W } from './common';

function payRow(top: number, id: string, textId: string, label: string, control: string): UiNode {
  return node('Linear', [0, top, 1080, top + 150], { id, clickable: true, action: { kind: 'pay', control } }, [
    node('Text', [140, top + 40, 700, top + 110], { id: textId, text: label }),
  ]);
}

export function cashierScreen(totalCent: number): UiNode {
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
    node('View', [0, 0, 1080, 1000], { id: 'v_cashier_mask', fill: 'mask' }),
    node('Linear', [0, 1000, 1080, 2376], { id: 'll_cashier_panel' }, [
      node('Image', [24, 1020, 120, 1116], {
        id: 'iv_cashier_close',
        desc: '关闭',
        clickable: true,
        action: { kind: 'back' },
      }),
      node('Text', [140, 1030, 940, 1110], { id: 'tv_cashier_title', text: '订单已提交，请尽快支付' }),
      node('Text', [240, 1140, 840, 1260], { id: 'tv_cashier_amount', text: formatYuan(totalCent) }),
      node('Text', [240, 1270, 840, 1330], { id: 'tv_cashier_tip', text: '请在30分钟内完成支付' }),
      payRow(1380, 'll_pay_wechat', 'tv_pay_name', '微信支付', '微信支付'),
      payRow(1530, 'll_pay_alipay', 'tv_pay_name', '支付宝', '支付宝'),
      payRow(1680, 'll_pay_free', 'tv_pay_free', '免密支付', '免密支付'),
      payRow(1830, 'll_pay_later', 'tv_pay_later', '先用后付', '先用后付'),
      node(
        'Linear',
        [36, 2196, 1044, 2356],
        { id: 'll_pay_confirm', clickable: true, action: { kind: 'pay', control: '立即支付' }, fill: 'red' },
        [node('Text', [300, 2236, 780, 2316], { id: 'tv_pay_confirm', text: '立即支付' })],
      ),
    ]),
  ]);
}

export function paymentHandoffScreen(totalCent: number): UiNode {
  const pkg = 'com.eg.android.AlipayGphone';
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], { pkg }, [
    node('Text', [380, 200, 700, 300], { pkg, text: '支付宝' }),
    node('Text', [240, 600, 840, 720], { pkg, text: formatYuan(totalCent) }),
    node('Button', [36, 2196, 1044, 2356], {
      pkg,
      text: '确认付款',
      clickable: true,
      action: { kind: 'pay', control: '确认付款' },
      fill: 'red',
    }),
  ]);
}
