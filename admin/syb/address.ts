import dns from 'node:dns/promises';
import net from 'node:net';
import { hasControlCharacter } from '../../domain/syb';
import { canonicalIp, isNeverATarget } from '../../platform/network';

/**
 * Where the SYB password may be sent (docs/security.md, docs/syb-protocol.md): an `https://`
 * address, or `http://` to this machine (the simulator); never with user info in it; never to
 * a name that resolves to a link-local, metadata, unspecified or multicast address, nor —
 * unless `CMAUTOBUY_SYB_ALLOW_PRIVATE=1` — to a private network. Checked when the settings are
 * saved and again before a sync's first call (a name may resolve elsewhere later).
 */

const privateNets = new net.BlockList();
privateNets.addSubnet('10.0.0.0', 8, 'ipv4');
privateNets.addSubnet('172.16.0.0', 12, 'ipv4');
privateNets.addSubnet('192.168.0.0', 16, 'ipv4');
privateNets.addSubnet('100.64.0.0', 10, 'ipv4');
privateNets.addSubnet('fc00::', 7, 'ipv6');

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export class SybAddressRefused extends Error {
  override readonly name = 'SybAddressRefused';
}

/** One spelling of a resolved address, an IPv4-mapped IPv6 one as the IPv4 address it carries. */
function asFamily(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const ip = canonicalIp(address);
  return ip === null ? { address, type: 'ipv4' } : { address: ip.address, type: ip.family === 4 ? 'ipv4' : 'ipv6' };
}

const allowPrivate = () => process.env.CMAUTOBUY_SYB_ALLOW_PRIVATE === '1';

/** The refusal, in English for the log and the API message; throws SybAddressRefused. */
export async function checkSybAddress(raw: string): Promise<void> {
  await pinSybAddress(raw);
}

/** An address the host name resolved to and that passed the checks: the one a sync connects to. */
export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * `checkSybAddress`, returning the checked address the calls must connect to: a name resolved
 * again at connect time could answer differently (DNS rebinding) — admin/syb/pinned-fetch.ts.
 */
export async function pinSybAddress(raw: string): Promise<PinnedAddress> {
  if (hasControlCharacter(raw)) throw new SybAddressRefused('the SYB address contains a control character');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SybAddressRefused('the SYB address is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new SybAddressRefused('the SYB address must start with https://');
  if (url.username !== '' || url.password !== '')
    throw new SybAddressRefused('the SYB address must not carry a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new SybAddressRefused(`the SYB host ${host} does not resolve`);
  }
  if (addresses.length === 0) throw new SybAddressRefused(`the SYB host ${host} does not resolve`);
  for (const a of addresses.map(asFamily)) {
    // the addresses no one outside this machine is ever sent to (platform/network.ts)
    if (isNeverATarget(a.address))
      throw new SybAddressRefused(
        `the SYB host ${host} resolves to ${a.address}, a link-local, metadata or reserved address`,
      );
    if (privateNets.check(a.address, a.type) && !allowPrivate())
      throw new SybAddressRefused(
        `the SYB host ${host} resolves to the private address ${a.address}; set CMAUTOBUY_SYB_ALLOW_PRIVATE=1 to allow it`,
      );
  }
  const allLoopback = addresses.every((a) => {
    const f = asFamily(a);
    return loopback.check(f.address, f.type);
  });
  if (url.protocol === 'http:' && !allLoopback)
    throw new SybAddressRefused('the SYB address must start with https:// (http:// only to this machine)');
  const first = addresses[0]!;
  return { address: first, family: net.isIPv6(first) ? 6 : 4 };
}
