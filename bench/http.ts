import http from 'node:http';

/**
 * Loopback HTTP for measuring the admin: node's own client over kept-alive sockets, so a
 * latency is the server's answer plus one loopback round trip — not a fetch implementation's
 * set-up. The operator's session cookie comes from the logged-in OperatorClient.
 */
export class TimedClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  constructor(
    private readonly baseUrl: string,
    private readonly cookie: string,
  ) {}

  /**
   * GET `path`; resolves to the status, the body and the time to the last byte. With
   * `timeoutMs`, a request unanswered by then is abandoned and resolves with status 0 and
   * `timedOut` (a frozen server must not keep a bench waiting).
   */
  get(path: string, timeoutMs?: number): Promise<{ status: number; ms: number; body: string; timedOut?: boolean }> {
    const started = performance.now();
    return new Promise((resolve) => {
      const req = http.get(`${this.baseUrl}${path}`, { agent: this.agent, headers: { cookie: this.cookie } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', () => resolve({ status: 0, ms: performance.now() - started, body: '' }));
      });
      // a refused or reset connection is an error of the run, counted by the caller as status 0
      req.on('error', () => resolve({ status: 0, ms: performance.now() - started, body: '' }));
      if (timeoutMs !== undefined) {
        const timer = setTimeout(() => {
          resolve({ status: 0, ms: performance.now() - started, body: '', timedOut: true });
          req.destroy();
        }, timeoutMs);
        req.on('close', () => clearTimeout(timer));
      }
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
