import net from 'node:net';
import type { Registry } from '../registry';
import type { Phone } from '../phone';
import { runShell } from '../shell/exec';
import { withShellSession, type ShellSession } from '../shell/session';
import { encodeValue, fail, okay, readRequest, SocketReader } from './protocol';
import { serveSync } from './sync';
import { Forwards } from './forward';

export interface Logger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

const ADB_VERSION = '0029';

function devicesText(reg: Registry, long: boolean): string {
  return reg
    .online()
    .map((p) =>
      long
        ? `${p.serial.padEnd(22)} ${p.booting ? 'offline' : 'device'} usb:1-${p.transportId} product:sim model:SIM_1080x2376 device:sim transport_id:${p.transportId}\n`
        : `${p.serial}\t${p.booting ? 'offline' : 'device'}\n`,
    )
    .join('');
}

/** Picks the phone a `host:transport*` / `host-serial:` request names, or the adb error message. */
function resolve(reg: Registry, selector: { serial?: string; any?: boolean }): Phone | string {
  if (selector.serial !== undefined) {
    const p = reg.phones.get(selector.serial);
    if (!p || !p.online) return `device '${selector.serial}' not found`;
    return p.booting ? 'device offline' : p;
  }
  const all = reg.online();
  if (all.length === 0) return 'no devices/emulators found';
  if (all.length > 1) return 'more than one device/emulator';
  const only = all[0] as Phone;
  return only.booting ? 'device offline' : only;
}

/** The connection a shell line runs on, for a program that prints while it runs (shell/session.ts). */
function shellSession(sock: net.Socket, r: SocketReader): ShellSession {
  let closed: Promise<void> | null = null;
  return {
    write: (data) => {
      if (!sock.destroyed) sock.write(data);
    },
    hangup: () => (closed ??= r.waitClosed()),
  };
}

/**
 * `localabstract:<name>`: the connection joins the program listening on that socket of the
 * phone (minicap) and lasts until either side closes it. Nothing listening: adbd cannot open the
 * stream and the adb server answers FAIL `closed`, as for any service the device refuses.
 */
async function openAbstract(phone: Phone, name: string, sock: net.Socket, r: SocketReader): Promise<void> {
  if (!phone.abstractSockets.has(name)) {
    sock.write(fail('closed'));
    return;
  }
  sock.write(okay());
  phone.abstractSockets.connect(name, sock);
  await r.waitClosed();
}

export class AdbServer {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly forwards: Forwards;

  constructor(
    private readonly reg: Registry,
    private readonly log?: Logger,
  ) {
    this.server = net.createServer((sock) => this.onConnection(sock));
    this.forwards = new Forwards(reg);
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolvePort, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        const addr = this.server.address();
        resolvePort(typeof addr === 'object' && addr ? addr.port : port);
      });
    });
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.forwards.close();
    // The on-device agents go with the phones' link, so no forwarded connection outlives the server.
    for (const p of this.reg.phones.values()) p.agent.stop();
    return new Promise((r) => this.server.close(() => r()));
  }

  private onConnection(sock: net.Socket): void {
    this.sockets.add(sock);
    sock.setNoDelay(true);
    sock.on('close', () => this.sockets.delete(sock));
    sock.on('error', () => undefined);
    const reader = new SocketReader(sock);
    this.serve(sock, reader)
      .catch((e: unknown) => {
        this.log?.warn({ err: e instanceof Error ? e.message : String(e) }, 'adb connection failed');
      })
      .finally(() => {
        if (!sock.destroyed) sock.end();
      });
  }

  private async serve(sock: net.Socket, r: SocketReader): Promise<void> {
    const req = await readRequest(r);
    if (req === null) return;
    this.log?.debug({ req }, 'adb request');
    const reply = (b: Buffer): void => {
      sock.write(b);
    };

    if (req === 'host:version') return reply(Buffer.concat([okay(), encodeValue(ADB_VERSION)]));
    if (req === 'host:devices' || req === 'host:devices-l') {
      return reply(Buffer.concat([okay(), encodeValue(devicesText(this.reg, req === 'host:devices-l'))]));
    }
    if (req === 'host:track-devices' || req === 'host:track-devices-l') {
      return this.track(sock, r, req.endsWith('-l'));
    }
    if (req === 'host:features' || req === 'host:host-features')
      return reply(Buffer.concat([okay(), encodeValue('shell_v2,cmd,stat_v2')]));
    if (req === 'host:kill') return reply(okay());
    if (await this.forwards.handle(req, reply)) return;

    const hostSerial = /^host-serial:(.+):(get-state|get-serialno|get-devpath|features)$/.exec(req);
    if (hostSerial) {
      const phone = resolve(this.reg, { serial: hostSerial[1] as string });
      if (typeof phone === 'string') return reply(fail(phone));
      const value = {
        'get-state': 'device',
        'get-serialno': phone.serial,
        'get-devpath': `usb:1-${phone.transportId}`,
        features: '',
      }[hostSerial[2] as 'get-state'];
      return reply(Buffer.concat([okay(), encodeValue(value)]));
    }

    let phone: Phone | string | null = null;
    let tportHeader = false;
    const transport = /^host:transport:(.+)$/.exec(req);
    const tport = /^host:tport:(serial:(.+)|any|usb)$/.exec(req);
    if (transport) phone = resolve(this.reg, { serial: transport[1] as string });
    else if (req === 'host:transport-any' || req === 'host:transport-usb') phone = resolve(this.reg, { any: true });
    else if (tport) {
      phone = tport[2] !== undefined ? resolve(this.reg, { serial: tport[2] }) : resolve(this.reg, { any: true });
      tportHeader = true;
    }
    if (phone === null) return reply(fail('unknown host service'));
    if (typeof phone === 'string') return reply(fail(phone));
    if (tportHeader) {
      const id = Buffer.alloc(8);
      id.writeBigUInt64LE(BigInt(phone.transportId));
      reply(Buffer.concat([okay(), id]));
    } else {
      reply(okay());
    }
    return this.local(phone, sock, r);
  }

  private async local(phone: Phone, sock: net.Socket, r: SocketReader): Promise<void> {
    const req = await readRequest(r);
    if (req === null) return;
    this.log?.debug({ serial: phone.serial, req }, 'adb local service');
    if (!phone.online || !this.reg.phones.has(phone.serial)) {
      sock.write(fail(`device '${phone.serial}' not found`));
      return;
    }
    const shell = /^(?:shell(?:,[^:]*)?|exec):(.*)$/s.exec(req);
    if (shell) {
      if (req.startsWith('shell,') && /v2/.test(req.slice(0, req.indexOf(':')))) {
        // We do not advertise shell_v2 to devices, so a client asking for it gets what adbd says.
        sock.write(fail('closed'));
        return;
      }
      sock.write(okay());
      phone.countCommand();
      const out = await withShellSession(shellSession(sock, r), () => runShell(phone, shell[1] ?? ''));
      if (!sock.destroyed) sock.write(out);
      return;
    }
    const abstract = /^localabstract:(.+)$/.exec(req);
    if (abstract) return openAbstract(phone, abstract[1] as string, sock, r);
    if (req === 'sync:') {
      sock.write(okay());
      phone.countCommand();
      await serveSync(phone, sock, r);
      return;
    }
    sock.write(fail('closed'));
  }

  private async track(sock: net.Socket, r: SocketReader, long: boolean): Promise<void> {
    let last = devicesText(this.reg, long);
    sock.write(Buffer.concat([okay(), encodeValue(last)]));
    const onChange = (): void => {
      const now = devicesText(this.reg, long);
      if (now === last || sock.destroyed) return;
      last = now;
      sock.write(encodeValue(now));
    };
    this.reg.on('change', onChange);
    try {
      await r.waitClosed();
    } finally {
      this.reg.off('change', onChange);
    }
  }
}
