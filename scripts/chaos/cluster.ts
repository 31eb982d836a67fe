import type { KillTarget } from './matrix';

/** The Temporal cluster a `--cluster` chaos run starts, and how it kills its parts. */
export interface ChaosClusterRun {
  temporal: { address: string; payloadKeys: string };
  owns(target: KillTarget): boolean;
  kill(target: KillTarget): Promise<void>;
  stop(): Promise<void>;
}

export async function startChaosCluster(_say: (line: string) => void): Promise<ChaosClusterRun> {
  throw new Error('--cluster: the cluster of `npm run cluster` is not there yet');
}
