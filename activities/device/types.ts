// Contract of the device activities, shared with workflows: types only, no I/O.
import type { SkusJson } from '../../domain/collect';
import type { DeviceCounters } from '../../device-worker/counters';

export type { DeviceCounters };

/** What `claimDevice` answers: the device and the queue every later activity must go to. */
export interface DeviceClaim {
  claim_id: string;
  device_id: string;
  task_queue: string;
  claimed_at: string;
}

export interface DeviceActivityInput {
  claim: DeviceClaim;
}

export interface DeviceHealth {
  device_id: string;
  serial: string;
  model: string;
  app_version: string | null;
  /** a page profile exists for this app version */
  app_supported: boolean;
  screen: { width: number; height: number } | null;
  counters: DeviceCounters;
}

export interface CollectSkusInput extends DeviceActivityInput {
  pddGoodsId: string;
}

/** seed 000 §8.1 `pdd_data`, the phone-side record of one collect (no purchase part). */
export interface PddData {
  schema_version: 1;
  goods: { goods_id: string; url: string; title: string };
  shop: { name: string | null };
  dimensions: { key: string; name: string; values: { text: string; available: boolean }[] }[];
  skus: SkusJson['skus'];
  purchase: null;
  captured_at: string;
  source: { device_id: string; device_address: string; pdd_package: string; app_version: string };
  artifacts: string[];
}

export interface CollectSkusResult {
  skus_json: SkusJson;
  pdd_data: PddData;
  counters: DeviceCounters;
}

/** Details of every device ApplicationFailure (its `type` is the code). */
export interface DeviceFailureDetails {
  code: string;
  message: string;
  artifact_path: string | null;
  counters: DeviceCounters;
}

export interface ClaimDeviceActivities {
  claimDevice(): Promise<DeviceClaim>;
}

export interface DeviceActivities {
  deviceHealth(input: DeviceActivityInput): Promise<DeviceHealth>;
  collectSkus(input: CollectSkusInput): Promise<CollectSkusResult>;
  releaseDevice(input: DeviceActivityInput): Promise<{ released: boolean }>;
}
