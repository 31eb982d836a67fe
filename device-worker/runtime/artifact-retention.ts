import type { Logger } from '../../platform/logger';
import type { PhoneHostSettings } from '../admin-client';
import { ArtifactStore } from '../artifacts';

const DAY_MS = 86_400_000;
const DEFAULT_RETENTION_DAYS = 14;

export interface ArtifactRetention {
  artifacts: ArtifactStore;
  /** the admin's 设置 decide the retention unless this host was given one explicitly */
  onSettings(settings: PhoneHostSettings): void;
  stop(): void;
}

/**
 * One phone's failure artifacts and how long they are kept: old ones are removed at start and
 * daily, and again when the admin's retention changes.
 */
export function keepArtifacts(dir: string, explicitDays: number | undefined, log: Logger): ArtifactRetention {
  const artifacts = new ArtifactStore(dir, explicitDays ?? DEFAULT_RETENTION_DAYS);
  const clean = () => {
    const removed = artifacts.cleanup();
    if (removed > 0) log.info({ removed, retentionDays: artifacts.retentionDays }, 'old failure artifacts removed');
  };
  clean();
  const daily = setInterval(clean, DAY_MS).unref();
  return {
    artifacts,
    onSettings(s) {
      if (explicitDays !== undefined || s.artifact_retention_days === artifacts.retentionDays) return;
      artifacts.retentionDays = s.artifact_retention_days;
      log.info({ retentionDays: s.artifact_retention_days }, 'artifact retention from the admin');
      clean();
    },
    stop: () => clearInterval(daily),
  };
}
