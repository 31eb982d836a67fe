import { Client, Connection } from '@temporalio/client';
import { describeError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { temporalConnectOptions, type TemporalConnectionSettings } from '../../temporal/connection';
import type { DeviceLedger } from '../ledger/ledger';

/**
 * Closes the open claim of a workflow that is no longer running (it failed, was terminated, or
 * its release never arrived), so the phone does not stay busy for a workflow that is gone.
 * Asks Temporal, on a client connection of its own, at start and then every interval.
 */
export class OrphanClaimChecks {
  private client: Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly opts: {
      temporal: TemporalConnectionSettings;
      /** this worker's identity (runtime/identity.ts), so its calls are recognisable in the history */
      identity: string;
      ledger: DeviceLedger;
      log: Logger;
      /** after each periodic check: the phone may have become idle */
      afterCheck: () => Promise<void>;
    },
  ) {}

  /**
   * One check at a time: while Temporal is down a check can take longer than the interval, and
   * checks piling up would still be retrying when the worker closes the connection under them.
   */
  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      if (this.checking || !this.timer) return;
      this.checking = this.closeOrphanClaim()
        .then(() => this.opts.afterCheck())
        .finally(() => (this.checking = null));
    }, intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.checking;
  }

  /** Called once the last user of the client is gone (after the worker loop ended). */
  async close(): Promise<void> {
    await this.client?.connection.close().catch(() => undefined);
  }

  /** Returns true when it closed the open claim; a failure to ask Temporal is logged, never thrown. */
  async closeOrphanClaim(): Promise<boolean> {
    const open = this.opts.ledger.openClaim();
    if (!open) return false;
    try {
      const client = await this.connect();
      let closed: string | null = null;
      try {
        // bounded, so a stop never waits long on a check against a Temporal that is away
        const desc = await client.connection.withDeadline(Date.now() + 5_000, () => client.workflow.getHandle(open.workflow_id, open.run_id).describe());
        if (desc.status.name !== 'RUNNING') closed = desc.status.name;
      } catch (err) {
        if ((err as Error).name === 'WorkflowNotFoundError') closed = 'NOT_FOUND';
        else throw err;
      }
      if (closed && this.opts.ledger.closeOrphan(open.claim_id, `workflow ${closed}`)) {
        this.opts.log.warn({ workflowId: open.workflow_id, status: closed }, 'closed the claim of a workflow that is no longer running');
        return true;
      }
    } catch (err) {
      this.opts.log.warn({ err: describeError(err) }, 'could not check the open claim against Temporal');
    }
    return false;
  }

  private async connect(): Promise<Client> {
    if (!this.client) {
      const connection = await Connection.connect({ ...temporalConnectOptions(this.opts.temporal), connectTimeout: 5_000 });
      this.client = new Client({ connection, namespace: this.opts.temporal.namespace, identity: this.opts.identity });
    }
    return this.client;
  }
}
