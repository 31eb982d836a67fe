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
