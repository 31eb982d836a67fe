/** `GET /api/config`: what the operator UI is told about the admin it talks to. */
export interface UiConfig {
  /** the Temporal Web UI the admin was started with; null when it is not known (no link then) */
  temporal_ui_url: string | null;
  /** the namespace the admin's workflows run in */
  temporal_namespace: string;
  /** the admin database was restored from a backup lately: what the start's catch-up did and lost */
  restore_notice: RestoreNotice | null;
}

/** The newest restore's audit row `restore.lost_drafts` (admin/purchase/catch-up-notice.ts). */
export interface RestoreNotice {
  /** the audit row's id: the UI remembers its dismissal by it */
  id: number;
  /** UTC, when the admin caught the restored database up */
  at: string;
  /** tasks moved on to what their workflow wrote since the backup */
  caught_up: number;
  /** tasks created and started after the backup, recreated from their workflow */
  recreated: number;
  /** drafts created after the backup and never started: gone. Null when no replaced database was there to name them */
  lost_drafts: Array<{ task_id: string; title: string | null }> | null;
  /** purchase workflows still without a task: the catch-up could not recreate them */
  unmatched_workflows: number;
}
