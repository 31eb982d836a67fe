import { conflict } from '../../domain/api-error';
import type { ScreenNode, ScreenNodesView } from '../../domain/screen-nodes';
import { nowUtc } from '../../domain/time';
import type { AdminDb } from '../db/database';
import { holderOf } from './holds';

interface Read {
  holdSince: string;
  readAt: string;
  nodes: ScreenNode[];
}

/**
 * The nodes a held phone's worker last read (docs/api.md §12.3), for 教弹窗. In this process's
 * memory only, never in the database: a screen may show a buyer's name, address or phone number,
 * and nothing of it is worth keeping past the hold. One read per phone, the latest; each belongs
 * to its hold (named by its `since`), so a read is answered only while that same hold lasts and
 * is forgotten the first time it is asked for after the hold ended.
 */
export class ScreenNodeReads {
  private readonly reads = new Map<string, Read>();

  /** Keeps a read of the hold under way; DEVICE_NOT_HELD when the phone is not held by that hold right now. */
  async put(db: AdminDb, deviceId: string, holdSince: string, nodes: ScreenNode[]): Promise<void> {
    const holder = await holderOf(db, deviceId);
    if (!holder || holder.since !== holdSince) {
      this.reads.delete(deviceId);
      throw conflict(
        'DEVICE_NOT_HELD',
        `nobody holds this phone since ${holdSince}: its screen is read only during its hold`,
        {
          held_since: holder?.since ?? null,
        },
      );
    }
    this.reads.set(deviceId, { holdSince, readAt: nowUtc(), nodes });
  }

  /** The latest read of the hold under way, or none. */
  async get(db: AdminDb, deviceId: string): Promise<ScreenNodesView> {
    const read = this.reads.get(deviceId);
    if (!read) return { read_at: null, nodes: [] };
    const holder = await holderOf(db, deviceId);
    if (!holder || holder.since !== read.holdSince) {
      // the hold ended (or another began): what it showed is not this person's to see
      if (this.reads.get(deviceId) === read) this.reads.delete(deviceId);
      return { read_at: null, nodes: [] };
    }
    return { read_at: read.readAt, nodes: read.nodes };
  }
}
