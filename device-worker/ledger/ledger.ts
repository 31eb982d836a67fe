import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { nowUtc } from '../../domain/time';
import { DeviceError } from '../errors';
import { openLedgerDb } from './schema';

/** An open or closed claim of this phone by one workflow. */
export interface ClaimRow {
  claim_id: string;
  device_id: string;
  workflow_id: string;
  run_id: string;
  claimed_at: string;
  released_at: string | null;
  release_reason: string | null;
}

/**
 * The phone host's own SQLite file (data/device/<id>/ledger.db, schema in ./schema.ts). It
 * outlives the worker process, so a claim survives a restart; the partial unique index makes a second open claim
 * impossible even if two claim tasks race inside one process.
 */
export class DeviceLedger {
  private readonly db: Database.Database;

  constructor(
    file: string,
    readonly deviceId: string,
  ) {
    this.db = openLedgerDb(file);
  }

  openClaim(): ClaimRow | null {
    return (
      (this.db.prepare('SELECT * FROM claims WHERE device_id = ? AND released_at IS NULL').get(this.deviceId) as
        ClaimRow | undefined) ?? null
    );
  }

  /**
   * Records the claim for a workflow. The same workflow asking again (an activity retry after
   * a lost reply) gets its existing claim back; any other workflow gets DEVICE_BUSY.
   */
  claim(workflowId: string, runId: string): ClaimRow {
    return this.db
      .transaction((): ClaimRow => {
        const open = this.openClaim();
        if (open) {
          if (open.workflow_id === workflowId) return open;
          throw new DeviceError('DEVICE_BUSY', `device ${this.deviceId} is claimed by ${open.workflow_id}`);
        }
        const row: ClaimRow = {
          claim_id: randomUUID(),
          device_id: this.deviceId,
          workflow_id: workflowId,
          run_id: runId,
          claimed_at: nowUtc(),
          released_at: null,
          release_reason: null,
        };
        this.db
          .prepare(
            'INSERT INTO claims (claim_id, device_id, workflow_id, run_id, claimed_at) VALUES (@claim_id, @device_id, @workflow_id, @run_id, @claimed_at)',
          )
          .run(row);
        return row;
      })
      .immediate();
  }

  /** The open claim, if this workflow owns it under this claim id; otherwise refused. */
  requireOwner(claimId: string, workflowId: string): ClaimRow {
    const open = this.openClaim();
    if (!open || open.claim_id !== claimId || open.workflow_id !== workflowId) {
      throw new DeviceError(
        'DEVICE_NOT_CLAIMED',
        `workflow ${workflowId} does not hold the open claim of device ${this.deviceId}`,
        { open_claim_workflow: open?.workflow_id ?? null },
      );
    }
    return open;
  }

  /** Idempotent: releasing an already released claim of the same workflow is a no-op. */
  release(claimId: string, workflowId: string, reason: string): boolean {
    return this.db
      .transaction((): boolean => {
        const row = this.db.prepare('SELECT * FROM claims WHERE claim_id = ?').get(claimId) as ClaimRow | undefined;
        if (!row || row.workflow_id !== workflowId)
          throw new DeviceError(
            'DEVICE_NOT_CLAIMED',
            `workflow ${workflowId} has no claim ${claimId} on device ${this.deviceId}`,
          );
        if (row.released_at !== null) return false;
        this.db
          .prepare('UPDATE claims SET released_at = ?, release_reason = ? WHERE claim_id = ?')
          .run(nowUtc(), reason, claimId);
        return true;
      })
      .immediate();
  }

  /** For the cleanup of a claim whose workflow Temporal says is closed. */
  closeOrphan(claimId: string, reason: string): boolean {
    const res = this.db
      .prepare('UPDATE claims SET released_at = ?, release_reason = ? WHERE claim_id = ? AND released_at IS NULL')
      .run(nowUtc(), reason, claimId);
    return res.changes === 1;
  }

  claims(): ClaimRow[] {
    return this.db.prepare('SELECT * FROM claims ORDER BY claimed_at, rowid').all() as ClaimRow[];
  }

  getState(key: string): string | null {
    const row = this.db.prepare('SELECT value FROM device_state WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row?.value ?? null;
  }

  setState(key: string, value: string): void {
    this.db
      .prepare(
        'INSERT INTO device_state (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      )
      .run(key, value, nowUtc());
  }

  close(): void {
    this.db.close();
  }
}
