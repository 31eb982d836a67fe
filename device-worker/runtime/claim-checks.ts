import { Client, Connection, QueryNotRegisteredError, WorkflowNotFoundError } from '@temporalio/client';
import { HOLDS_CLAIM_QUERY } from '../../domain/contracts/device-activities';
import { describeError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { temporalDataConverter } from '../../temporal/codec';
import { temporalConnectOptions, type TemporalConnectionSettings } from '../../temporal/connection';
import type { DeviceLedger } from '../ledger/ledger';

/**
 * A claim younger than this is never asked about: its reply may still be on the way to the
 * workflow. Longer than the claim activity's start-to-close timeout (workflows/device-claim.ts),
 * after which Temporal accepts no reply, plus time for the workflow to take it in.
 */
const CLAIM_ANSWER_GRACE_MS = 60_000;

/**
 * Closes the open claim of a workflow that has moved past it, so the phone does not stay busy
 * for nobody: the workflow is no longer running (it failed, was terminated, or its release
 * never arrived), or it runs on but answers the `holdsClaim` query with no — the claim's reply
 * was lost (this host died after its ledger commit) or its release never arrived. A workflow
 * that cannot answer (no admin worker right now, or an older workflow without the query) keeps
 * its claim until it closes. Asks Temporal, on a client connection of its own, at start and
 * then every interval.
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
      const handle = client.workflow.getHandle(open.workflow_id, open.run_id);
      // bounded, so a stop never waits long on a check against a Temporal that is away
      const bounded = <T>(fn: () => Promise<T>) => client.connection.withDeadline(Date.now() + 5_000, fn);
      let closed: string | null = null;
      try {
        const desc = await bounded(() => handle.describe());
        if (desc.status.name !== 'RUNNING') closed = `workflow ${desc.status.name}`;
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) closed = 'workflow NOT_FOUND';
        else throw err;
      }
      if (!closed && Date.now() - Date.parse(open.claimed_at) >= CLAIM_ANSWER_GRACE_MS) {
        try {
          if (!(await bounded(() => handle.query<boolean, [string]>(HOLDS_CLAIM_QUERY, open.claim_id))))
            closed = 'workflow no longer holds the claim';
        } catch (err) {
          if (!(err instanceof QueryNotRegisteredError)) throw err;
        }
      }
      if (closed && this.opts.ledger.closeOrphan(open.claim_id, closed)) {
        this.opts.log.warn(
          { workflowId: open.workflow_id, reason: closed },
          'closed the claim of a workflow that has moved past it',
        );
        return true;
      }
    } catch (err) {
      this.opts.log.warn({ err: describeError(err) }, 'could not check the open claim against Temporal');
    }
    return false;
  }

  private async connect(): Promise<Client> {
    if (!this.client) {
      const connection = await Connection.connect({
        ...temporalConnectOptions(this.opts.temporal),
        connectTimeout: 5_000,
      });
      this.client = new Client({
        connection,
        namespace: this.opts.temporal.namespace,
        identity: this.opts.identity,
        dataConverter: temporalDataConverter(),
      });
    }
    return this.client;
  }
}
