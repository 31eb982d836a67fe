import type { WebSocket } from 'ws';
import {
  hostToAdminSchema,
  readFrameMessage,
  type AdminToHost,
  type HostToAdmin,
  type ScreenMeta,
} from '../../domain/contracts/host-channel';
import type { PhoneInput } from '../../domain/phone-input';
import { describeError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { invalidInput, unavailable } from '../../domain/api-error';
import { installedPayloadKeys } from '../../temporal/codec';
import { formatPayloadKeys } from '../../temporal/codec/keys-handoff';

/** How long one `frame` or `input` may take on the host (a screencap of a busy phone takes ~1 s). */
const REQUEST_TIMEOUT_MS = 10_000;

interface Pending {
  resolve(answer: { reply: Extract<HostToAdmin, { op: 'reply' }>; body: Buffer | null }): void;
  reject(err: Error): void;
  reply: Extract<HostToAdmin, { op: 'reply' }> | null;
  timer: NodeJS.Timeout;
}

export interface StreamSink {
  meta(meta: ScreenMeta): void;
  /** `key`: the host announced it as an H.264 key frame */
  frame(body: Buffer, key: boolean): void;
  ended(reason: string): void;
}

/** One host's open channel: its requests and streams, numbered on this side. */
class HostLink {
  private nextId = 1;
  readonly pending = new Map<number, Pending>();
  readonly streams = new Map<number, StreamSink>();
  /** streams whose next frame the host announced as a key frame */
  readonly keyNext = new Set<number>();

  constructor(
    readonly hostId: string,
    readonly socket: WebSocket,
  ) {}

  id(): number {
    const id = this.nextId;
    this.nextId = this.nextId >= 0xffff_fff0 ? 1 : this.nextId + 1;
    return id;
  }

  send(msg: AdminToHost): void {
    this.socket.send(JSON.stringify(msg));
  }

  close(why: string): void {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(unavailable('SCREEN_UNAVAILABLE', `the phone host left (${why})`));
    }
    this.pending.clear();
    for (const s of this.streams.values()) s.ended(why);
    this.streams.clear();
  }
}

/**
 * The phone hosts connected to this admin over their outward channel
 * (domain/contracts/host-channel.ts). The admin never dials a host: what it asks goes down the
 * socket the host opened. One socket a host; a new one replaces the old.
 */
export class HostChannels {
  private readonly links = new Map<string, HostLink>();

  constructor(private readonly log: Logger) {}

  attach(hostId: string, socket: WebSocket): void {
    this.links.get(hostId)?.socket.close(4000, 'replaced by a newer channel');
    const link = new HostLink(hostId, socket);
    this.links.set(hostId, link);
    socket.on('message', (data, isBinary) => this.receive(link, data as Buffer, isBinary));
    socket.on('close', () => {
      if (this.links.get(hostId) === link) this.links.delete(hostId);
      link.close('channel closed');
    });
    socket.on('error', (err) => this.log.warn({ host_id: hostId, err: describeError(err) }, 'host channel error'));
    // first on every channel: a host runs no device worker before it has the keys, and one the
    // admin restarted with a rotated ring gets the new one when it reconnects
    link.send({ op: 'keys', payload_keys: formatPayloadKeys(installedPayloadKeys()) });
    this.log.info({ host_id: hostId }, 'phone host channel open; payload keys sent');
  }

  connected(hostId: string): boolean {
    return this.links.has(hostId);
  }

  /** Cuts a revoked host off at once. */
  drop(hostId: string): void {
    this.links.get(hostId)?.socket.close(4001, 'host revoked');
  }

  closeAll(): void {
    for (const link of this.links.values()) link.socket.terminate();
  }

  private link(hostId: string): HostLink {
    const link = this.links.get(hostId);
    if (!link) throw unavailable('SCREEN_UNAVAILABLE', `phone host ${hostId} has no channel open to this admin`);
    return link;
  }

  /** One image of the phone's screen at its own pixel size. */
  async frame(hostId: string, deviceId: string): Promise<{ contentType: string; body: Buffer }> {
    const { reply, body } = await this.request(hostId, (id) => ({ op: 'frame', id, device_id: deviceId }));
    if (!body) throw unavailable('SCREEN_UNAVAILABLE', 'the host sent no image');
    return { contentType: reply.content_type ?? 'image/png', body };
  }

  async input(hostId: string, deviceId: string, input: PhoneInput): Promise<void> {
    await this.request(hostId, (id) => ({ op: 'input', id, device_id: deviceId, input }));
  }

  /** Starts the phone's stream on its host; the returned function stops it. */
  watch(hostId: string, deviceId: string, sink: StreamSink): () => void {
    const link = this.link(hostId);
    const id = link.id();
    link.streams.set(id, sink);
    link.send({ op: 'watch', id, device_id: deviceId });
    return () => {
      if (!link.streams.delete(id)) return;
      if (this.links.get(hostId) === link) link.send({ op: 'unwatch', id });
    };
  }

  private request(
    hostId: string,
    make: (id: number) => AdminToHost,
  ): Promise<{ reply: Extract<HostToAdmin, { op: 'reply' }>; body: Buffer | null }> {
    const link = this.link(hostId);
    const id = link.id();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        link.pending.delete(id);
        reject(unavailable('SCREEN_UNAVAILABLE', `phone host ${hostId} did not answer in ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      link.pending.set(id, { resolve, reject, timer, reply: null });
      link.send(make(id));
    });
  }

  private receive(link: HostLink, data: Buffer, isBinary: boolean): void {
    if (isBinary) return this.receiveFrame(link, data);
    let msg: HostToAdmin;
    try {
      msg = hostToAdminSchema.parse(JSON.parse(data.toString('utf8')));
    } catch (err) {
      this.log.warn({ host_id: link.hostId, err: describeError(err) }, 'host channel: a message that is no message');
      return;
    }
    if (msg.op === 'meta') return link.streams.get(msg.id)?.meta(msg.meta);
    if (msg.op === 'key') return void link.keyNext.add(msg.id);
    if (msg.op === 'ended') {
      const sink = link.streams.get(msg.id);
      link.streams.delete(msg.id);
      link.keyNext.delete(msg.id);
      return sink?.ended(msg.reason);
    }
    const p = link.pending.get(msg.id);
    if (!p) return;
    if (!msg.ok) {
      link.pending.delete(msg.id);
      clearTimeout(p.timer);
      const e = msg.error;
      return p.reject(
        e?.code === 'INPUT_INVALID'
          ? invalidInput('INPUT_INVALID', e.message, { field: e.field ?? null })
          : unavailable('SCREEN_UNAVAILABLE', e ? `${e.code}: ${e.message}` : 'the phone host refused'),
      );
    }
    // a frame's image follows its reply as a binary message
    if (msg.content_type) p.reply = msg;
    else {
      link.pending.delete(msg.id);
      clearTimeout(p.timer);
      p.resolve({ reply: msg, body: null });
    }
  }

  private receiveFrame(link: HostLink, data: Buffer): void {
    const frame = readFrameMessage(data);
    if (!frame) return;
    const sink = link.streams.get(frame.id);
    if (sink) return sink.frame(frame.body, link.keyNext.delete(frame.id));
    const p = link.pending.get(frame.id);
    if (!p?.reply) return;
    link.pending.delete(frame.id);
    clearTimeout(p.timer);
    p.resolve({ reply: p.reply, body: frame.body });
  }
}
