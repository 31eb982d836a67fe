import { ApiError } from './api';

/**
 * Chinese text per error code. Codes come from the admin API (UPPER_SNAKE) plus the few the
 * client invents for failures that never reached the server. A code missing here falls back to
 * the server's own message, so a new server code is never shown as a blank.
 */
const MESSAGES: Readonly<Record<string, string>> = {
  // Client-side
  NETWORK_ERROR: '无法连接管理服务，请检查网络或服务是否已启动',
  TIMEOUT: '请求超时，请稍后重试',
  BAD_RESPONSE: '服务返回了无法识别的响应',

  // Session and auth
  UNAUTHORIZED: '登录已过期，请重新登录',
  UNAUTHENTICATED: '登录已过期，请重新登录',
  SESSION_EXPIRED: '登录已过期，请重新登录',
  INVALID_CREDENTIALS: '用户名或密码错误',
  TOO_MANY_ATTEMPTS: '尝试次数过多，请稍后再试',
  RATE_LIMITED: '尝试次数过多，请稍后再试',
  FORBIDDEN: '没有权限执行此操作',
  CSRF_INVALID: '页面安全令牌已失效，请重新登录',
  CSRF_MISSING: '页面安全令牌已失效，请重新登录',

  // Generic request outcomes
  BAD_REQUEST: '请求内容有误',
  VALIDATION_FAILED: '输入内容不符合要求',
  VALIDATION_ERROR: '输入内容不符合要求',
  INVALID_INPUT: '输入内容不符合要求',
  NOT_FOUND: '要找的内容不存在',
  CONFLICT: '数据已被他人修改，请刷新后重试',
  VERSION_CONFLICT: '数据已被他人修改，请刷新后重试',
  IDEMPOTENCY_CONFLICT: '重复的请求内容不一致，请刷新后重试',
  PAYLOAD_TOO_LARGE: '上传的文件过大',
  INTERNAL: '服务内部错误，请稍后重试',
  INTERNAL_ERROR: '服务内部错误，请稍后重试',
  TEMPORAL_UNAVAILABLE: 'Temporal 未连接，任务暂时无法启动',

  // Domain
  MISSING_COLUMNS: '导入文件缺少必需的列',
  COLLECT_GOODS_MISMATCH: '采集到的商品与请求的 PDD 商品不一致，已保留原数据',

  // Catalog (admin/catalog/errors.ts)
  INVALID_XLSX: '文件不是可读取的 xlsx，请上传虾皮后台导出的 .xlsx 文件',
  EMPTY_WORKBOOK: '文件里没有任何行，请重新从虾皮后台导出',
  EXPECTED_MULTIPART: '请选择文件后再上传',
  MISSING_FILE: '请选择要导入的文件',
  FILE_TOO_LARGE: '文件太大',
  PDD_URL_NO_GOODS_ID: '链接里找不到 goods_id，请粘贴完整的拼多多商品链接',
  PDD_URL_AMBIGUOUS: '粘贴的内容里有多个拼多多商品，请只粘贴一个商品的链接',
  SHOPEE_PRODUCT_NOT_FOUND: '找不到这个虾皮商品，请先导入',
  SHOPEE_SKU_NOT_FOUND: '找不到这个虾皮 SKU',
  SHOPEE_SKU_EXISTS: '这个商品規格ID 已经存在，请直接修改它',
  PDD_PRODUCT_NOT_FOUND: '找不到这个拼多多商品（可能已删除），请重新粘贴链接',
  PDD_NOT_LINKED: '这个商品还没有填写拼多多链接',
  PDD_NOT_COLLECTED: '拼多多商品还没有采集结果，请先采集',
  PDD_OPTION_UNKNOWN: '拼多多商品没有这个规格组合，请从列表里选择',
  COLLECT_NO_SKUS: '采集到 0 个规格，已记为采集失败',
  INVALID_CURSOR: '分页参数已失效，请刷新页面',
};

/** Used only when the server sent neither a known code nor a message. */
function byStatus(status: number): string {
  if (status === 401) return MESSAGES.UNAUTHORIZED ?? '';
  if (status === 403) return '没有权限执行此操作';
  if (status === 404) return '要找的内容不存在';
  if (status === 409) return '数据已被他人修改，请刷新后重试';
  if (status === 429) return '请求过于频繁，请稍后再试';
  if (status >= 500) return '服务内部错误，请稍后重试';
  return `请求失败（HTTP ${status}）`;
}

export function messageForCode(code: string): string | undefined {
  return MESSAGES[code];
}

/** Text to show an operator for anything a call may throw. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    const known = messageForCode(err.code);
    if (known !== undefined) {
      const names = err.code === 'MISSING_COLUMNS' ? missingColumns(err.details) : err.code === 'VALIDATION_FAILED' ? invalidFields(err.details) : [];
      return names.length > 0 ? `${known}：${names.join('、')}` : known;
    }
    return err.message !== '' ? err.message : byStatus(err.status);
  }
  if (err instanceof Error && err.message !== '') return err.message;
  return '发生未知错误';
}

// The details shapes below are the admin's (admin/http/errors.ts); anything else yields no names.

function missingColumns(details: unknown): string[] {
  if (typeof details !== 'object' || details === null || !('columns' in details)) return [];
  const cols: unknown = details.columns;
  return Array.isArray(cols) ? cols.filter((c): c is string => typeof c === 'string') : [];
}

function invalidFields(details: unknown): string[] {
  if (typeof details !== 'object' || details === null || !('issues' in details)) return [];
  const issues: unknown = details.issues;
  if (!Array.isArray(issues)) return [];
  const paths = issues.map((i: unknown) =>
    typeof i === 'object' && i !== null && 'path' in i && typeof i.path === 'string' && i.path !== '' ? i.path : null,
  );
  return [...new Set(paths.filter((p): p is string => p !== null))];
}
