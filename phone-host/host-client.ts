import type { PhoneState } from '../domain/phone-health';
import type { PhoneProbe } from './probe';

/** A phone as the admin knows it on this host's channel. */
export interface HostPhone {
  device_id: string;
  serial: string;
  state: PhoneState;
}

export class HostUnauthorized extends Error {
  override readonly name = 'HostUnauthorized';
}

/** The admin refused one request for what it carried (a 4xx with an error code): retrying it as it is will not help. */
export class HostRequestRefused extends Error {
  override readonly name = 'HostRequestRefused';
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
  }
}

function errorCode(text: string): string | null {
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

/** Where Prometheus scrapes this host: a `host:port`, or a port at the address the admin sees this host connect from. */
export type MetricsAddress = { metrics_target: string } | { metrics_port: number } | null;

/**
 * The host's side of `/api/host/…` (docs/phone-hosts.md): every call carries
 * `Authorization: Bearer <host_id>.<token>`. A 401 (revoked or wrong token) is an error of its
 * own, so the host stops every phone instead of retrying.
 */
export class HostClient {
  constructor(
    private readonly adminUrl: string,
    private readonly hostId: string,
    private readonly token: string,
    private readonly timeoutMs = 10_000,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(new URL(path, this.adminUrl), {
      method,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${this.hostId}.${this.token}`,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    if (res.status === 401) throw new HostUnauthorized(`the admin refused host ${this.hostId} (revoked?)`);
    if (res.status >= 400 && res.status < 500)
      throw new HostRequestRefused(
        res.status,
        errorCode(text),
        `${method} ${path}: HTTP ${res.status} ${text.slice(0, 200)}`,
      );
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  }

  heartbeat(metrics: MetricsAddress, present: string[]): Promise<{ phones: HostPhone[] }> {
    return this.call('POST', '/api/host/heartbeat', { metrics_target: null, ...metrics, present });
  }

  reportPhone(p: PhoneProbe): Promise<HostPhone> {
    return this.call('POST', '/api/host/phones', p);
  }

  async phoneToken(deviceId: string): Promise<string> {
    return (await this.call<{ token: string }>('POST', `/api/host/phones/${deviceId}/token`)).token;
  }

  reportHealth(
    deviceId: string,
    h: { battery_level: number; charging: boolean; screen: string; free_storage_mb: number; app_version?: string },
  ): Promise<{ refusal: string | null }> {
    return this.call('PUT', `/api/host/phones/${deviceId}/health`, h);
  }
}
