/**
 * 审计日志 in the operator's words: the actions the admin writes (grep `action: '` in admin/),
 * grouped as the 操作 filter offers them, what a row's target and actor are. An action without
 * a label here shows its code: the log keeps every row, named or not.
 */

export interface ActionGroup {
  label: string;
  /** the filter value for the whole group: every action under it */
  prefix: string;
  actions: ReadonlyArray<readonly [code: string, label: string]>;
}

export const ACTION_GROUPS: readonly ActionGroup[] = [
  {
    label: '采购任务',
    prefix: 'task.*',
    actions: [
      ['task.create', '创建采购草稿'],
      ['task.create.low_margin', '创建草稿（毛利低于下限）'],
      ['task.edit', '修改草稿'],
      ['task.start', '开始采购'],
      ['task.canceled', '取消任务'],
      ['task.hide', '隐藏任务'],
      ['task.repaired', '修正任务状态'],
      ['task.catch_up', '补记任务状态'],
      ['task.payment_check_requested', '请求核对付款'],
      ['task.request', '收到操作请求'],
      ['task.request_refused', '操作请求被拒绝'],
      ['task.request_superseded', '操作请求已被取代'],
      ['task.request_failed', '操作请求未完成'],
    ],
  },
  {
    label: '手机',
    prefix: 'device.*',
    actions: [
      ['device.issue', '添加手机'],
      ['device.register', '手机登记'],
      ['device.approve', '批准手机'],
      ['device.reject', '拒绝手机'],
      ['device.rename', '修改手机名称'],
      ['device.rotate', '更换手机凭证'],
      ['device.revoke', '停用手机'],
      ['device.pause', '暂停手机'],
      ['device.resume', '恢复手机'],
      ['device.resume_checked', '恢复前检查手机画面'],
      ['device.hold', '接管手机'],
      ['device.release', '结束接管'],
      ['device.input', '在画面上操作手机'],
      ['device.pdd_account', '设置拼多多账号'],
      ['evidence.upload', '上传证据截图'],
    ],
  },
  {
    label: '主机与拼多多版本',
    prefix: 'host.*',
    actions: [
      ['host.issue', '添加主机'],
      ['host.revoke', '停用主机'],
      ['host.rotate', '更换主机凭证'],
      ['host.phone_seen', '主机发现手机'],
      ['app_version.release', '放行拼多多版本'],
      ['app_version.withdraw', '撤回拼多多版本'],
      ['overlay.teach', '教弹窗'],
      ['overlay.review', '确认弹窗'],
      ['overlay.retire', '停用弹窗'],
    ],
  },
  {
    label: '商品',
    prefix: 'shopee.*',
    actions: [
      ['shopee.import', '导入虾皮商品'],
      ['shopee.sku.add', '添加虾皮规格'],
      ['shopee.sku.fix', '修正虾皮规格'],
      ['shopee.pdd_link.set', '关联拼多多商品'],
      ['shopee.pdd_link.clear', '取消关联拼多多商品'],
      ['sku_mapping.set', '设置规格对应'],
      ['sku_mapping.clear', '清除规格对应'],
      ['pdd.collect.start', '开始采集'],
      ['pdd.product.delete', '删除拼多多商品'],
    ],
  },
  {
    label: '订单与设置',
    prefix: 'syb.*',
    actions: [
      ['syb.sync.start', '同步顺运宝订单'],
      ['syb.settings.set', '修改顺运宝账号'],
      ['syb_order.sku.set', '确认订单规格'],
      ['settings.set', '修改设置'],
      ['restore.lost_drafts', '恢复备份后补记'],
    ],
  },
  {
    label: '登录与用户',
    prefix: 'session.*',
    actions: [
      ['session.login', '登录'],
      ['session.logout', '退出登录'],
      ['session.login_failed', '登录失败'],
      ['user.add', '添加用户'],
      ['user.passwd', '修改密码'],
    ],
  },
];

const ACTION_LABELS = new Map(ACTION_GROUPS.flatMap((g) => g.actions));

/** The Chinese name of an action, or its code when it has none. */
export function actionLabel(code: string): string {
  return ACTION_LABELS.get(code) ?? code;
}

/** The 操作 filter's text for a value: a group's `全部…`, an action, or the code as typed. */
export function actionFilterLabel(value: string): string {
  const group = ACTION_GROUPS.find((g) => g.prefix === value);
  return group ? `${group.label}（全部）` : actionLabel(value);
}

const TARGET_KINDS: Readonly<Record<string, string>> = {
  task: '任务',
  device: '手机',
  host: '主机',
  user: '用户',
  evidence: '证据截图',
  app_version: '拼多多版本',
  shopee_product: '虾皮商品',
  shopee_sku: '虾皮规格',
  shopee_import: '导入文件',
  pdd_product: '拼多多商品',
  syb_order: '订单明细',
  file: '文件',
  restore: '恢复',
  route: '接口',
};

export function targetKindLabel(kind: string): string {
  return TARGET_KINDS[kind] ?? kind;
}

/** The admin's own components that write rows (`kind: 'system'` in admin/). */
const SYSTEM_ACTORS: Readonly<Record<string, string>> = {
  login: '系统（登录）',
  'first-start': '系统（首次启动）',
  'restore-catch-up': '系统（恢复备份）',
  'device-holds': '系统（自动结束接管）',
  'resume-check': '系统（恢复前检查）',
};

/**
 * Who did it, as stored: an operator's name as is; a device id as the phone's name when it is
 * known; the admin's own components as 系统.
 */
export function actorLabel(actor: string, phoneNames: ReadonlyMap<string, string>): string {
  const phone = phoneNames.get(actor);
  if (phone) return `手机 ${phone}`;
  if (actor.startsWith('host:')) return `主机 ${actor.slice('host:'.length)}`;
  if (actor.startsWith('cli:')) return `命令行 ${actor.slice('cli:'.length)}`;
  return SYSTEM_ACTORS[actor] ?? actor;
}
