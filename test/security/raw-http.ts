import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface RawResponse {
  status: number;
  headers: string;
  body: string;
}

/**
 * Sends bytes exactly as given — a cut body, a lying Content-Length, a path no URL class would
 * let through — and reads the answer. `hangUp` closes the socket right after sending instead,
 * as a client that goes away mid-upload does; the promise then resolves with status 0.
 */
export function rawRequest(
  baseUrl: string,
  head: string,
  body: Buffer = Buffer.alloc(0),
  opts: { hangUp?: boolean } = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => (opts.hangUp ? resolve({ status: 0, headers: '', body: '' }) : reject(err)));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      const split = text.indexOf('\r\n\r\n');
      resolve({
        status: m ? Number(m[1]) : 0,
        headers: split >= 0 ? text.slice(0, split) : text,
        body: split >= 0 ? Buffer.from(text.slice(split + 4), 'latin1').toString('utf8') : '',
      });
    });
    socket.write(Buffer.concat([Buffer.from(head.replaceAll('\n', '\r\n'), 'latin1'), body]), () => {
      if (opts.hangUp) socket.destroy();
    });
  });
}

/** A request head with `Connection: close`, so the answer ends with the socket. */
export function requestHead(
  method: string,
  target: string,
  baseUrl: string,
  headers: Record<string, string | number>,
): string {
  const host = new URL(baseUrl).host;
  const lines = [
    `${method} ${target} HTTP/1.1`,
    `Host: ${host}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\n')}\n\n`;
}

/** Upload temp files in a directory (what must never be left behind). */
export function uploadTemps(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('.upload-')) : [];
}

/** Descriptors this process holds open on files below `dir` (the admin runs in the test process). */
export function openFilesBelow(dir: string): string[] {
  const out: string[] = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(path.join('/proc/self/fd', fd));
      if (target.startsWith(dir + path.sep)) out.push(target);
    } catch {
      // closed while we looked
    }
  }
  return out;
}

/**
 * Waits until `check` returns true, giving the server's cleanup a chance to run; fails with
 * `what` after `attempts` turns. Bounded, and asserts the end state, not how fast it came.
 */
export async function eventually(what: string, check: () => boolean, attempts = 100): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never became true: ${what}`);
}
