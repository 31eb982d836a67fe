import type { Socket } from 'node:net';

/** 4 hex digits; the adb server writes them lowercase (`%04x`), adbkit reads either case. */
function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}

export function encodeValue(payload: string | Buffer): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'utf8');
  return Buffer.concat([Buffer.from(hex4(body.length), 'ascii'), body]);
}

export function okay(): Buffer {
  return Buffer.from('OKAY', 'ascii');
}

export function fail(message: string): Buffer {
  return Buffer.concat([Buffer.from('FAIL', 'ascii'), encodeValue(message)]);
}

/** Pull-style reads over a socket: the smart-socket protocol is strictly request/reply. */
export class SocketReader {
  private buf: Buffer = Buffer.alloc(0);
  private ended = false;
  private waiter: (() => void) | null = null;

  constructor(private readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
      this.wake();
    });
    const end = (): void => {
      this.ended = true;
      this.wake();
    };
    socket.on('end', end);
    socket.on('close', end);
    socket.on('error', end);
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  /** Exactly n bytes, or null when the peer closed first. */
  async read(n: number): Promise<Buffer | null> {
    while (this.buf.length < n) {
      if (this.ended) return null;
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
    }
    const chunk = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return chunk;
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Resolves when the peer is gone (used by long-lived services such as track-devices). */
  async waitClosed(): Promise<void> {
    while (!this.ended) {
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
      this.buf = Buffer.alloc(0);
    }
  }
}

/** One smart-socket request: hex4 length + payload; null on EOF or a garbled length. */
export async function readRequest(r: SocketReader): Promise<string | null> {
  const len = await r.read(4);
  if (!len) return null;
  const text = len.toString('ascii');
  if (!/^[0-9a-fA-F]{4}$/.test(text)) return null;
  const body = await r.read(parseInt(text, 16));
  return body ? body.toString('utf8') : null;
}
