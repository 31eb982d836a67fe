import { z } from 'zod';
import { formatCent } from './money';

/**
 * The operator-editable settings (`app_settings`, changed on 设置 through `PUT /api/settings`):
 * each key once, with its default, its range and the Chinese words the page and the refusals
 * use. The admin validates with the same schema the UI checks before sending, so the two cannot
 * disagree about what is allowed. Secrets never go here (docs/security.md).
 */
export const SETTINGS = {
  'safety.max_quantity': {
    default: 10,
    min: 1,
    max: 99,
    label: '单次采购数量上限',
    unit: '件',
    help: '一个采购任务最多买几件；超过的任务不能开始，也不会从订单生成草稿。',
  },
  'safety.price_tolerance_cent': {
    default: 500,
    min: 0,
    // ¥1,000: a cap this far above the collected price no longer protects anything.
    max: 100_000,
    label: '最高总价容差',
    unit: '元',
    help: '从订单生成草稿时，最高总价 = 采集单价 × 数量 + 容差。',
  },
  'purchase.authorization_ttl_minutes': {
    default: 60,
    // One minute is the shortest authorization the purchase flow is tested with.
    min: 1,
    max: 1440,
    label: '授权有效期',
    unit: '分钟',
    help: '开始采购后，任务须在这段时间内被手机领取，否则自动退回草稿。',
  },
  'diagnostics.retention_days': {
    default: 14,
    min: 1,
    max: 3650,
    label: '失败现场保留天数',
    unit: '天',
    help: '手机主机上失败截图与界面记录保留的天数；手机下次向管理服务注册时生效。',
  },
  'hosts.max_pending_phones': {
    default: 32,
    min: 1,
    // a bound on what one host token can add before an operator looks: 设备 lists every one
    max: 256,
    label: '每台主机待批准手机上限',
    unit: '台',
    help: '一台手机主机最多可有几台待批准的手机；超过后主机新上报的手机会被拒收，直到在「设备」页批准或拒绝。',
  },
  'devices.hold_idle_minutes': {
    default: 5,
    min: 1,
    // a held phone buys nothing: an hour without input is a person who walked away
    max: 60,
    label: '人工操作空闲自动释放',
    unit: '分钟',
    help: '在管理页面接管手机后，这么久没有任何操作就自动释放，手机恢复自动领取任务。',
  },
  // What one 顺运宝 sync may take (admin/syb/sync-run.ts): a hostile or broken upstream fills
  // neither the disk nor the sync's time. Past one, the sync stops with SYB_SYNC_BUDGET, keeps what
  // it stored and leaves its cursor, so the next sync reads the rest.
  'syb.sync_max_lines': {
    default: 20_000,
    // one shipment may list 1,000 lines (SYB_LIMITS.linesPerShipment)
    min: 1_000,
    max: 1_000_000,
    label: '顺运宝每次同步最多明细行数',
    unit: '行',
    help: '一次同步最多保存多少条订单明细；超过后本次同步停止，已保存的保留，其余由下次同步继续。',
  },
  'syb.sync_max_mb': {
    default: 200,
    // at least one whole answer (SYB_LIMITS.answerBytes)
    min: 32,
    max: 4096,
    label: '顺运宝每次同步最多读取',
    unit: 'MB',
    help: '一次同步最多从顺运宝读取多少数据；超过后本次同步停止，其余由下次同步继续。',
  },
  'syb.sync_max_pages': {
    default: 200,
    min: 1,
    max: 10_000,
    label: '顺运宝每次同步最多列表页数',
    unit: '页',
    help: '一次同步最多读取多少页货运单列表；超过后本次同步停止，其余由下次同步继续。',
  },
  // What each order line costs beside its purchase (domain/margin.ts): 0 until the operator says.
  'money.platform_fee_bp': {
    default: 0,
    min: 0,
    max: 10_000,
    label: '虾皮平台费率',
    unit: '基点',
    help: '虾皮从每笔销售额中收取的比例，以基点计（100 基点 = 1%）。计算毛利时从人民币销售额中扣除；修改只影响此后到达待付款的订单。',
  },
  'money.line_fee_cny_cent': {
    default: 0,
    min: 0,
    max: 100_000,
    label: '每行订单固定费用',
    unit: '元',
    help: '每个订单行的转运与处理费用（人民币）。计算毛利时扣除；修改只影响此后到达待付款的订单。',
  },
} as const;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

/**
 * The numbers that have no safe default: unset (null) until an operator sets one, and a PUT of
 * null unsets it again. What reads them says "not set" and computes nothing rather than guess —
 * a made-up exchange rate would print a margin that is not there.
 */
export const OPTIONAL_SETTINGS = {
  'money.twd_to_cny_rate_ppm': {
    min: 1,
    // 10 CNY per TWD: a rate past this is a typo, not a currency
    max: 10_000_000,
    label: '新台币兑人民币汇率',
    unit: 'ppm',
    // the page takes the rate as a decimal (0.225) and stores it × 1,000,000
    help: '1 新台币折合多少人民币，例如 0.225。未设置时不计算人民币金额与毛利；修改只影响此后到达待付款的订单。',
  },
  'money.min_margin_bp': {
    min: -10_000,
    max: 10_000,
    label: '最低毛利率',
    unit: '基点',
    help: '以草稿的最高总价估算，毛利率低于此值的订单行不会由「从订单生成采购草稿」生成（仍可手动生成）。留空则不检查。',
  },
} as const;
export type OptionalSettingKey = keyof typeof OPTIONAL_SETTINGS;
export const OPTIONAL_SETTING_KEYS = Object.keys(OPTIONAL_SETTINGS) as OptionalSettingKey[];

/**
 * The settings that are an address rather than a number: unset (null) until an operator sets
 * one, and what acts on them says so instead of guessing.
 */
export const TEXT_SETTINGS = {
  'admin.public_url': {
    label: '管理服务对外地址',
    placeholder: 'https://admin.example.com',
    help: '其他电脑上的手机主机访问本管理服务用的地址（只填协议、主机名和端口）。发放主机凭据时打印的启动命令使用它；未设置时无法打印可在其他电脑上运行的命令。',
  },
} as const;
export type TextSettingKey = keyof typeof TEXT_SETTINGS;
export const TEXT_SETTING_KEYS = Object.keys(TEXT_SETTINGS) as TextSettingKey[];

/** Every setting's current value (the default until an operator sets it; null: an address not set). */
export type SettingsValues = Record<SettingKey, number> &
  Record<OptionalSettingKey, number | null> &
  Record<TextSettingKey, string | null>;

/** `GET /api/settings`, and the answer to `PUT /api/settings`. */
export interface SettingsView {
  values: SettingsValues;
  /** keys whose stored value is unusable (edited by hand); shown with their default until saved */
  invalid: Array<SettingKey | OptionalSettingKey | TextSettingKey>;
}

/**
 * `admin.public_url`: an http(s) origin (scheme, host, port) — the host builds `/api/host/…` on
 * it, so a path would be dropped — stored without a trailing slash.
 */
export const publicUrlSchema = z
  .string({ message: `${TEXT_SETTINGS['admin.public_url'].label}须为网址` })
  .trim()
  .pipe(
    z.url({ protocol: /^https?$/, message: `${TEXT_SETTINGS['admin.public_url'].label}须以 http:// 或 https:// 开头` }),
  )
  .refine((v) => {
    // zod runs this even after the url check failed
    if (!URL.canParse(v)) return true;
    const u = new URL(v);
    return u.pathname === '/' && u.search === '' && u.hash === '' && u.username === '' && u.password === '';
  }, `${TEXT_SETTINGS['admin.public_url'].label}只填协议、主机名和端口，例如 https://admin.example.com:8443`)
  .transform((v) => new URL(v).origin);

type NumberSettingKey = SettingKey | OptionalSettingKey;
const numberSetting = (key: NumberSettingKey) =>
  key in SETTINGS ? SETTINGS[key as SettingKey] : OPTIONAL_SETTINGS[key as OptionalSettingKey];

function settingValue(key: NumberSettingKey): z.ZodNumber {
  const s = numberSetting(key);
  const range = `${s.label}须在 ${rangeText(key)} 之间`;
  return z
    .number({ message: `${s.label}须为整数` })
    .int(`${s.label}须为整数`)
    .min(s.min, range)
    .max(s.max, range);
}

/** '1–99 件', '¥0.00–¥1000.00': the range as the operator enters it. */
export function rangeText(key: NumberSettingKey): string {
  const s = numberSetting(key);
  if (s.unit === '元') return `¥${formatCent(s.min)}–¥${formatCent(s.max)}`;
  return `${s.min}–${s.max} ${s.unit}`;
}

/** One stored or submitted value, checked against its range. */
export function settingSchema(key: NumberSettingKey): z.ZodNumber {
  return settingValue(key);
}

/** `PUT /api/settings`: any subset of the keys, at least one; unknown keys are refused. */
export const settingsUpdateSchema = z
  .strictObject(
    {
      'safety.max_quantity': settingValue('safety.max_quantity').optional(),
      'safety.price_tolerance_cent': settingValue('safety.price_tolerance_cent').optional(),
      'purchase.authorization_ttl_minutes': settingValue('purchase.authorization_ttl_minutes').optional(),
      'diagnostics.retention_days': settingValue('diagnostics.retention_days').optional(),
      'hosts.max_pending_phones': settingValue('hosts.max_pending_phones').optional(),
      'devices.hold_idle_minutes': settingValue('devices.hold_idle_minutes').optional(),
      'syb.sync_max_lines': settingValue('syb.sync_max_lines').optional(),
      'syb.sync_max_mb': settingValue('syb.sync_max_mb').optional(),
      'syb.sync_max_pages': settingValue('syb.sync_max_pages').optional(),
      'money.platform_fee_bp': settingValue('money.platform_fee_bp').optional(),
      'money.line_fee_cny_cent': settingValue('money.line_fee_cny_cent').optional(),
      // null unsets them
      'money.twd_to_cny_rate_ppm': settingValue('money.twd_to_cny_rate_ppm').nullable().optional(),
      'money.min_margin_bp': settingValue('money.min_margin_bp').nullable().optional(),
      // null clears it
      'admin.public_url': publicUrlSchema.nullable().optional(),
    },
    { error: (iss) => (iss.code === 'unrecognized_keys' ? '只能修改设置页上列出的项目' : '设置须为一个对象') },
  )
  .refine((o) => Object.values(o).some((v) => v !== undefined), '请至少修改一项设置');
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;
