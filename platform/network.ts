import fs from 'node:fs';
import net from 'node:net';

/**
 * Whether a host name or address never leaves this machine. Tokens, cookies and gRPC cross the
 * network in clear without TLS, so plaintext is allowed only where this answers true
 * (docs/security.md).
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (net.isIPv4(h)) return h.startsWith('127.');
  if (net.isIPv6(h)) return h === '::1' || h.startsWith('::ffff:127.');
  return false;
}

/**
 * Addresses nothing outside this machine should ever be sent to (docs/security.md): unspecified
 * (0.0.0.0/8, ::), link-local (169.254/16 with the cloud metadata address 169.254.169.254,
 * fe80::/10), multicast, reserved and broadcast (224/3, ff00::/8), and the AWS metadata
 * address over IPv6.
 */
const NEVER_A_TARGET = new net.BlockList();
NEVER_A_TARGET.addSubnet('0.0.0.0', 8, 'ipv4');
NEVER_A_TARGET.addSubnet('169.254.0.0', 16, 'ipv4');
NEVER_A_TARGET.addSubnet('224.0.0.0', 3, 'ipv4');
NEVER_A_TARGET.addAddress('::', 'ipv6');
NEVER_A_TARGET.addSubnet('fe80::', 10, 'ipv6');
NEVER_A_TARGET.addSubnet('ff00::', 8, 'ipv6');
NEVER_A_TARGET.addAddress('fd00:ec2::254', 'ipv6');

/**
 * An IP address in one spelling: an IPv4-mapped IPv6 address (`::ffff:10.0.0.5`, what a dual-stack
 * socket reports for an IPv4 peer) as the IPv4 address it carries, IPv6 in lower case without
 * brackets; null when `raw` is no IP address at all (a host name).
 */
export function canonicalIp(raw: string): { address: string; family: 4 | 6 } | null {
  const h = raw.replace(/^\[|\]$/g, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped?.[1] && net.isIPv4(mapped[1])) return { address: mapped[1], family: 4 };
  if (net.isIPv4(h)) return { address: h, family: 4 };
  if (net.isIPv6(h)) {
    // one spelling per address (`fe80:0::1` and `fe80::1` alike), through the block list's own parser
    const probe = new net.SocketAddress({ address: h, family: 'ipv6' });
    return { address: probe.address, family: 6 };
  }
  return null;
}

/** True for an address in the ranges above (see NEVER_A_TARGET); false for a host name. */
export function isNeverATarget(host: string): boolean {
  const ip = canonicalIp(host);
  return ip !== null && NEVER_A_TARGET.check(ip.address, ip.family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * A free loopback TCP port (tests never use the fixed defaults, an `adb forward` listener), below the kernel's ephemeral
 * range: a port the kernel hands out for `listen(0)` is free only until the caller binds it, and
 * in between any outgoing connection of the machine may take it as its local port — a
 * server started a few seconds later then fails with "address already in use".
 */
export async function freePort(): Promise<number> {
  const below = ephemeralLow();
  for (let tries = 0; tries < 50; tries++) {
    const port = FREE_PORT_FLOOR + Math.floor(Math.random() * (below - FREE_PORT_FLOOR));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  return listenOnce(0);
}

/** Lowest port freePort picks: clear of the registered services most machines run. */
const FREE_PORT_FLOOR = 20_000;
/** Ports this process has handed out: two callers never get the same one. */
const handedOut = new Set<number>();

function ephemeralLow(): number {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return low > FREE_PORT_FLOOR + 1000 ? low : 32_768;
  } catch {
    return 32_768; // not Linux: the common default
  }
}

const canListen = (port: number): Promise<boolean> =>
  listenOnce(port).then(
    () => true,
    () => false,
  );

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(port, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}
