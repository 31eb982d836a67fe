/**
 * Short Chinese text per reason code for the list's 原因 column; mirrors the zh of
 * domain/purchase/reasons.ts (the detail page gets the full text and next step from the server).
 */
const REASON_ZH: Readonly<Record<string, string>> = {
  GATE1_OVER_CAP: '闸门一：单价 × 数量超过授权最高总价',
  GATE2_OVER_CAP: '闸门二：设置数量后的面板总额超过授权最高总价',
  GATE3_MISMATCH: '闸门三：提交按钮金额与面板总额不一致或超过上限',
  PRICE_UNREADABLE: '价格无法唯一读取（缺失、区间或有歧义）',
  PRICE_CHANGED: '下单过程中价格发生变化',
  OPTION_NOT_FOUND: '页面上找不到要求的规格',
  OPTION_AMBIGUOUS: '规格在页面上不唯一',
  OPTION_UNAVAILABLE: '所选规格缺货或不可选',
  OPTION_READBACK_MISMATCH: '规格选中后读回不一致',
  QUANTITY_READBACK_MISMATCH: '数量设置后读回不一致',
  QUANTITY_OVER_STOCK: '库存不足，无法设置到要求的数量',
  QUANTITY_OVER_LIMIT: '数量超过安全上限 safety.max_quantity',
  SUBMIT_CONTROL_NOT_UNIQUE: '提交订单按钮不唯一或不可用',
  APP_VERSION_UNSUPPORTED: '手机上的拼多多版本未经验证',
  GOODS_DELISTED: '商品已下架',
  GOODS_MISMATCH: '打开的商品与任务的 goods_id 不一致',
  CAPTCHA: '出现验证码/风控页面，已停止（不会绕过）',
  PAGE_UNRECOGNIZED: '页面结构无法识别',
  DEVICE_ERROR: '手机连接或操作失败（提交前）',
  FENCE_REFUSED: '服务端提交围栏拒绝（授权无效或复核不通过），未点击提交',
  FENCE_UNAVAILABLE: '提交围栏没有明确答复，未点击提交',
  AUTHORIZATION_EXPIRED: '授权已过期，未领取到手机',
  CANCELED_BY_OPERATOR: '操作员取消',
  SUBMIT_OUTCOME_UNKNOWN: '已点击提交，但结果不明确',
  PAYMENT_HANDOFF: '提交后跳转到支付页面，已停止（绝不付款）',
  CAPTCHA_AFTER_SUBMIT: '提交后出现验证码/风控，已停止',
  SUBMIT_NOT_CONFIRMED: '提交动作未得到确认',
};

/** The code itself when this mirror does not know it, so nothing is hidden. */
export function reasonZh(code: string | null): string {
  if (!code) return '';
  return REASON_ZH[code] ?? code;
}
