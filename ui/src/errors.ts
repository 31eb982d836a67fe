import { API_ERROR_CODES, isApiErrorCode, isOperatorText } from '../../domain/api-errors';
import { ApiError } from './api/client';

/**
 * Chinese text per error code: the server's codes from domain/api-errors.ts, plus the few the
 * client invents for failures that never reached the server. A code missing from both falls
 * back to the server's own message, so an unexpected code is never shown as a blank.
 */
const CLIENT_ERROR_CODES = {
  NETWORK_ERROR: '无法连接管理服务，请检查网络或服务是否已启动',
  TIMEOUT: '请求超时，请稍后重试',
  BAD_RESPONSE: '服务返回了无法识别的响应',
} as const satisfies Record<string, string>;

const MESSAGES: Readonly<Record<string, string>> = { ...API_ERROR_CODES, ...CLIENT_ERROR_CODES };

/** Used only when the server sent neither a known code nor a message. */
function byStatus(status: number): string {
  if (status === 401) return API_ERROR_CODES.UNAUTHENTICATED;
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
      // Some refusals (e.g. ACTION_NOT_ALLOWED) already say in Chinese exactly why; keep that.
      if (isApiErrorCode(err.code) && isOperatorText(err.message)) return err.message;
      if (err.code === 'LOGIN_RATE_LIMITED') return lockoutText(err.details) ?? known;
      const names =
        err.code === 'MISSING_COLUMNS'
          ? missingColumns(err.details)
          : err.code === 'VALIDATION_FAILED'
            ? invalidFields(err.details)
            : [];
      return names.length > 0 ? `${known}：${names.join('、')}` : known;
    }
    return err.message !== '' ? err.message : byStatus(err.status);
  }
  if (err instanceof Error && err.message !== '') return err.message;
  return '发生未知错误';
}

/** 登录被锁定: the wait in whole minutes, rounded up (the admin sends seconds); under a minute in seconds. */
function lockoutText(details: unknown): string | null {
  if (typeof details !== 'object' || details === null || !('retry_after_seconds' in details)) return null;
  const seconds: unknown = details.retry_after_seconds;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return null;
  return seconds < 60
    ? `失败次数过多，登录已暂时锁定：请 ${Math.ceil(seconds)} 秒后再试`
    : `失败次数过多，登录已暂时锁定：请 ${Math.ceil(seconds / 60)} 分钟后再试`;
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
