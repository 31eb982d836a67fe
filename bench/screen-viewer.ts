import fs from 'node:fs';
import WebSocket from 'ws';
import type { OperatorClient } from '../test/harness';

/** The live screen's viewers as bench/screen.ts opens them, and what it reads of the admin process. */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The process's resident set now (/proc, Linux only). */
export function rssMib(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** A browser watching one phone: the stream socket, its frames counted, each change timed on arrival. */
export class Viewer {
  meta: Record<string, unknown> | null = null;
  private frames = 0;
  private bytes = 0;
  private last: Buffer | null = null;
  private onChange: ((at: { perf: number; wall: number }) => void) | null = null;

  private constructor(private readonly socket: WebSocket) {}

  /** Opens the stream with the operator's session; resolves at its first frame. */
  static open(url: string, op: OperatorClient): Promise<{ viewer: Viewer; firstFrameMs: number }> {
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers: { cookie: op.sessionCookie ?? '' } });
      const viewer = new Viewer(socket);
      socket.on('message', (data, isBinary) => {
        if (!isBinary) {
          const meta = JSON.parse(String(data)) as Record<string, unknown>;
          if (meta.error) reject(new Error(`stream refused: ${JSON.stringify(meta.error)}`));
          viewer.meta = meta;
          return;
        }
        viewer.take(data as Buffer);
        if (viewer.frames === 1) resolve({ viewer, firstFrameMs: performance.now() - started });
      });
      socket.on('unexpected-response', (_req, res) => reject(new Error(`stream: HTTP ${res.statusCode}`)));
      socket.on('error', reject);
      // after the first frame a close is the caller's own
      socket.on('close', (code, reason) => reject(new Error(`stream closed: ${code} ${String(reason)}`)));
    });
  }

  private take(frame: Buffer): void {
    const at = { perf: performance.now(), wall: Date.now() };
    this.frames++;
    this.bytes += frame.length;
    const changed = this.last !== null && !frame.equals(this.last);
    this.last = frame;
    if (!changed) return;
    const notify = this.onChange;
    this.onChange = null;
    notify?.(at);
  }

  /** Frames and bytes over the next `seconds`. */
  async window(seconds: number): Promise<{ frames: number; bytes: number; s: number }> {
    const start = { frames: this.frames, bytes: this.bytes, at: performance.now() };
    await sleep(seconds * 1000);
    const s = (performance.now() - start.at) / 1000;
    return { frames: this.frames - start.frames, bytes: this.bytes - start.bytes, s };
  }

  /** When the next frame that differs from the one before it arrived, or null after `ms`. */
  nextChange(ms: number): Promise<{ perf: number; wall: number } | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.onChange = null;
        resolve(null);
      }, ms);
      this.onChange = (at) => {
        clearTimeout(timer);
        resolve(at);
      };
    });
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}
