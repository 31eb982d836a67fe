/**
 * Where operators open a workflow in the Temporal Web UI. There is no /api/ui-config yet, so
 * this is the one place to change when the UI moves (CMAUTOBUY_TEMPORAL_UI_PORT, namespace).
 */
export const TEMPORAL_UI_BASE = 'http://127.0.0.1:8233';
export const TEMPORAL_NAMESPACE = 'cmautobuy';

export function temporalWorkflowUrl(workflowId: string): string {
  return `${TEMPORAL_UI_BASE}/namespaces/${encodeURIComponent(TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(workflowId)}`;
}
