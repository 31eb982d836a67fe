import WebSocket from 'ws';
import { AdbDevice } from '../device-worker/adb/adb-device';
import { adminToHostSchema, frameMessage, type AdminToHost, type HostToAdmin } from '../domain/contracts/host-channel';
import { describeInput, type PhoneInput } from '../domain/phone-input';
import { describeError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { parsePayloadKeys, type PayloadKeyRing } from '../temporal/codec/keys';
import { PhoneInputRefused, sendInput } from './input/send';
import { grabFrame, openScreenStream, type ScreenStream } from './screen/stream';

/** A viewer this far behind gets no new frame until the socket drained: frames are dropped, never queued. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;

export interface AdminChannelOptions {
  adminUrl: string;
  hostId: string;
  token: string;
  adb: { host: string; port: number };
  log: Logger;
  /** the serial of an approved phone of this host on ADB now; null for any other device id */
  serialOf(deviceId: string): string | null;
  /** the admin's payload keys, as each channel opens: held in memory, handed to the workers */
  onPayloadKeys(ring: PayloadKeyRing): void;
}

/**
 * The host's outward channel to the admin (domain/contracts/host-channel.ts): opened by the host,
 * so a host behind NAT serves its phones' screens; kept open, reopened with back-off. What comes
 * down it is done here with the phone's own ADB: a frame, a stream, a person's input.
 */
export class AdminChannel {
  private socket: WebSocket | null = null;
  private readonly streams = new Map<number, Promise<ScreenStream | null>>();
  /** H.264 streams that dropped a frame: nothing more until their next key frame */
  private readonly behind = new Set<number>();
  private readonly screens = new Map<string, { width: number; height: number }>();
  private retryMs = RETRY_MIN_MS;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly opts: AdminChannelOptions) {}

  start(): void {
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.socket?.close(1000, 'host stopping');
    await this.stopStreams();
  }

  private connect(): void {
    if (this.stopped) return;
    const url = new URL('/api/host/channel', this.opts.adminUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url, {
      headers: { authorization: `Bearer ${this.opts.hostId}.${this.opts.token}` },
      handshakeTimeout: 10_000,
    });
    this.socket = socket;
    socket.on('open', () => {
      this.retryMs = RETRY_MIN_MS;
      this.opts.log.info({ admin: this.opts.adminUrl }, 'channel to the admin open');
    });
    socket.on('message', (data, isBinary) => {
      if (!isBinary) void this.receive(data.toString());
    });
    socket.on('error', (err) => this.opts.log.warn({ err: describeError(err) }, 'channel to the admin failed'));
    socket.on('close', () => {
      if (this.socket === socket) this.socket = null;
      void this.stopStreams();
      if (this.stopped) return;
      this.timer = setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
    });
  }

  private send(msg: HostToAdmin): void {
    this.socket?.send(JSON.stringify(msg));
  }

  private sendFrame(id: number, body: Buffer, droppable: boolean): void {
    const s = this.socket;
    if (!s || s.readyState !== WebSocket.OPEN) return;
    if (droppable && s.bufferedAmount > MAX_BUFFERED_BYTES) return;
    s.send(frameMessage(id, body), { binary: true });
  }

  /** A stream's frame; an H.264 one (`key` said) is dropped with all after it until a key frame. */
  private sendStreamFrame(id: number, body: Buffer, key: boolean | undefined): void {
    if (key === undefined) return this.sendFrame(id, body, true);
    const s = this.socket;
    if (!s || s.readyState !== WebSocket.OPEN) return;
    if (!key && this.behind.has(id)) return;
    if (s.bufferedAmount > MAX_BUFFERED_BYTES) return void this.behind.add(id);
    this.behind.delete(id);
    if (key) this.send({ op: 'key', id });
    s.send(frameMessage(id, body), { binary: true });
  }

  private async receive(text: string): Promise<void> {
    let msg: AdminToHost;
    try {
      msg = adminToHostSchema.parse(JSON.parse(text));
    } catch (err) {
      this.opts.log.warn({ err: describeError(err) }, 'the admin sent a message this host does not know');
      return;
    }
    if (msg.op === 'keys') return this.payloadKeys(msg.payload_keys);
    if (msg.op === 'unwatch') return this.unwatch(msg.id);
    const serial = this.opts.serialOf(msg.device_id);
    if (!serial) {
      const error = { code: 'PHONE_NOT_HERE' as const, message: `device ${msg.device_id} is not on this host now` };
      if (msg.op === 'watch') return this.send({ op: 'ended', id: msg.id, reason: error.message });
      return this.send({ op: 'reply', id: msg.id, ok: false, error });
    }
    const adb = new AdbDevice({ ...this.opts.adb, serial }, { reconnectMs: 0 });
    if (msg.op === 'frame') return this.frame(msg.id, adb);
    if (msg.op === 'watch') return this.watch(msg.id, adb);
    return this.input(msg.id, adb, msg.input);
  }

  private payloadKeys(text: string): void {
    let ring: PayloadKeyRing;
    try {
      ring = parsePayloadKeys(text, 'the payload keys from the admin');
    } catch (err) {
      // the message names the entry, never the key (temporal/codec/keys.ts)
      this.opts.log.error({ err: describeError(err) }, 'the admin sent payload keys this host cannot use');
      return;
    }
    this.opts.onPayloadKeys(ring);
  }

  private async frame(id: number, adb: AdbDevice): Promise<void> {
    try {
      const frame = await grabFrame(adb);
      this.send({ op: 'reply', id, ok: true, content_type: frame.contentType });
      this.sendFrame(id, frame.body, false);
    } catch (err) {
      this.send({
        op: 'reply',
        id,
        ok: false,
        error: { code: 'SCREEN_FAILED', message: describeError(err).slice(0, 500) },
      });
    }
  }

  private watch(id: number, adb: AdbDevice): void {
    const opening = openScreenStream(adb, (frame, key) => this.sendStreamFrame(id, frame, key)).then(
      (stream) => {
        if (!this.streams.has(id)) {
          void stream.stop();
          return null;
        }
        this.opts.log.info(
          { serial: adb.target.serial, path: stream.meta.path, why: stream.why },
          'screen stream open',
        );
        this.send({ op: 'meta', id, meta: stream.meta });
        void stream.ended.then((err) => {
          if (err && this.streams.delete(id)) this.send({ op: 'ended', id, reason: describeError(err).slice(0, 500) });
        });
        return stream;
      },
      (err: unknown) => {
        if (this.streams.delete(id)) this.send({ op: 'ended', id, reason: describeError(err).slice(0, 500) });
        return null;
      },
    );
    this.streams.set(id, opening);
  }

  private async unwatch(id: number): Promise<void> {
    const opening = this.streams.get(id);
    this.streams.delete(id);
    this.behind.delete(id);
    await (await opening)?.stop();
  }

  private async stopStreams(): Promise<void> {
    const all = [...this.streams.keys()];
    await Promise.all(all.map((id) => this.unwatch(id)));
  }

  private async input(id: number, adb: AdbDevice, input: PhoneInput): Promise<void> {
    const serial = adb.target.serial as string;
    try {
      let screen = this.screens.get(serial);
      if (!screen) {
        screen = (await adb.screenSize()) ?? undefined;
        if (!screen) throw new Error('the phone did not tell its screen size (wm size)');
        this.screens.set(serial, screen);
      }
      await sendInput(adb, input, screen);
      this.send({ op: 'reply', id, ok: true });
    } catch (err) {
      this.opts.log.warn({ serial, input: describeInput(input), err: describeError(err) }, 'input not played');
      this.send({
        op: 'reply',
        id,
        ok: false,
        error:
          err instanceof PhoneInputRefused
            ? { code: 'INPUT_INVALID', message: err.message.slice(0, 500), field: err.field }
            : { code: 'INPUT_FAILED', message: describeError(err).slice(0, 500) },
      });
    }
  }
}
