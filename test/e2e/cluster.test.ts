import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { startCluster, type Cluster, type ClusterProcess } from '../../scripts/cluster/cluster';
import { running } from '../../platform/process-tree';
import { SEARCH_ATTRIBUTE_NAMES } from '../../temporal/search-attributes';

/**
 * `npm run cluster` (scripts/cluster/): a real Temporal cluster on PostgreSQL. It builds the server
 * from source the first time (minutes) and needs Go and PostgreSQL, so it runs only when asked:
 * `CMAUTOBUY_CLUSTER_SMOKE=1 CMAUTOBUY_TEST_NO_TEMPORAL=1 npx jest test/e2e/cluster.test.ts`.
 */
const smoke = process.env.CMAUTOBUY_CLUSTER_SMOKE === '1' ? describe : describe.skip;

smoke('a Temporal cluster on PostgreSQL (npm run cluster)', () => {
  let root: string;
  let cluster: Cluster | undefined;
  const said: string[] = [];

  /** the namespace answers with the five search attributes, through the frontend */
  const answers = async (c: Cluster): Promise<string[]> => {
    for (let i = 0; ; i++) {
      try {
        const connection = await Connection.connect({ address: c.address, connectTimeout: 2_000 });
        try {
          await connection.workflowService.describeNamespace({ namespace: c.namespace });
          const sa = await connection.operatorService.listSearchAttributes({ namespace: c.namespace });
          return Object.keys(sa.customAttributes ?? {});
        } finally {
          await connection.close();
        }
      } catch (err) {
        if (i >= 240) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };

  beforeAll(async () => {
    // not below the run's 0700 temp folder: PostgreSQL runs as the postgres user when the test is root
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cmautobuy-cluster-'));
    fs.chmodSync(root, 0o755);
    cluster = await startCluster({ root, say: (l) => said.push(l) });
  }, 1_800_000);
  afterAll(async () => {
    await cluster?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('registers the namespace and the search attributes', async () => {
    expect(cluster!.namespace).toBe('cmautobuy');
    expect((await answers(cluster!)).sort()).toEqual(expect.arrayContaining([...SEARCH_ATTRIBUTE_NAMES].sort()));
    for (const pid of Object.values(cluster!.pids())) expect(running(pid)).toBe(true);
  });

  it('brings back a SIGKILLed service, a restarted one and a restarted PostgreSQL', async () => {
    const before = cluster!.pids();
    process.kill(before.history, 'SIGKILL');
    const back = () => cluster!.pids().history !== before.history && running(cluster!.pids().history);
    for (let i = 0; i < 600 && !back(); i++) await new Promise((r) => setTimeout(r, 200));
    expect(cluster!.pids().history).not.toBe(before.history);
    for (const p of ['matching', 'frontend', 'postgres'] as ClusterProcess[]) await cluster!.restart(p);
    const after = cluster!.pids();
    for (const p of ['matching', 'frontend', 'postgres'] as const) expect(after[p]).not.toBe(before[p]);
    await answers(cluster!);
    expect(said.filter((l) => l.includes('restart'))).not.toHaveLength(0);
  }, 600_000);

  it('stops everything it started', async () => {
    const pids = Object.values(cluster!.pids());
    await cluster!.stop();
    cluster = undefined;
    expect(pids.filter(running)).toEqual([]);
  }, 120_000);
});
