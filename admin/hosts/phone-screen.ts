import type { ScreenMeta } from '../../domain/contracts/host-channel';
import { notFound, tooMany, unavailable } from '../../domain/api-error';
import { describeInput, type PhoneInput } from '../../domain/phone-input';
import { recordAudit, type AuditActor } from '../audit/audit';
import type { AdminDb } from '../db/database';
import { touchHold } from '../devices/holds';
import type { HostChannels } from './channel';

/** A browser watching one phone (the stream socket, seen from here). */
export interface Viewer {
  sendText(text: string): void;
  sendFrame(body: Buffer): void;
  /** bytes queued and not yet written to the browser: a slow viewer skips frames instead of queueing them */
  readonly backlog: number;
  close(code: number, reason: string): void;
}

/** A viewer further behind than this gets no new frame until it caught up. */
const MAX_BACKLOG_BYTES = 2 * 1024 * 1024;
/** The H.264 frames kept for a late viewer (the last key frame and those after it), at most this many bytes. */
const MAX_REPLAY_BYTES = 4 * 1024 * 1024;
/** A person taps a few times a second; a script floods. Burst and sustained rate per phone. */
const INPUT_BURST = 30;
const INPUT_PER_SECOND = 10;

interface Watch {
  meta: ScreenMeta | null;
  viewers: Set<Viewer>;
  stop: () => void;
  /** H.264: the last key frame and every frame since, what a viewer joining now decodes from */
  replay: Buffer[];
  replayBytes: number;
  /** H.264 viewers that missed a frame: they get none until the next key frame */
  behind: Set<Viewer>;
}

/** Keeps the frames a late H.264 viewer needs; too many bytes since the key frame: none (it waits for the next). */
function keep(watch: Watch, body: Buffer, key: boolean): void {
  if (key) {
    watch.replay = [body];
    watch.replayBytes = body.length;
  } else if (watch.replay.length && watch.replayBytes + body.length <= MAX_REPLAY_BYTES) {
    watch.replay.push(body);
    watch.replayBytes += body.length;
  } else {
    watch.replay = [];
    watch.replayBytes = 0;
  }
}

/**
 * The live screen and input of host phones (docs/api.md §12.3): finds the phone's host, asks it
 * over its channel, and fans one host stream out to every browser watching the phone — eight
 * viewers of one phone cost the phone one stream.
 */
export class PhoneScreens {
  private readonly watches = new Map<string, Watch>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly db: AdminDb,
    private readonly channels: HostChannels,
  ) {}

  /** The host of an approved phone; a phone of no host (a worker started by hand) has no screen here. */
  private async hostOf(deviceId: string): Promise<string> {
    const row = await this.db
      .selectFrom('host_phones')
      .innerJoin('device_credentials', 'device_credentials.device_id', 'host_phones.device_id')
      .select(['host_phones.host_id', 'host_phones.approved_at', 'device_credentials.status'])
      .where('host_phones.device_id', '=', deviceId)
      .executeTakeFirst();
    if (!row) throw notFound('DEVICE_NOT_FOUND', `no phone host reports device ${deviceId}`);
    if (row.status !== 'ACTIVE' || row.approved_at === null)
      throw notFound('DEVICE_NOT_FOUND', `device ${deviceId} is not an approved phone`);
    return row.host_id;
  }

  async frame(deviceId: string): Promise<{ contentType: string; body: Buffer }> {
    return this.channels.frame(await this.hostOf(deviceId), deviceId);
  }

  /** The holder's input, after the rate check; the host checks it against the screen. Audited without the text. */
  async input(actor: AuditActor, username: string, deviceId: string, input: PhoneInput): Promise<void> {
    const hostId = await this.hostOf(deviceId);
    await touchHold(this.db, username, deviceId);
    this.spend(deviceId);
    await this.channels.input(hostId, deviceId, input);
    await recordAudit(this.db, actor, {
      action: 'device.input',
      target: { kind: 'device', id: deviceId },
      details: describeInput(input),
    });
  }

  private spend(deviceId: string): void {
    const now = Date.now();
    const b = this.buckets.get(deviceId) ?? { tokens: INPUT_BURST, at: now };
    b.tokens = Math.min(INPUT_BURST, b.tokens + ((now - b.at) / 1000) * INPUT_PER_SECOND);
    b.at = now;
    this.buckets.set(deviceId, b);
    if (b.tokens < 1)
      throw tooMany('INPUT_RATE_LIMITED', `more than ${INPUT_PER_SECOND} inputs a second to one phone; slow down`);
    b.tokens -= 1;
  }

  /** Adds a viewer of the phone's stream; the first viewer starts it on the host, the last one gone stops it. */
  async watch(deviceId: string, viewer: Viewer): Promise<() => void> {
    let w = this.watches.get(deviceId);
    if (!w) {
      const hostId = await this.hostOf(deviceId);
      if (!this.channels.connected(hostId))
        throw unavailable('SCREEN_UNAVAILABLE', `phone host ${hostId} has no channel open to this admin`);
      const watch: Watch = {
        meta: null,
        viewers: new Set(),
        stop: () => undefined,
        replay: [],
        replayBytes: 0,
        behind: new Set(),
      };
      watch.stop = this.channels.watch(hostId, deviceId, {
        meta: (meta) => {
          watch.meta = meta;
          for (const v of watch.viewers) v.sendText(JSON.stringify(meta));
        },
        frame: (body, key) => {
          const h264 = watch.meta?.codec === 'h264';
          if (h264) keep(watch, body, key);
          for (const v of watch.viewers) {
            if (h264 && watch.behind.has(v)) {
              if (!key) continue;
              watch.behind.delete(v);
            }
            if (v.backlog < MAX_BACKLOG_BYTES) v.sendFrame(body);
            else if (h264) watch.behind.add(v);
          }
        },
        ended: (reason) => {
          if (this.watches.get(deviceId) === watch) this.watches.delete(deviceId);
          for (const v of watch.viewers) v.close(1011, `the phone's stream ended: ${reason}`.slice(0, 120));
        },
      });
      this.watches.set(deviceId, watch);
      w = watch;
    }
    const watch = w;
    watch.viewers.add(viewer);
    if (watch.meta) viewer.sendText(JSON.stringify(watch.meta));
    // a late H.264 viewer decodes from the last key frame on, or waits for the next one
    if (watch.meta?.codec === 'h264') {
      for (const f of watch.replay) viewer.sendFrame(f);
      if (!watch.replay.length) watch.behind.add(viewer);
    }
    return () => {
      watch.viewers.delete(viewer);
      watch.behind.delete(viewer);
      if (watch.viewers.size === 0 && this.watches.get(deviceId) === watch) {
        this.watches.delete(deviceId);
        watch.stop();
      }
    };
  }

  /** How many phones are streamed and to how many browsers (bench, metrics). */
  get watching(): { phones: number; viewers: number } {
    let viewers = 0;
    for (const w of this.watches.values()) viewers += w.viewers.size;
    return { phones: this.watches.size, viewers };
  }
}
