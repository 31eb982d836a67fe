import { draftDryRuns, startTasks, waitForTerminal } from '../../bench/purchases';
import { ledgerClaims, startStack, type Stack } from '../../bench/stack';
import { workflowTimes } from '../../bench/workflow-times';
import { getJson, sharedTemporal, tempDataDir } from '../harness';
import { allocateNamespace } from '../namespaces';

/**
 * The scale bench's set-up as a correctness test: eight phone hosts (each device worker its own
 * process, data dir and token) against one admin process. Timings stay in `bench/`; here every
 * purchase must pass its dry run and no phone may ever have held two claims at once.
 */
describe('eight phone hosts, one admin', () => {
  let stack: Stack | undefined;
  afterAll(async () => {
    await stack?.close();
  });

  it('runs 16 dry-run purchases to DRY_RUN_PASSED with every phone holding at most one claim at a time', async () => {
    const { address, workflowBundlePath } = sharedTemporal();
    const namespace = allocateNamespace();
    stack = await startStack({
      root: tempDataDir('orchestration'),
      temporal: { address, namespace },
      workflowBundlePath,
      phones: 8,
      latency: 'zero',
      adminPassword: 'orchestration-test-password',
    });
    await stack.addPhoneHosts(8);
    expect(new Set(stack.hosts.map((h) => h.dataDir)).size).toBe(8);

    const drafts = await draftDryRuns(stack, 16);
    await startTasks(stack.op, drafts);
    const statuses = await waitForTerminal(
      stack.adminDbFile,
      drafts.map((d) => d.task_id),
      150_000,
    );
    expect([...statuses.values()]).toEqual(Array(16).fill('DRY_RUN_PASSED'));
    // the status is written before the workflow releases the phone: read the ledgers once all closed
    await workflowTimes(
      { address, namespace },
      stack.adminDbFile,
      drafts.map((d) => d.task_id),
    );

    const claimedWorkflows: string[] = [];
    for (const host of stack.hosts) {
      const claims = ledgerClaims(host.ledgerFile);
      // every claim released, and each one only after the previous one was
      claims.forEach((c, i) => {
        expect(c.released_at).not.toBeNull();
        if (i > 0) expect(c.claimed_at >= claims[i - 1]!.released_at!).toBe(true);
      });
      claimedWorkflows.push(...claims.map((c) => c.workflow_id));
    }
    // one claim per purchase, each purchase on one phone
    expect(claimedWorkflows).toHaveLength(16);
    expect(new Set(claimedWorkflows).size).toBe(16);
    // spread over more than one host (the claim queue is shared, not pinned to a phone)
    expect(stack.hosts.filter((h) => ledgerClaims(h.ledgerFile).length > 0).length).toBeGreaterThan(1);

    // a dry run stops at the final panel: no phone has an order
    for (const host of stack.hosts) {
      const orders = await getJson(`${stack.simControlUrl}/devices/${host.serial}/orders`);
      expect(orders.body).toEqual([]);
    }
  }, 240_000);
});
