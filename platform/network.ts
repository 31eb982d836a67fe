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
