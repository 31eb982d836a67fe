import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentClient } from './client';

/**
 * An agent that answers badly costs a read a bounded wait and a bounded amount of memory: the
 * answer that drips in slowly is cut off at the deadline, the one that never ends at its size.
 */
let server: http.Server;
let answer: (res: http.ServerResponse) => void;

beforeAll(async () => {
  server = http.createServer((_req, res) => answer(res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** `ms`: the exchange's deadline — long where only the size may end it (a loaded machine streams slowly) */
function client(ms = 500): AgentClient {
  const c = new AgentClient((server.address() as AddressInfo).port, { requestMs: ms, sourceMs: ms });
  Object.assign(c, { sessionId: 'one' });
  return c;
}

test('an answer that drips in a byte at a time is cut off at the deadline', async () => {
  answer = (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"value":"');
    const drip = setInterval(() => res.write('x'), 50);
    res.on('close', () => clearInterval(drip));
  };
  await expect(client().source()).rejects.toThrow(/took longer than 500 ms/);
});

test('an answer larger than any screen is refused, not buffered', async () => {
  answer = (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1 << 20, 'x');
    const write = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', write);
    };
    write();
  };
  await expect(client(120_000).source()).rejects.toThrow(/the answer is over \d+ bytes/);
});

test('a source that is not JSON, or no XML, is refused', async () => {
  answer = (res) => res.end('<hierarchy/>');
  await expect(client().source()).rejects.toThrow(/not JSON/);
  answer = (res) => res.end(JSON.stringify({ value: { nodes: [] } }));
  await expect(client().source()).rejects.toThrow(/no XML/);
});
