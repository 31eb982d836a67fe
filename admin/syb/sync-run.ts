import { setImmediate } from 'node:timers/promises';
import { SYB_LIMITS, type SybSyncCounts } from '../../domain/syb';
import type { SybService } from './account';
import { SybError, type SybClient } from './client';
import { upsertLines } from './store';
import { setState, type FailedShipment } from './sync-state';

/** Lines per write transaction: the admin answers other requests between two of them (kept small: each is synchronous SQLite work). */
const WRITE_BATCH = 20;
/** Detail calls that may fail in one sync before it counts as an outage (cursor kept). */
const MAX_FAILED_SHIPMENTS = 20;
/** Refusals logged one by one per shipment; the rest as a count. */
const LOGGED_REFUSALS = 50;

const yieldToEventLoop = () => setImmediate();

/**
 * Failures of one shipment's detail (an answer too costly to parse among them: the shipment is
 * retried by the next sync, not this one); a wrong account, address, a lost session, a spent
 * budget or a stop stop the sync.
 */
function perShipment(err: SybError): boolean {
  return err.code === 'SYB_BAD_ANSWER' || err.code === 'SYB_UNAVAILABLE' || err.code === 'SYB_ANSWER_TOO_COSTLY';
}

/** What one sync may take (domain/settings.ts `syb.sync_max_*`); bytes are counted by the client. */
export interface SyncBudget {
  lines: number;
  pages: number;
}

/**
 * What one sync has read so far (./sync.ts runs it): the list pages, each shipment's detail once,
 * the lines upserted, and what it could not read or store, for the state row it ends with. It
 * stops at the first budget passed (`budgetHit`: lines, pages, or the client's bytes) and checks
 * between every call and write batch whether it was told to stop (the client's signal).
 */
export class SyncRun {
  readonly counts: SybSyncCounts;
  readonly failed: FailedShipment[] = [];
  private readonly truncated: string[] = [];
  private readonly seen = new Set<string>();
  /** which budget ended the sync before it read everything (the cursor then stays); null while none */
  budgetHit: string | null = null;

  constructor(
    private readonly syb: SybService,
    private readonly client: SybClient,
    private readonly span: { startedAt: string; fromDay: string; toDay: string },
    private readonly budget: SyncBudget,
    private readonly heartbeat: (progress: { pages: number; lines: number }) => void,
  ) {
    this.counts = { pages: 0, lines: 0, new_lines: 0, from_day: span.fromDay, to_day: span.toDay };
  }

  /** Every list page until one lists nothing new or a budget is spent, each shipment read as it comes. */
  async walkPages(): Promise<void> {
    await this.withinBudget(async () => {
      const { syb, counts } = this;
      for (let page = 1, pages = 1; page <= pages; page++) {
        if (page > this.budget.pages) {
          syb.log.warn({ pages, limit: this.budget.pages }, 'SYB list claims more pages than one sync reads');
          this.budgetHit = `SYB lists more than ${this.budget.pages} pages, the limit per sync`;
          return;
        }
        this.client.checkStopped();
        const listed = await this.client.listPage(this.span.fromDay, this.span.toDay, page);
        pages = listed.pages;
        if (listed.refused > 0) syb.log.warn({ page, refused: listed.refused }, 'SYB list entries without a usable id');
        const fresh = [...new Set(listed.shipmentIds)].filter((id) => !this.seen.has(id));
        for (const shipmentId of fresh) {
          await this.readShipment(shipmentId);
          if (this.budgetHit) return;
        }
        counts.pages = page;
        await setState(syb.db, { progress_pages: counts.pages });
        this.heartbeat({ pages: counts.pages, lines: counts.lines });
        // A page with nothing new ends the walk, whatever `pages` claims (an empty or repeated page).
        if (fresh.length === 0) break;
      }
    });
  }

  /** The shipments an earlier sync could not read, unless this one has read them already (none once a budget is spent). */
  async readAgain(retries: FailedShipment[]): Promise<void> {
    await this.withinBudget(async () => {
      for (const retry of retries) {
        if (this.budgetHit) return;
        if (!this.seen.has(retry.id)) await this.readShipment(retry.id);
      }
    });
    this.heartbeat({ pages: this.counts.pages, lines: this.counts.lines });
  }

  /** Runs a part of the sync; the client's byte budget ending it is a budget hit, not a failure. */
  private async withinBudget(part: () => Promise<void>): Promise<void> {
    if (this.budgetHit) return;
    try {
      await part();
    } catch (err) {
      if (!(err instanceof SybError) || err.code !== 'SYB_SYNC_BUDGET') throw err;
      this.syb.log.warn({ bytes: this.client.bytesRead }, 'SYB sync stopped at its byte budget');
      this.budgetHit = err.message;
    }
  }

  /** What `last_error` says of a sync that ended: the budget that stopped it, the shipments not read, the lines cut. */
  problems(): string[] {
    const { failed, truncated } = this;
    return [
      ...(this.budgetHit ? [`${this.budgetHit}; the rest is read by the next sync`] : []),
      ...(failed.length > 0
        ? [
            `the detail of ${failed.length} shipment(s) could not be read, the next sync tries again: ${failed.map((f) => `${f.id} (${f.error})`).join('; ')}`,
          ]
        : []),
      ...(truncated.length > 0
        ? [
            `${truncated.length} shipment(s) list more than ${SYB_LIMITS.linesPerShipment} lines, only the first are stored: ${truncated.join(', ')}`,
          ]
        : []),
    ];
  }

  private async readShipment(shipmentId: string): Promise<void> {
    const { syb, counts } = this;
    this.client.checkStopped();
    if (counts.lines >= this.budget.lines) {
      this.budgetHit = `this sync stored ${counts.lines} lines, the limit per sync (shipment ${shipmentId} not read)`;
      return;
    }
    this.seen.add(shipmentId);
    let read;
    try {
      read = await this.client.shipmentLines(shipmentId, this.span.startedAt);
    } catch (err) {
      if (!(err instanceof SybError) || !perShipment(err)) throw err;
      this.failed.push({ id: shipmentId, error: `${err.code}: ${err.message}`.slice(0, 300) });
      syb.log.warn(
        { shipment_id: shipmentId, code: err.code, err: err.message },
        'SYB shipment not read; retried by the next sync',
      );
      if (this.failed.length > MAX_FAILED_SHIPMENTS) throw err;
      return;
    }
    for (const refusal of read.refusals.slice(0, LOGGED_REFUSALS))
      syb.log.warn({ shipment_id: shipmentId, refusal }, 'SYB data refused');
    if (read.refusals.length > LOGGED_REFUSALS)
      syb.log.warn(
        { shipment_id: shipmentId, more: read.refusals.length - LOGGED_REFUSALS },
        'SYB data refused (more)',
      );
    if (read.linesOverLimit > 0) this.truncated.push(shipmentId);
    // Lines past the sync's budget are not stored: this shipment and the rest wait for the next sync.
    const room = Math.max(0, this.budget.lines - counts.lines);
    const lines = read.lines.length > room ? read.lines.slice(0, room) : read.lines;
    for (let i = 0; i < lines.length; i += WRITE_BATCH) {
      this.client.checkStopped();
      counts.new_lines += await upsertLines(syb.db, lines.slice(i, i + WRITE_BATCH));
      counts.lines += Math.min(WRITE_BATCH, lines.length - i);
      await yieldToEventLoop();
    }
    await setState(syb.db, { progress_lines: counts.lines });
    this.heartbeat({ pages: counts.pages, lines: counts.lines });
    if (lines.length < read.lines.length) {
      syb.log.warn({ shipment_id: shipmentId, limit: this.budget.lines }, 'SYB sync stopped at its line budget');
      this.budgetHit = `this sync stored ${counts.lines} lines, the limit per sync (shipment ${shipmentId} not all stored)`;
    }
  }
}
