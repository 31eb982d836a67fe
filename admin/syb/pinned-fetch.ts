import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { PinnedAddress } from './address';

/**
 * A fetch to the 顺运宝 that connects to the address `pinSybAddress` checked, never to what a
 * second DNS answer says: between the check and the connection a name can be made to resolve to
 * 127.0.0.1 or a metadata address (DNS rebinding), and the password would go there. The URL
 * keeps its host name, so the Host header, TLS SNI and the certificate check are the name's,
 * as with a plain fetch. No redirect is followed (a 3xx is just an answer).
 */
export function pinnedFetch(
  url: URL,
  pinned: PinnedAddress,
  init: { method: string; headers: Record<string, string>; body?: string | undefined; signal: AbortSignal },
): Promise<Response> {
  const lookup: LookupFunction = (_host, opts, callback) => {
    if (opts.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Promise<Response>((resolve, reject) => {
    const headers: Record<string, string | number> = { ...init.headers };
    if (init.body !== undefined) headers['content-length'] = Buffer.byteLength(init.body);
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: init.method,
      headers,
      lookup,
      signal: init.signal,
      agent: false,
    });
    req.once('error', reject);
    req.once('response', (res) => {
      try {
        const h = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) h.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        const status = res.statusCode ?? 0;
        const noBody = status === 204 || status === 304 || init.method === 'HEAD';
        if (noBody) res.resume();
        resolve(
          new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers: h }),
        );
      } catch (err) {
        res.destroy();
        reject(err as Error);
      }
    });
    req.end(init.body);
  });
}
