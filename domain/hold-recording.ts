/**
 * A phone's recording while a person held it (`GET /api/devices/:deviceId/recordings`): one frame
 * a second, never of a payment screen; each frame is served by `GET /api/evidence/:id`.
 */
export interface HoldRecording {
  held_by: string;
  since: string;
  /** null while the hold lasts */
  until: string | null;
  /** oldest first */
  frames: Array<{ evidence_id: string; captured_at: string }>;
}

export interface HoldRecordingsView {
  /** newest hold first */
  holds: HoldRecording[];
}
