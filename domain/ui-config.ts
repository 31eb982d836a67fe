/** `GET /api/config`: what the operator UI is told about the admin it talks to. */
export interface UiConfig {
  /** the Temporal Web UI the admin was started with; null when it is not known (no link then) */
  temporal_ui_url: string | null;
  /** the namespace the admin's workflows run in */
  temporal_namespace: string;
}
