import type { Socket } from 'node:net';
import type { Phone } from '../phone';
import { normalizePath } from '../shell/commands';
import type { SocketReader } from './protocol';

const MAX_DATA = 64 * 1024;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

function idLen(id: string, n: number): Buffer {
  const b = Buffer.alloc(8);
  b.write(id, 0, 'ascii');
  b.writeUInt32LE(n >>> 0, 4);
  return b;
}

// Sync errors carry a little-endian u32 length, unlike the hex4 of the smart-socket protocol.
function syncFail(message: string): Buffer {
  const msg = Buffer.from(message, 'utf8');
  return Buffer.concat([idLen('FAIL', msg.length), msg]);
}

function isDir(phone: Phone, path: string): boolean {
  if (/^\/(sdcard|data\/local\/tmp|data|sdcard\/Download)\/?$/.test(path) || path === '/') return true;
  const dir = path.endsWith('/') ? path : `${path}/`;
  return [...phone.files.keys()].some((k) => k.startsWith(dir));
}

/** The `sync:` service after OKAY: STAT, LIST, RECV, SEND, QUIT (little-endian framing). */
export async function serveSync(phone: Phone, sock: Socket, r: SocketReader): Promise<void> {
  for (;;) {
    const head = await r.read(8);
    if (!head) return;
    const id = head.subarray(0, 4).toString('ascii');
    const len = head.readUInt32LE(4);
    if (id === 'QUIT') return;
    const argBuf = id === 'DONE' || id === 'DATA' ? Buffer.alloc(0) : await r.read(len);
    if (!argBuf) return;
    const arg = argBuf.toString('utf8');
    if (!phone.online) return;
    switch (id) {
      case 'STAT': {
        const path = normalizePath(arg);
        const f = phone.files.get(path);
        const b = Buffer.alloc(16);
        b.write('STAT', 0, 'ascii');
        if (f) {
          b.writeUInt32LE(S_IFREG | 0o660, 4);
          b.writeUInt32LE(f.data.length, 8);
          b.writeUInt32LE(f.mtime, 12);
        } else if (isDir(phone, path)) {
          b.writeUInt32LE(S_IFDIR | 0o771, 4);
          b.writeUInt32LE(4096, 8);
          b.writeUInt32LE(Math.floor(Date.now() / 1000), 12);
        }
        sock.write(b);
        break;
      }
      case 'LIST': {
        const dir = normalizePath(arg.endsWith('/') ? arg : `${arg}/`);
        for (const [k, f] of phone.files) {
          if (!k.startsWith(dir) || k.slice(dir.length).includes('/')) continue;
          const name = Buffer.from(k.slice(dir.length), 'utf8');
          const d = Buffer.alloc(20);
          d.write('DENT', 0, 'ascii');
          d.writeUInt32LE(S_IFREG | 0o660, 4);
          d.writeUInt32LE(f.data.length, 8);
          d.writeUInt32LE(f.mtime, 12);
          d.writeUInt32LE(name.length, 16);
          sock.write(Buffer.concat([d, name]));
        }
        const done = Buffer.alloc(20);
        done.write('DONE', 0, 'ascii');
        sock.write(done);
        break;
      }
      case 'RECV': {
        const f = phone.files.get(normalizePath(arg));
        if (!f) {
          sock.write(syncFail('open failed: No such file or directory'));
          break;
        }
        for (let off = 0; off < f.data.length; off += MAX_DATA) {
          const chunk = f.data.subarray(off, off + MAX_DATA);
          sock.write(Buffer.concat([idLen('DATA', chunk.length), chunk]));
        }
        sock.write(idLen('DONE', 0));
        break;
      }
      case 'SEND': {
        const comma = arg.lastIndexOf(',');
        const path = normalizePath(comma >= 0 ? arg.slice(0, comma) : arg);
        const chunks: Buffer[] = [];
        let mtime: number;
        for (;;) {
          const h = await r.read(8);
          if (!h) return;
          const cid = h.subarray(0, 4).toString('ascii');
          const n = h.readUInt32LE(4);
          if (cid === 'DONE') {
            mtime = n;
            break;
          }
          if (cid !== 'DATA') {
            sock.write(syncFail(`unexpected ${cid}`));
            return;
          }
          const data = await r.read(n);
          if (!data) return;
          chunks.push(data);
        }
        if (!/^\/(sdcard|data\/local\/tmp)\//.test(path)) {
          sock.write(syncFail(`couldn't create file: Permission denied`));
          break;
        }
        // `path,mode`: the permission bits travel with the push (adbkit's default 0644)
        const mode = comma >= 0 ? Number(arg.slice(comma + 1)) & 0o7777 : NaN;
        phone.files.set(path, { data: Buffer.concat(chunks), mtime, ...(mode ? { mode } : {}) });
        sock.write(idLen('OKAY', 0));
        break;
      }
      default:
        sock.write(syncFail(`unknown sync command ${id}`));
        return;
    }
  }
}
