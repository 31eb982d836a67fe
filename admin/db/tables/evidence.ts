/** Internal raw screenshots (docs/architecture.md §5.4); the file lives at `<evidence dir>/<storage_key>`. */
export interface EvidenceAssetsTable {
  id: string;
  upload_key: string;
  task_id: string;
  attempt_id: string;
  kind: string;
  privacy_tier: 'INTERNAL_RAW';
  sha256: string;
  byte_size: number;
  content_type: 'image/png';
  width_px: number;
  height_px: number;
  storage_key: string;
  uploaded_by_device_id: string;
  captured_at: string;
  created_at: string;
}

export interface EvidenceTables {
  evidence_assets: EvidenceAssetsTable;
}
