/**
 * Every admin endpoint the UI calls, one function each, typed with the shapes the server builds
 * (domain/). This is the only module that names an API path; ids always go through
 * encodeURIComponent.
 */
import type {
  ImportResult,
  MappingBoard,
  MappingSaved,
  PddGoodsDetailView,
  PddListItem,
  ProductDetailView,
  ProductListItem,
} from '../../../domain/catalog-views';
import type { ProductState } from '../../../domain/catalog';
import type { AttentionQueue } from '../../../domain/attention';
import type { AppVersionView, DeviceView, IssuedDeviceView } from '../../../domain/devices';
import type { HostSetupFacts } from '../../../domain/host-setup';
import type { Page } from '../../../domain/page';
import type { NodeMatcher, TaughtOverlayView } from '../../../domain/pdd-overlay';
import type { PhoneInput } from '../../../domain/phone-input';
import type { HoldRecordingsView } from '../../../domain/hold-recording';
import type { ScreenNodesView } from '../../../domain/screen-nodes';
import type { CreatePurchaseDraft, EditPurchaseDraft } from '../../../domain/purchase/schemas';
import type { ExecutionMode } from '../../../domain/purchase/status';
import type { DraftWarning, TaskListItem, TaskView } from '../../../domain/purchase/views';
import type { SettingsUpdate, SettingsView } from '../../../domain/settings';
import type { SystemCheckResult } from '../../../domain/system-check';
import type { MatchState, OrderLineView, SybSyncStatus } from '../../../domain/syb';
export type { SybSyncStatus } from '../../../domain/syb';
import type { UiConfig } from '../../../domain/ui-config';
import { http, query } from './client';

const id = encodeURIComponent;

type Options = Record<string, string>;
interface ListParams {
  q?: string;
  cursor?: string | null;
  limit?: number;
}

// Session (a 401 on these means wrong credentials or already gone, never "go to login")

export interface Me {
  username: string;
  /** Taken when offered, so a fresh tab can mutate without logging in again. */
  csrf_token?: string;
}

export const getMe = (): Promise<Me> => http.get<Me>('/api/me');
export const createSession = (username: string, password: string): Promise<{ csrf_token: string }> =>
  http.post('/api/session', { username, password }, { noAuthRedirect: true });
export const deleteSession = (): Promise<unknown> => http.del('/api/session', { noAuthRedirect: true });
/** Where the admin's surroundings are (the Temporal Web UI it was started with). */
export const getUiConfig = (): Promise<UiConfig> => http.get<UiConfig>('/api/config');

/** `GET /healthz`: no session; null when the admin did not answer with a JSON body. */
export interface Healthz {
  status?: unknown;
  db?: unknown;
  temporal?: unknown;
}
export const getHealth = (timeoutMs: number): Promise<Healthz | null> => http.probe<Healthz>('/healthz', timeoutMs);

// 采购任务

export interface DraftCreated {
  task_id: string;
  version: number;
  status: string;
  /** 草稿提示 of the saved draft (domain/purchase/views.ts DraftWarning) */
  warnings: Array<{ code: string; message: string }>;
}
export interface StartItem {
  task_id: string;
  version: number;
}

/** What the admin knows to buy for a mapped Shopee SKU (the 采购 form's pre-fill). */
export interface KnownPurchase {
  pdd_goods_id: string;
  pdd_goods_url: string;
  pdd_options: Options;
  quantity: number;
  max_total_price_cent: number;
  title: string | null;
  /** the collected price is 推测价格, so the pre-filled cap is a guess */
  price_inferred: boolean;
}

/** `live_warnings`: the release gate's warning before any live purchase (empty: none) */
export const listTasks = (
  p: ListParams & { status?: string; includeHidden?: boolean; paymentCheck?: 'open' },
): Promise<Page<TaskListItem> & { live_warnings?: DraftWarning[] }> =>
  http.get(
    `/api/tasks${query({ status: p.status, q: p.q, include_hidden: p.includeHidden ? '1' : undefined, payment_check: p.paymentCheck, limit: p.limit, cursor: p.cursor })}`,
  );
export const getTask = (taskId: string): Promise<TaskView> => http.get(`/api/tasks/${id(taskId)}`);
/** listed tasks per status (hidden ones not counted): the status tabs' numbers */
export const getTaskCounts = (): Promise<{ counts: Record<string, number> }> => http.get('/api/tasks/counts');
export const createTask = (draft: CreatePurchaseDraft): Promise<DraftCreated> => http.post('/api/tasks', draft);
/** A new version of a DRAFT; 409 NOT_DRAFT or VERSION_CONFLICT when it moved on. */
export const editTask = (taskId: string, edit: EditPurchaseDraft): Promise<TaskView> =>
  http.patch(`/api/tasks/${id(taskId)}`, edit);
export const copyTaskAsLive = (taskId: string): Promise<DraftCreated> =>
  http.post(`/api/tasks/${id(taskId)}/copy-live`, {});
export const getKnownPurchase = (shopeeSkuId: string): Promise<KnownPurchase> =>
  http.get(`/api/tasks/known${query({ shopee_sku_id: shopeeSkuId })}`);
/** All or nothing: a 409 HIDE_REFUSED lists each task still in progress in `details.tasks`. */
export const hideTasks = (taskIds: readonly string[]): Promise<{ hidden: string[] }> =>
  http.post('/api/tasks/hide', { task_ids: taskIds });
/** All or nothing: a 409 START_REFUSED lists each refused task in `details.tasks`. */
export const startTasks = (tasks: readonly StartItem[]): Promise<unknown> => http.post('/api/tasks/start', { tasks });
export const cancelTask = (taskId: string): Promise<TaskView> => http.post(`/api/tasks/${id(taskId)}/cancel`, {});
export const resetTask = (taskId: string): Promise<TaskView> => http.post(`/api/tasks/${id(taskId)}/reset`, {});
export const markTaskPaid = (taskId: string): Promise<TaskView> => http.post(`/api/tasks/${id(taskId)}/mark-paid`, {});
/** 标记已付款 for several: each task applied or refused with its code (docs/api.md). */
export const markTasksPaid = (tasks: readonly StartItem[]): Promise<{ tasks: MarkPaidResult[] }> =>
  http.post('/api/tasks/mark-paid', { tasks });
export type MarkPaidResult =
  { task_id: string; result: 'applied' } | { task_id: string; result: 'refused'; code: string; message: string };
/** 重新核对: look at the phone's 待付款 list again for a task marked paid. */
export const recheckPayment = (taskId: string): Promise<TaskView> =>
  http.post(`/api/tasks/${id(taskId)}/payment-check`, {});
export const resolveTask = (
  taskId: string,
  outcome: { outcome: 'created'; pdd_order_no: string } | { outcome: 'not_created' },
): Promise<TaskView> => http.post(`/api/tasks/${id(taskId)}/resolve`, outcome);

/** Where an evidence screenshot is served (to logged-in operators only, by the session cookie). */
export const evidenceImageUrl = (evidenceId: string): string => `/api/evidence/${id(evidenceId)}`;

// 商品 and PDD 商品

export const listShopeeProducts = (
  p: ListParams & { state?: ProductState | ''; parseFailed?: boolean },
): Promise<Page<ProductListItem>> =>
  http.get(
    `/api/shopee/products${query({ q: p.q, state: p.state, parse_failed: p.parseFailed ? 1 : undefined, limit: p.limit, cursor: p.cursor })}`,
  );
export const getShopeeProduct = (goodsId: string): Promise<ProductDetailView> =>
  http.get(`/api/shopee/products/${id(goodsId)}`);
export const setPddLink = (goodsId: string, url: string): Promise<unknown> =>
  http.put(`/api/shopee/products/${id(goodsId)}/pdd-link`, { url });
/** The product shows 未填链接 again; its mappings stay with the goods they were made for. */
export const unlinkPdd = (goodsId: string): Promise<unknown> =>
  http.del(`/api/shopee/products/${id(goodsId)}/pdd-link`);
export const addManualSku = (
  goodsId: string,
  sku: { sku_id: string; color: string; size: string; advice: string | null },
): Promise<unknown> => http.post(`/api/shopee/products/${id(goodsId)}/skus`, sku);
export const fixSku = (skuId: string, fix: { color: string; size: string; advice: string | null }): Promise<unknown> =>
  http.put(`/api/shopee/skus/${id(skuId)}`, fix);
export const importShopeeProducts = (
  file: File,
  onProgress: (fraction: number | null) => void,
): Promise<ImportResult> => {
  const form = new FormData();
  form.append('file', file);
  return http.upload<ImportResult>('/api/shopee/imports', form, onProgress);
};

export const listPddProducts = (
  p: ListParams & { state?: Exclude<ProductState, 'unlinked'> | '' },
): Promise<Page<PddListItem>> =>
  http.get(`/api/pdd/products${query({ q: p.q, state: p.state, limit: p.limit, cursor: p.cursor })}`);
export const getPddProduct = (pddGoodsId: string): Promise<PddGoodsDetailView> =>
  http.get(`/api/pdd/products/${id(pddGoodsId)}`);
export const startCollect = (pddGoodsId: string): Promise<unknown> =>
  http.post(`/api/pdd/products/${id(pddGoodsId)}/collect`);
export const deletePddProduct = (pddGoodsId: string): Promise<unknown> =>
  http.del(`/api/pdd/products/${id(pddGoodsId)}`);

export const getMappingBoard = (goodsId: string): Promise<MappingBoard> =>
  http.get(`/api/mappings${query({ goods_id: goodsId })}`);
export const setMapping = (skuId: string, pddOptions: Options): Promise<MappingSaved> =>
  http.put(`/api/mappings/${id(skuId)}`, { pdd_options: pddOptions });
export const clearMapping = (skuId: string): Promise<unknown> => http.del(`/api/mappings/${id(skuId)}`);

// 订单 (顺运宝)

export type OrderLine = OrderLineView;
export interface OrderLineFilter {
  match?: MatchState | '';
  hasTask?: boolean | undefined;
  /** Taipei days, YYYY-MM-DD, inclusive */
  dateFrom?: string;
  dateTo?: string;
}
/** One line of a 生成采购草稿 batch: the draft made, or why none was. */
export interface OrderDraftResult {
  syb_id: string;
  task_id: string | null;
  error: { code: string; message: string; margin?: DraftMarginFigures | null } | null;
}
/** MARGIN_TOO_LOW: the line's figures at the draft's cap, CNY cents (admin/purchase/margin-guard.ts) */
export interface DraftMarginFigures {
  sale_cny_cent: number;
  fees_cny_cent: number;
  cost_cny_cent: number;
  margin_cny_cent: number;
  margin_bp: number | null;
  min_margin_bp: number;
}

export const getSybSync = (): Promise<SybSyncStatus> => http.get('/api/syb/sync');
/** Joins a sync already running instead of starting a second one. */
export const startSybSync = (): Promise<{ workflow_id: string }> => http.post('/api/syb/sync', {});
export const listOrderLines = (p: ListParams & OrderLineFilter): Promise<Page<OrderLine>> =>
  http.get(
    `/api/syb/orders${query({
      q: p.q,
      match: p.match,
      has_task: p.hasTask === undefined ? undefined : String(p.hasTask),
      date_from: p.dateFrom,
      date_to: p.dateTo,
      limit: p.limit,
      cursor: p.cursor,
    })}`,
  );
/** The answer is the line as it now stands. */
export const setOrderLineSku = (sybId: string, skuId: string | null): Promise<OrderLine> =>
  http.put(`/api/syb/orders/${id(sybId)}/sku`, { shopee_sku_id: skuId });
/** `allowLowMargin`: the operator confirmed drafting below 最低毛利率 (sent for one line at a time). */
export const draftsFromOrderLines = (
  sybIds: readonly string[],
  mode: ExecutionMode,
  allowLowMargin = false,
): Promise<{ results: OrderDraftResult[] }> =>
  http.post('/api/tasks/from-orders', {
    syb_ids: sybIds,
    execution_mode: mode,
    ...(allowLowMargin ? { allow_low_margin: true } : {}),
  });

// 设备 and 设置

export const listDevices = (): Promise<DeviceView[]> => http.get('/api/devices');
/** The token is in this answer only; nothing can show it again. */
export const issueDevice = (displayName: string): Promise<IssuedDeviceView> =>
  http.post('/api/devices', { display_name: displayName });
export const renameDevice = (
  deviceId: string,
  displayName: string,
): Promise<{ device_id: string; display_name: string }> =>
  http.patch(`/api/devices/${id(deviceId)}`, { display_name: displayName });
/** The PDD account the phone is logged in as; null clears it. */
export const setDevicePddAccount = (
  deviceId: string,
  pddAccount: string | null,
): Promise<{ device_id: string; pdd_account: string | null }> =>
  http.patch(`/api/devices/${id(deviceId)}`, { pdd_account: pddAccount });
export const revokeDevice = (deviceId: string): Promise<unknown> =>
  http.post(`/api/devices/${id(deviceId)}/revoke`, {});
export const runSystemCheck = (): Promise<SystemCheckResult> => http.post('/api/system/checks', {});
export const getSettings = (): Promise<SettingsView> => http.get('/api/settings');
/** Only the keys given change; the answer has every value as it now is. */
export const saveSettings = (update: SettingsUpdate): Promise<SettingsView> => http.put('/api/settings', update);

/** The 顺运宝 account; the password is never sent back, only whether one is set. */
export interface SybAccountView {
  url: string | null;
  username: string | null;
  password_set: boolean;
  configured: boolean;
  session_expires_at: string | null;
}
export const getSybAccount = (): Promise<SybAccountView> => http.get('/api/syb/settings');
export const saveSybAccount = (change: {
  url?: string;
  username?: string;
  password?: string;
}): Promise<SybAccountView> => http.put('/api/syb/settings', change);

// Phones that need a person, and the release gate per PDD app version (admin/devices)
export const pauseDevice = (deviceId: string): Promise<unknown> => http.post(`/api/devices/${id(deviceId)}/pause`, {});
/**
 * 恢复 / 处理完毕，继续: `attention` null once the stop cleared; still set (with
 * `check_requested`) when the phone has not been read yet. PHONE_STILL_BLOCKED when it was read
 * and still shows a page only a person can clear (`details.page`).
 */
export interface ResumeAnswer {
  device_id: string;
  attention: { reason_code: string; since: string; check_requested?: boolean } | null;
  cleared: { reason_code: string; since: string } | null;
}
export const resumeDevice = (deviceId: string): Promise<ResumeAnswer> =>
  http.post(`/api/devices/${id(deviceId)}/resume`, {});
export const listAppVersions = (): Promise<AppVersionView[]> => http.get('/api/app-versions');
export const releaseAppVersion = (version: string): Promise<AppVersionView> =>
  http.post(`/api/app-versions/${id(version)}/release`, {});
/** 撤回发布: live submits on the version are refused again. */
export const withdrawAppVersion = (version: string): Promise<AppVersionView> =>
  http.del(`/api/app-versions/${id(version)}/release`);
/** 需处理: the phones and tasks waiting for a person, oldest first. */
export const getAttention = (): Promise<AttentionQueue> => http.get('/api/attention');

// A phone's live screen: watching, 接管 / 释放 and a person's input (docs/api.md §12.3)

/** `接管`'s answer: who holds the phone, since when, and when it is released if nobody touches it. */
export interface DeviceHold {
  device_id: string;
  held_by: string;
  since: string;
  idle_release_at: string;
}
/** DEVICE_HELD (details.held_by) when someone else holds it; the holder's own call restarts its idle clock. */
export const holdDevice = (deviceId: string): Promise<DeviceHold> => http.post(`/api/devices/${id(deviceId)}/hold`, {});
export const releaseDevice = (deviceId: string): Promise<unknown> => http.del(`/api/devices/${id(deviceId)}/hold`);
/** DEVICE_NOT_HELD unless this operator holds the phone; INPUT_RATE_LIMITED when sent too fast. */
export const sendPhoneInput = (deviceId: string, input: PhoneInput): Promise<unknown> =>
  http.post(`/api/devices/${id(deviceId)}/input`, input);
/** The stream's WebSocket on this same origin (the session cookie goes with it). */
export function screenStreamUrl(deviceId: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/api/devices/${id(deviceId)}/screen/stream`;
}
/** 从屏幕读取: what the held phone's worker last read, for 教弹窗; none while nobody holds it. */
export const getScreenNodes = (deviceId: string): Promise<ScreenNodesView> =>
  http.get(`/api/devices/${id(deviceId)}/screen/nodes`);
/** 人工操作录像: the phone's holds, newest first, each with its frames (served by `evidenceImageUrl`). */
export const getHoldRecordings = (deviceId: string): Promise<HoldRecordingsView> =>
  http.get(`/api/devices/${id(deviceId)}/recordings`);

// Phone hosts (docs/phone-hosts.md)
export interface IssuedHostView {
  host_id: string;
  display_name: string;
  token: string;
  /** what the command for the phone machine is built from (domain/host-setup.ts) */
  setup: HostSetupFacts;
}
export const issueHost = (displayName: string): Promise<IssuedHostView> =>
  http.post('/api/hosts', { display_name: displayName });
export const approveDevice = (deviceId: string): Promise<unknown> =>
  http.post(`/api/devices/${id(deviceId)}/approve`, {});
export const rejectDevice = (deviceId: string): Promise<unknown> =>
  http.post(`/api/devices/${id(deviceId)}/reject`, {});
// 订单: 规格不一致 confirmed, and where a refused draft is fixed

/** The operator saw 规格不一致 and keeps this SKU for the line anyway. */
export const setOrderLineSkuConfirmed = (sybId: string, skuId: string): Promise<OrderLine> =>
  http.put(`/api/syb/orders/${id(sybId)}/sku`, { shopee_sku_id: skuId, confirm_mismatch: true });
/** `error.link` of a from-orders refusal: the page (app path) that fixes it. */
export interface RefusalLink {
  href: string;
  label: string;
}
export const refusalLink = (r: OrderDraftResult): RefusalLink | null =>
  (r.error as { link?: RefusalLink | null } | null)?.link ?? null;

// 教弹窗: popups a person taught from a phone's screen, per PDD app version (admin/devices/taught-overlays.ts)

export type TaughtOverlay = TaughtOverlayView;
/** What 教弹窗 sends: `name` lowercase letters, digits and _; 1–8 signature matchers; the one close control. */
export interface OverlayTeaching {
  name: string;
  signature: NodeMatcher[];
  close: NodeMatcher;
}
export const listTaughtOverlays = (version: string): Promise<{ overlays: TaughtOverlay[] }> =>
  http.get(`/api/app-versions/${id(version)}/overlays`);
/** OVERLAY_INVALID (`details.field`), OVERLAY_NAME_TAKEN, OVERLAY_LIMIT, UNKNOWN_APP_VERSION. */
export const teachOverlay = (version: string, teaching: OverlayTeaching): Promise<TaughtOverlay> =>
  http.post(`/api/app-versions/${id(version)}/overlays`, teaching);
export const reviewOverlay = (version: string, overlayId: number): Promise<TaughtOverlay> =>
  http.post(`/api/app-versions/${id(version)}/overlays/${id(String(overlayId))}/review`, {});
export const retireOverlay = (version: string, overlayId: number): Promise<unknown> =>
  http.del(`/api/app-versions/${id(version)}/overlays/${id(String(overlayId))}`);
