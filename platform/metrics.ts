import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { z } from 'zod';
import type { Logger } from './logger';

/**
 * Prometheus plumbing shared by the admin and the device worker (docs/operations.md "Metrics").
 * Each process — and each device worker when a test runs several in one process — owns its
 * registry, so no metric is ever counted twice or by the wrong phone.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  // Memory, CPU, event-loop lag and open handles: what tells a leak from a slow phone.
  collectDefaultMetrics({ register: registry, prefix: 'cmautobuy_process_' });
  return registry;
}

/**
 * Where a process's metrics listeners of their own bind (the device worker's, and the Temporal
 * SDK's in every process). Loopback unless a Prometheus on another host must reach them: the
 * text carries no secret, but nothing authenticates the scraper either.
 */
export const metricsHostEnvShape = {
  CMAUTOBUY_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
};

/**
 * Histogram buckets in seconds, from a fast HTTP answer to a purchase that waited for a phone
 * (the authorization allows up to a day), so the same buckets fit every duration we record.
 */
export const DURATION_BUCKETS_SECONDS = [
  0.005, 0.025, 0.1, 0.25, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600, 14_400, 86_400,
];

export interface MetricsListener {
  /** `http://host:port/metrics` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A listener of its own that answers `GET /metrics` and nothing else, for processes without an
 * HTTP server (the device worker). Port 0 takes a free port; the caller decides the host.
 */
export async function serveMetrics(opts: {
  registry: Registry;
  host: string;
  port: number;
  log: Logger;
}): Promise<MetricsListener> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'only GET /metrics is served here' } }));
      return;
    }
    opts.registry.metrics().then(
      (text) =>
        res
          .writeHead(200, { 'content-type': opts.registry.contentType, 'cache-control': 'no-store' })
          .end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) => {
        opts.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'metrics could not be rendered');
        res.writeHead(503, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: { code: 'METRICS_UNAVAILABLE', message: 'metrics could not be rendered; see the log' },
          }),
        );
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          `cannot serve metrics on ${opts.host}:${opts.port} (${err.code ?? err.message}); choose another port or leave the metrics port unset`,
        ),
      ),
    );
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${host}:${port}/metrics`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Seconds between two UTC timestamps of the data (`YYYY-MM-DDTHH:MM:SSZ`), never negative. */
export function secondsBetween(fromUtc: string, to: Date = new Date()): number {
  const from = Date.parse(fromUtc);
  return Number.isFinite(from) ? Math.max(0, (to.getTime() - from) / 1000) : 0;
}
