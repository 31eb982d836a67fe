import type { Readable } from 'node:stream';
import type { PayloadKeyRing } from './keys';

/**
 * How the payload keys travel from the admin to a phone host and on to its device workers
 * (docs/phone-hosts.md "Payload keys"): in the ring's own text form, over the host's
 * authenticated channel, then down a worker's stdin — never a file, a command line or an
 * environment a host was started with.
 */

/** Set (to 1) in a device worker's environment: its keys come as the first line of its stdin. */
export const PAYLOAD_KEYS_ON_STDIN_VAR = 'CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS_ON_STDIN';

/** `id1:base64key,id2:base64key`, the encrypting key first: what parsePayloadKeys reads back. */
export function formatPayloadKeys(ring: PayloadKeyRing): string {
  const ids = [ring.encryptKeyId, ...[...ring.keys.keys()].filter((id) => id !== ring.encryptKeyId)];
  return ids.map((id) => `${id}:${ring.keys.get(id)!.toString('base64')}`).join(',');
}

/** The first line of `input` (a worker's stdin); a parent that never writes one fails the start. */
export function readFirstLine(input: Readable, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = (err: Error | null) => {
      clearTimeout(timer);
      input.off('data', onData);
      input.off('end', onEnd);
      input.pause();
      const line = text.split('\n')[0]!.trim();
      if (err) reject(err);
      // an empty line is no ring: never fall back to a key of the worker's own
      else if (line === '') reject(new Error('an empty line on stdin where the payload keys belong'));
      else resolve(line);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) done(null);
    };
    const onEnd = () => done(null);
    const timer = setTimeout(() => done(new Error(`no payload keys on stdin within ${timeoutMs} ms`)), timeoutMs);
    input.on('data', onData);
    input.on('end', onEnd);
  });
}
