/**
 * 需处理 (`GET /api/attention`, docs/api.md §12.1): everything that waits for a person, phones
 * and purchase tasks in one list, oldest first. The admin builds these and the UI imports the
 * type, so the two cannot drift apart.
 */
export interface AttentionItem {
  kind: 'device' | 'task';
  /** the device_id of a phone, the task_id of a task */
  id: string;
  /**
   * the phone's attention code, the task's stop reason (its status when it recorded none), or for
   * a draft of an order line whose re-collected price rose above its cap, its 草稿提示 code
   * (MARGIN_TOO_LOW when it also falls below 设置 → 最低毛利率, else CAP_BELOW_COLLECTED_PRICE), or
   * for a started task no phone will take until a person acts, NO_PHONE_CAN_CLAIM
   */
  reason_code: string;
  reason_zh: string;
  /** when it started waiting: the phone's attention row, the task's move into its status (a draft: its collect) */
  since: string;
  /** what the operator calls it: the phone's display name, the task's goods title */
  title: string | null;
  /** the phone whose screen to open: the phone itself, or the one the task ran on (null: none yet) */
  device_id: string | null;
}

export interface AttentionQueue {
  items: AttentionItem[];
}
