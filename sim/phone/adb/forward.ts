import net from 'node:net';
import type { Registry } from '../registry';
import { encodeValue, fail, okay } from './protocol';

interface Forward {
  serial: string;
  local: number;
  /** `tcp:<port>` or `localabstract:<name>` on the phone */
  remote: string;
  server: net.Server;
}

const FORWARD = /^host-serial:(.+?):forward(:norebind)?:tcp:(\d+);(tcp:\d+|localabstract:[^;]+)$/;
const KILL = /^host-serial:(.+?):killforward:tcp:(\d+)$/;
const LIST = /^(?:host|host-serial:(.+)):list-forward$/;

/**
 * `adb forward tcp:L tcp:R` (or `localabstract:NAME`), as the adb server keeps it: it listens on
 * 127.0.0.1:L and joins each connection to port R (the abstract socket NAME) on the phone, which
 * closes it at once when nothing listens there.
 */
export class Forwards {
  private readonly byLocal = new Map<number, Forward>();

  constructor(private readonly reg: Registry) {}

  /** Answers a forward request; false when `req` is none of them. */
  async handle(req: string, reply: (b: Buffer) => void): Promise<boolean> {
    const list = LIST.exec(req);
    if (list) {
      const text = [...this.byLocal.values()]
        .filter((f) => list[1] === undefined || f.serial === list[1])
        .map((f) => `${f.serial} tcp:${f.local} ${f.remote}\n`)
        .join('');
      reply(Buffer.concat([okay(), encodeValue(text)]));
      return true;
    }
    if (req === 'host:killforward-all') {
      for (const f of [...this.byLocal.values()]) this.remove(f.local);
      reply(Buffer.concat([okay(), okay()]));
      return true;
    }
    const kill = KILL.exec(req);
    if (kill) {
      const f = this.byLocal.get(Number(kill[2]));
      if (!f || f.serial !== kill[1]) reply(fail(`listener 'tcp:${kill[2]}' not found`));
      else {
        this.remove(f.local);
        reply(Buffer.concat([okay(), okay()]));
      }
      return true;
    }
    const fwd = FORWARD.exec(req);
    if (!fwd) return false;
    const serial = fwd[1] as string;
    const phone = this.reg.phones.get(serial);
    if (!phone || !phone.online) {
      reply(fail(`device '${serial}' not found`));
      return true;
    }
    const local = Number(fwd[3]);
    const remote = fwd[4] as string;
    if (this.byLocal.has(local)) {
      if (fwd[2]) {
        reply(Buffer.concat([okay(), fail('cannot rebind existing socket')]));
        return true;
      }
      this.remove(local);
    }
    try {
      const bound = await this.listen(serial, local, remote);
      // tcp:0 asks the server to pick the port; it then says which one.
      reply(Buffer.concat([okay(), okay(), local === 0 ? encodeValue(String(bound)) : Buffer.alloc(0)]));
    } catch (e) {
      reply(Buffer.concat([okay(), fail(`cannot bind listener: ${e instanceof Error ? e.message : String(e)}`)]));
    }
    return true;
  }

  private listen(serial: string, local: number, remote: string): Promise<number> {
    const server = net.createServer((sock) => {
      sock.on('error', () => undefined);
      const phone = this.reg.phones.get(serial);
      const [kind, target] = remote.split(/:(.*)/s) as [string, string];
      const joined =
        !!phone &&
        phone.online &&
        (kind === 'tcp' ? phone.agent.connect(Number(target), sock) : phone.abstractSockets.connect(target, sock));
      if (!joined) sock.destroy();
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(local, '127.0.0.1', () => {
        server.off('error', reject);
        const addr = server.address();
        const port = typeof addr === 'object' && addr ? addr.port : local;
        this.byLocal.set(port, { serial, local: port, remote, server });
        resolve(port);
      });
    });
  }

  private remove(local: number): void {
    const f = this.byLocal.get(local);
    this.byLocal.delete(local);
    f?.server.close();
  }

  close(): void {
    for (const local of [...this.byLocal.keys()]) this.remove(local);
  }
}
