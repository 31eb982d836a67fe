/**
 * Why a purchase stopped. Every stop before the fence has a code, a Chinese message for the
 * operator and the safe next step. Codes are stable: the UI and tests key on them.
 */
export interface ReasonInfo {
  zh: string;
  next: string;
}

const RESET = '核查后「重置为草稿」并重新开始采购，或取消任务';

export const REASONS = {
  GATE1_OVER_CAP: { zh: '闸门一：单价 × 数量超过授权最高总价', next: `确认价格后提高最高总价再试；${RESET}` },
  GATE2_OVER_CAP: {
    zh: '闸门二：设置数量后的面板总额超过授权最高总价',
    next: `多件价格不是线性的，按面板总额调整最高总价；${RESET}`,
  },
  GATE3_MISMATCH: { zh: '闸门三：提交按钮金额与面板总额不一致或超过上限', next: RESET },
  PRICE_UNREADABLE: { zh: '价格无法唯一读取（缺失、区间或有歧义）', next: RESET },
  PRICE_CHANGED: { zh: '下单过程中价格发生变化', next: `确认新价格；${RESET}` },
  OPTION_NOT_FOUND: { zh: '页面上找不到要求的规格', next: '核对任务规格与商品当前规格，修改后重置为草稿' },
  OPTION_AMBIGUOUS: { zh: '规格在页面上不唯一', next: '人工在手机上核对规格，修改任务后重置为草稿' },
  OPTION_UNAVAILABLE: { zh: '所选规格缺货或不可选', next: '换规格或等待补货后重置为草稿' },
  OPTION_READBACK_MISMATCH: { zh: '规格选中后读回不一致', next: RESET },
  QUANTITY_READBACK_MISMATCH: { zh: '数量设置后读回不一致', next: RESET },
  QUANTITY_OVER_STOCK: { zh: '库存不足，无法设置到要求的数量', next: '减少数量或换商品后重置为草稿' },
  QUANTITY_OVER_LIMIT: { zh: '数量超过单次采购数量上限', next: '拆分任务，或由管理员在「设置」调整单次采购数量上限' },
  SUBMIT_CONTROL_NOT_UNIQUE: { zh: '提交订单按钮不唯一或不可用', next: RESET },
  HIERARCHY_UNAVAILABLE: {
    zh: '页面一直在变化（如倒计时），手机读不出页面内容，已停止（未点击）',
    next: `这个页面一直在动：在手机上启用读屏代理（UiAutomator2 服务）或由人工处理后，在「设备」页恢复该手机；${RESET}`,
  },
  APP_VERSION_UNSUPPORTED: {
    zh: '手机上的拼多多版本未经验证',
    next: '换用已验证版本（8.17.0）的手机，或等待工程师适配新版本',
  },
  GOODS_DELISTED: { zh: '商品已下架', next: '换一个商品链接后新建任务' },
  GOODS_MISMATCH: { zh: '打开的商品与任务的商品编号不一致', next: '核对商品链接后重置为草稿' },
  PAGE_UNRECOGNIZED: { zh: '页面结构无法识别', next: `查看失败截图与日志；${RESET}` },
  DEVICE_ERROR: { zh: '手机连接或操作失败（提交前）', next: `检查手机连接；${RESET}` },
  FENCE_REFUSED: { zh: '服务端不允许这次提交（授权无效或复核不通过），未点击提交', next: RESET },
  FENCE_UNAVAILABLE: { zh: '服务端没有明确答复是否允许提交，未点击提交', next: RESET },
  DEVICE_REVOKED: { zh: '手机的设备令牌已吊销，未点击提交', next: `换用已启用的手机：${RESET}` },
  ADMIN_STEP_FAILED: {
    zh: '采购服务记录步骤失败（提交前），未点击提交',
    next: `请工程师查看工作流详情中的错误；${RESET}`,
  },
  AUTHORIZATION_EXPIRED: { zh: '授权已过期，未领取到手机', next: '重新勾选并开始采购' },
  CANCELED_BY_OPERATOR: { zh: '操作员取消', next: '无' },
  // after the fence: never retried, only reconciled
  SUBMIT_OUTCOME_UNKNOWN: { zh: '已点击提交，但结果不明确', next: '在拼多多待付款订单中核对同一提交' },
  PAYMENT_HANDOFF: { zh: '提交后跳转到支付页面，已停止（绝不付款）', next: '在拼多多待付款订单中核对同一提交' },
  SUBMIT_NOT_CONFIRMED: { zh: '提交动作未得到确认', next: '在拼多多待付款订单中核对同一提交' },
  ORDER_NOT_MATCHED: {
    zh: '提交后到达收银台，但待付款列表中没有唯一匹配的订单',
    next: '在拼多多待付款订单中核对同一提交',
  },
  AFTER_FENCE_STEP_FAILED: { zh: '提交围栏之后的记录步骤失败，结果需要核对', next: '在拼多多待付款订单中核对同一提交' },
  // the release gate per PDD app version (admin/devices/app-versions.ts)
  APP_VERSION_NOT_RELEASED: {
    zh: '手机上的拼多多版本尚未发布用于真实下单，未点击提交',
    next: `在「设备 → 拼多多版本」中先用该版本的手机试运行通过并发布；${RESET}`,
  },
  // the real app's interruptions before the fence: each its own stop (older spellings: LEGACY_REASONS)
  LOGIN_REQUIRED: {
    zh: '拼多多要求登录，已停止',
    next: `人工在手机上登录拼多多账号后，在「设备」页恢复该手机；${RESET}`,
  },
  CAPTCHA_REQUIRED: {
    zh: '出现滑块验证码，已停止（不会绕过）',
    next: `人工在手机上完成滑块验证后，在「设备」页恢复该手机；${RESET}`,
  },
  RISK_FACE: {
    zh: '拼多多要求人脸验证（风控），已停止',
    next: `账号本人在手机上完成人脸验证后，在「设备」页恢复该手机；${RESET}`,
  },
  RISK_SMS: {
    zh: '拼多多要求短信验证（风控），已停止',
    next: `人工在手机上完成短信验证后，在「设备」页恢复该手机；${RESET}`,
  },
  NETWORK_ERROR: {
    zh: '拼多多显示网络错误，重新打开商品链接一次后仍失败',
    next: `检查手机网络（Wi-Fi / 移动数据）；${RESET}`,
  },
  APP_UPDATE_PROMPT: {
    zh: '拼多多弹出无法关闭的更新提示，已停止（不会点击更新）',
    next: '不要在手机上更新；请工程师确认新版本后再处理，或换用未弹提示的手机后重置为草稿',
  },
  SOLD_OUT: { zh: '商品已售罄', next: '等待补货或换一个商品链接；核查后重置为草稿或取消任务' },
  ADDRESS_MISSING: { zh: '拼多多账号没有收货地址，无法下单', next: `人工在手机上添加收货地址；${RESET}` },
  HELD_BY_OPERATOR: {
    zh: '手机被人工接管，自动操作已在下一步之前停止（接管后没有任何自动点击）',
    next: `人工操作结束并释放手机后，${RESET}`,
  },
  UNKNOWN_OVERLAY: {
    zh: '页面上出现未识别的弹窗或遮罩，已停止（未点击弹窗）',
    next: `查看失败截图，人工在手机上关闭弹窗；若经常出现请工程师加入版本配置；${RESET}`,
  },
} as const satisfies Record<string, ReasonInfo>;

export type ReasonCode = keyof typeof REASONS;

export function isReasonCode(code: string): code is ReasonCode {
  return Object.prototype.hasOwnProperty.call(REASONS, code);
}

/**
 * Older spellings of today's codes. Rows stored before migration 0077 and workflows recorded
 * before the rename may still carry them; they read as the code they became.
 */
const LEGACY_REASONS: Readonly<Record<string, { code: ReasonCode; afterSubmit: boolean }>> = {
  CAPTCHA: { code: 'CAPTCHA_REQUIRED', afterSubmit: false },
  CAPTCHA_AFTER_SUBMIT: { code: 'CAPTCHA_REQUIRED', afterSubmit: true },
};

const legacy = (code: string) =>
  Object.prototype.hasOwnProperty.call(LEGACY_REASONS, code) ? LEGACY_REASONS[code] : undefined;

/** The code as it is spelled today (an unknown code stays as it is, for engineers to see). */
export function canonicalReason(code: string): string {
  return legacy(code)?.code ?? code;
}

/**
 * The same check after the tap on 提交订单 says something else: the order may exist, so the
 * safe next step is to reconcile, never to reset and buy again.
 */
const AFTER_SUBMIT: Partial<Record<ReasonCode, ReasonInfo>> = {
  CAPTCHA_REQUIRED: { zh: '提交后出现验证码/风控，已停止', next: '在拼多多待付款订单中核对同一提交' },
};

/** The operator's text for a stop; `afterSubmit` when the task's submission was tapped. */
export function reasonInfo(code: string, afterSubmit = false): ReasonInfo {
  const today = canonicalReason(code);
  if (!isReasonCode(today)) return { zh: `未知原因（${code}）`, next: '查看任务时间线与 Temporal 工作流详情' };
  return (afterSubmit || legacy(code)?.afterSubmit ? AFTER_SUBMIT[today] : undefined) ?? REASONS[today];
}
