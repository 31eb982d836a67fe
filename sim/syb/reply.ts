import type http from 'node:http';

/** A reply decided deep in a handler: thrown, and sent as it is by the server (./server.ts). */
export class Reply extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`reply ${status}`);
  }
}

/** A body already written as JSON text (too large to build as objects first): sent as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** The service's own error envelope: mostly under HTTP 200, as the real one (docs/syb-protocol.md). */
export const serviceError = (code: number, msg: string) => ({ code, msg, data: null });
export const ok = (data: unknown) => ({ code: 0, msg: 'success', data });

/** The request's JSON body; empty is undefined, too large 413, not JSON 400. */
export async function readJson(req: http.IncomingMessage, max = 10_000_000): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) throw new Reply(413, { error: 'body too large' });
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Reply(400, { error: 'body: invalid JSON' });
  }
}
