import type { Duplex } from 'node:stream';
import type { AdbDevice } from '../../device-worker/adb/adb-device';
import { describeError } from '../../platform/errors';

/** A reader of a server's socket: whole items out of chunks, its header once it came. */
export interface ServerReader<Item> {
  feed(chunk: Buffer): Item[];
}

/** What the socket gave once its header came: the reader, and the items read along with it. */
export interface Opened<R, Item> {
  socket: Duplex;
  reader: R;
  first: Item[];
}

/** What a server that streams to the host needs said of it (minicap, scrcpy-server). */
export interface ServerSpec<R extends ServerReader<Item>, Item> {
  /** its name in errors: `minicap`, `scrcpy-server` */
  name: string;
  /** the ADB local socket it serves, e.g. `localabstract:minicap` */
  socket: string;
  newReader(): R;
  /** 'wait' until the header is whole; an Error when what came is no stream of this server's */
  header(reader: R): 'wait' | 'ok' | Error;
  /** ends it on the phone: closing ADB's shell stream does not always end what it ran */
  kill(adb: AdbDevice): Promise<void>;
  /** the shortest wait one connection attempt gets */
  minAttemptMs: number;
}

/** A screen server that did not start or broke: the caller falls back or ends the stream. */
export class ScreenServerError extends Error {
  override readonly name = 'ScreenServerError';
  /** it answered, but with something else: trying the socket again waits for nothing */
  constructor(
    message: string,
    readonly final = false,
  ) {
    super(message);
  }
}

/**
 * One server the host started on the phone to stream its screen: its held shell, what it
 * printed, the socket once it served its header, and one end — stopped, or broken with why
 * (`ended`). A held shell that ends, a socket that closes or errs, or a stream that cannot be read
 * takes everything down once; a stop before wins.
 */
export class ScreenServer<R extends ServerReader<Item>, Item> {
  private output = '';
  private shellEnded = false;
  private socket: Duplex | null = null;
  private stopped = false;
  private settle: (err: Error | null) => void = () => undefined;
  readonly ended = new Promise<Error | null>((resolve) => (this.settle = resolve));

  constructor(
    private readonly adb: AdbDevice,
    private readonly held: Duplex,
    private readonly spec: ServerSpec<R, Item>,
  ) {
    held.on('data', (d: Buffer) => (this.output = (this.output + d.toString('utf8')).slice(-2_000)));
    held.on('error', () => undefined);
    held.on('close', () => {
      this.shellEnded = true;
      this.fail(new ScreenServerError(`${spec.name} ended: ${this.lastLine()}`));
    });
  }

  /** Tries the socket until the server serves its header there, bounded by `waitMs`. */
  async connect(waitMs: number): Promise<Opened<R, Item>> {
    const deadline = Date.now() + waitMs;
    let last: string;
    for (;;) {
      if (this.shellEnded)
        throw new ScreenServerError(`${this.spec.name} ended before it streamed: ${this.lastLine()}`);
      try {
        return await this.attempt(Math.max(this.spec.minAttemptMs, deadline - Date.now()));
      } catch (err) {
        if (err instanceof ScreenServerError && err.final) throw err;
        last = describeError(err);
      }
      if (Date.now() >= deadline)
        throw new ScreenServerError(`${this.spec.name} did not serve its socket within ${waitMs} ms (${last})`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** One connection: resolves once the header came, rejects when the socket closes, stays silent or sends no stream. */
  private async attempt(waitMs: number): Promise<Opened<R, Item>> {
    const socket = await this.adb.openLocal(this.spec.socket);
    const reader = this.spec.newReader();
    const first: Item[] = [];
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new ScreenServerError('no header yet')), waitMs);
      const done = (err: Error | null): void => {
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('close', onClose);
        socket.off('error', onClose);
        if (!err) return resolve({ socket, reader, first });
        socket.destroy();
        reject(err);
      };
      const onData = (chunk: Buffer): void => {
        try {
          first.push(...reader.feed(chunk));
        } catch (err) {
          return done(new ScreenServerError(`${this.spec.name} sent no stream: ${describeError(err)}`, true));
        }
        const header = this.spec.header(reader);
        if (header === 'wait') return;
        if (header instanceof Error) return done(header);
        // what came after the header stays paused until the caller listens
        socket.pause();
        done(null);
      };
      const onClose = (): void => done(new ScreenServerError('the socket closed before the header'));
      socket.on('data', onData);
      socket.on('close', onClose);
      socket.on('error', onClose);
    });
  }

  /** From now on every item the socket carries goes to `deliver`, the ones read with the header first. */
  stream(opened: Opened<R, Item>, deliver: (items: Item[]) => void): void {
    const { socket, reader, first } = opened;
    this.socket = socket;
    const name = this.spec.name;
    socket.on('error', (err: Error) => this.fail(new ScreenServerError(`the ${name} socket failed: ${err.message}`)));
    socket.on('close', () => this.fail(new ScreenServerError(`${name} closed its socket`)));
    // frames begin once the caller had its turn to announce the stream
    setImmediate(() => {
      if (this.stopped) return;
      deliver(first);
      socket.on('data', (chunk: Buffer) => {
        try {
          deliver(reader.feed(chunk));
        } catch (err) {
          this.fail(err as Error);
        }
      });
      socket.resume();
      // closed between the header and these listeners: no 'close' is coming any more
      if (socket.destroyed) this.fail(new ScreenServerError(`${name} closed its socket`));
    });
  }

  private fail(err: Error): void {
    if (this.stopped) return;
    this.settle(err);
    void this.stop();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.settle(null);
    this.socket?.destroy();
    this.held.destroy();
    await this.spec.kill(this.adb).catch(() => undefined);
  }

  private lastLine(): string {
    const lines = this.output.trim().split('\n');
    return (lines[lines.length - 1] ?? '').trim().slice(0, 200) || 'no output';
  }
}
