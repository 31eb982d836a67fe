// The admin activities the collect workflow calls (workflows/collect.ts). Interface only:
// activities/admin/catalog/ implements it on the `admin` queue.
import type { SkusJson } from '../../domain/collect';

export interface CatalogCollectActivities {
  /** A phone took the collect: collect_status = collecting, remember which device runs it. */
  markCollecting(input: { pddGoodsId: string; workflowId: string; deviceId: string }): Promise<void>;
  /**
   * Stores skus_json as collected. goods_id ≠ pddGoodsId → rejects with COLLECT_GOODS_MISMATCH
   * and keeps the old data; zero SKUs → failed, not collected.
   */
  saveCollectResult(input: {
    pddGoodsId: string;
    workflowId: string;
    deviceId: string;
    result: SkusJson;
    /** ADB round trips, dumps, taps, wall time of the phone side */
    counters?: Record<string, unknown>;
  }): Promise<{ status: 'collected'; skus: number }>;
  /** collect_status = failed with the reason code and where the phone host keeps the artifacts. */
  markCollectFailed(input: {
    pddGoodsId: string;
    workflowId: string;
    code: string;
    message: string;
    artifactPath?: string | null;
  }): Promise<void>;
}
