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

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Failures of one shipment's detail; a wrong account, address or a lost session stop the sync. */
function perShipment(err: SybError): boolean {
  return err.code === 'SYB_BAD_ANSWER' || err.code === 'SYB_UNAVAILABLE';
}

/**
 * What one sync has read so far (./sync.ts runs it): the list pages, each shipment's detail once,
 * the lines upserted, and what it could not read or store, for the state row it ends with.
 */
export class SyncRun {
  readonly counts: SybSyncCounts;
  readonly failed: FailedShipment[] = [];
  private readonly truncated: string[] = [];
  private readonly seen = new Set<string>();
  pageLimitHit = false;

  constructor(
    private readonly syb: SybService,
    private readonly client: SybClient,
    private readonly span: { startedAt: string; fromDay: string; toDay: string },
    private readonly heartbeat: (progress: { pages: number; lines: number }) => void,
  ) {
    this.counts = { pages: 0, lines: 0, new_lines: 0, from_day: span.fromDay, to_day: span.toDay };
  }

  /** Every list page until one lists nothing new, at most `SYB_LIMITS.pagesPerSync`, each shipment read as it comes. */
  async walkPages(): Promise<void> {
    const { syb, counts } = this;
    for (let page = 1, pages = 1; page <= pages; page++) {
      if (page > SYB_LIMITS.pagesPerSync) {
        this.pageLimitHit = true;
        syb.log.warn({ pages, limit: SYB_LIMITS.pagesPerSync }, 'SYB list claims more pages than one sync reads');
        break;
      }
      const listed = await this.client.listPage(this.span.fromDay, this.span.toDay, page);
      pages = listed.pages;
      if (listed.refused > 0) syb.log.warn({ page, refused: listed.refused }, 'SYB list entries without a usable id');
      const fresh = [...new Set(listed.shipmentIds)].filter((id) => !this.seen.has(id));
      for (const shipmentId of fresh) await this.readShipment(shipmentId);
      counts.pages = page;
      await setState(syb.db, { progress_pages: counts.pages });
      this.heartbeat({ pages: counts.pages, lines: counts.lines });
      // A page with nothing new ends the walk, whatever `pages` claims (an empty or repeated page).
      if (fresh.length === 0) break;
    }
  }

  /** The shipments an earlier sync could not read, unless this one has read them already. */
  async readAgain(retries: FailedShipment[]): Promise<void> {
    for (const retry of retries) if (!this.seen.has(retry.id)) await this.readShipment(retry.id);
    this.heartbeat({ pages: this.counts.pages, lines: this.counts.lines });
  }

  /** What `last_error` says of a sync that ended: the shipments not read, the lines cut, the pages left. */
  problems(): string[] {
    const { failed, truncated } = this;
    return [
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
      ...(this.pageLimitHit
        ? [`SYB lists more than ${SYB_LIMITS.pagesPerSync} pages; the rest is read by the next sync`]
        : []),
    ];
  }

  private async readShipment(shipmentId: string): Promise<void> {
    const { syb, counts } = this;
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
    for (let i = 0; i < read.lines.length; i += WRITE_BATCH) {
      counts.new_lines += await upsertLines(syb.db, read.lines.slice(i, i + WRITE_BATCH));
      await yieldToEventLoop();
    }
    counts.lines += read.lines.length;
    await setState(syb.db, { progress_lines: counts.lines });
  }
}
