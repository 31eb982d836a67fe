import { PDD_PACKAGE } from '../../../domain/pdd-app';
import { DeviceError } from '../../errors';
import type { PddProfile } from '../profile';

/**
 * What a purchase needs of one PDD version beyond the collect profile: the quantity stepper,
 * the submit control of the merged final panel, the cashier sheet and the orders list. Kept
 * next to the purchase flow so the collect profile stays the evidence-bound minimum.
 */
export interface PurchaseProfile {
  appVersion: string;
  id: {
    skuPlus: string;
    skuMinus: string;
    skuConfirmText: string;
    cashierTitle: string;
    cashierAmount: string;
    orderList: string;
    orderItem: string;
    orderStatus: string;
    orderTitle: string;
    orderSpec: string;
    orderCount: string;
    orderAmount: string;
    orderSn: string;
    orderTime: string;
    orderEmpty: string;
  };
  text: {
    /** the final red control reads exactly `提交订单 ¥12.88` */
    submitLabel: string;
    cashierTitle: string;
    orderUnpaid: string;
    orderSnPrefix: string;
    orderTimePrefix: string;
    orderAmountPrefix: string;
    orderCountPrefix: string;
    orderSpecSeparator: string;
  };
  /** the orders list, 待付款 tab, opened by intent (no tap) */
  pendingOrdersUrl: string;
  /** the clock of `下单时间`, minutes east of UTC */
  orderTimeOffsetMinutes: number;
}

const PKG = PDD_PACKAGE;
const id = (name: string) => `${PKG}:id/${name}`;

export const PURCHASE_8_17_0: PurchaseProfile = {
  appVersion: '8.17.0',
  id: {
    skuPlus: id('tv_sku_plus'),
    skuMinus: id('tv_sku_minus'),
    skuConfirmText: id('tv_sku_confirm'),
    cashierTitle: id('tv_cashier_title'),
    cashierAmount: id('tv_cashier_amount'),
    orderList: id('rv_order_list'),
    orderItem: id('ll_order_item'),
    orderStatus: id('tv_order_status'),
    orderTitle: id('tv_order_title'),
    orderSpec: id('tv_order_spec'),
    orderCount: id('tv_order_count'),
    orderAmount: id('tv_order_amount'),
    orderSn: id('tv_order_sn'),
    orderTime: id('tv_order_time'),
    orderEmpty: id('tv_order_empty'),
  },
  text: {
    submitLabel: '提交订单',
    cashierTitle: '订单已提交，请尽快支付',
    orderUnpaid: '待付款',
    orderSnPrefix: '订单编号：',
    orderTimePrefix: '下单时间：',
    orderAmountPrefix: '实付：',
    orderCountPrefix: 'x',
    orderSpecSeparator: '；',
  },
  pendingOrdersUrl: `pinduoduo://${PDD_PACKAGE}/orders.html?type=1`,
  orderTimeOffsetMinutes: 8 * 60,
};

const PROFILES: readonly PurchaseProfile[] = [PURCHASE_8_17_0];

/** The purchase half of a profile: a version without one is refused before the first tap. */
export function purchaseProfileFor(p: PddProfile): PurchaseProfile {
  const found = PROFILES.find((x) => x.appVersion === p.appVersion);
  if (!found)
    throw new DeviceError(
      'APP_VERSION_UNSUPPORTED',
      `PDD ${p.appVersion} has no purchase profile; nothing was tapped`,
      { app_version: p.appVersion },
    );
  return found;
}

/**
 * Texts of controls that move money. Matched by containment on purpose: for a deny-list the
 * loose match is the safe direction (a false hit stops a purchase, a miss could pay).
 */
export const PAYMENT_DENY_TEXTS: readonly string[] = ['立即支付', '免密支付', '先用后付', '确认付款', '支付', '付款'];

/** Any of these anywhere on screen and the screen gets no tap at all: a payment sheet is up. */
export const PAYMENT_SCREEN_TEXTS: readonly string[] = ['立即支付', '免密支付', '先用后付', '确认付款'];
