import type Database from 'better-sqlite3';
import { nowUtc } from '../../domain/time';
import { DeviceError } from '../errors';
import { openLedgerDb } from './schema';

/** One irreversible submit of this phone, keyed by the authorization it spent. */
export interface SubmissionRow {
  authorization_id: string;
  submission_id: string;
  task_id: string;
  workflow_id: string;
  /** what the final panel showed when the tap was decided (JSON of FinalPanelReading) */
  expected_json: string;
  /** written and synced BEFORE the tap: from here on the authorization gets only reads */
  irreversible_action_at: string;
  tapped_at: string | null;
  tap_error: string | null;
}

/** The ledger already holds a submission for this authorization: a second one is refused forever. */
class SubmissionRefused extends DeviceError {
  override readonly name: string = 'SubmissionRefused';
  constructor(message: string) {
    super('SUBMIT_REFUSED', message);
  }
}

/**
 * The phone host's record of every 提交订单 tap (docs/engineering.md, step 6), in the same
 * ledger.db as the claims but with its own table and connection. Opened with
 * synchronous=FULL so `irreversible_action_at` is on disk when `begin` returns; the UNIQUE
 * authorization_id makes a second submit for one authorization impossible, across restarts,
 * whatever the code above it does.
 */
export class SubmissionLedger {
  private readonly db: Database.Database;

  constructor(readonly file: string) {
    this.db = openLedgerDb(file);
  }

  get(authorizationId: string): SubmissionRow | null {
    return (
      (this.db.prepare('SELECT * FROM submissions WHERE authorization_id = ?').get(authorizationId) as
        SubmissionRow | undefined) ?? null
    );
  }

  irreversible(authorizationId: string): boolean {
    return this.get(authorizationId) !== null;
  }

  /**
   * Records the irreversible action before it happens. Refused (forever) when the
   * authorization already has a row; returns the durable timestamp.
   */
  begin(
    row: Pick<SubmissionRow, 'authorization_id' | 'submission_id' | 'task_id' | 'workflow_id' | 'expected_json'>,
  ): string {
    const at = nowUtc();
    try {
      this.db
        .transaction(() => {
          this.db
            .prepare(
              'INSERT INTO submissions (authorization_id, submission_id, task_id, workflow_id, expected_json, irreversible_action_at) VALUES (?, ?, ?, ?, ?, ?)',
            )
            .run(row.authorization_id, row.submission_id, row.task_id, row.workflow_id, row.expected_json, at);
        })
        .immediate();
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new SubmissionRefused(
          `authorization ${row.authorization_id} was already submitted at ${this.get(row.authorization_id)?.irreversible_action_at ?? '?'}; never again`,
        );
      }
      throw err;
    }
    // WAL + synchronous=FULL syncs the WAL on commit; a checkpoint is not needed for durability.
    return at;
  }

  markTapped(authorizationId: string, tappedAt: string, error: string | null = null): void {
    this.db
      .prepare('UPDATE submissions SET tapped_at = ?, tap_error = ? WHERE authorization_id = ? AND tapped_at IS NULL')
      .run(tappedAt, error, authorizationId);
  }

  all(): SubmissionRow[] {
    return this.db.prepare('SELECT * FROM submissions ORDER BY irreversible_action_at, rowid').all() as SubmissionRow[];
  }

  close(): void {
    this.db.close();
  }
}
