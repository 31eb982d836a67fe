import type { Context } from 'koa';
import type { AuditActor } from '../audit/audit';
import { unauthenticated } from '../../domain/api-error';

/** The operator behind a session; set only by the identity gate. */
export interface Operator {
  userId: number;
  username: string;
  /** the CSRF token of this session, derived from the cookie, never stored */
  csrfToken: string;
  sessionIdSha256: Buffer;
}

/** The device behind a Bearer token; set only by the identity gate. */
export interface DevicePrincipal {
  deviceId: string;
}

// WeakMaps rather than ctx.state: nothing but the gate can set them, and they are typed.
const operators = new WeakMap<Context, Operator>();
const devices = new WeakMap<Context, DevicePrincipal>();
const hosts = new WeakMap<Context, { hostId: string }>();

export function setHost(ctx: Context, host: { hostId: string }): void {
  hosts.set(ctx, host);
}

/** The phone host of this request (`/api/host/…`); same fail-closed rule as `operatorOf`. */
export function hostOf(ctx: Context): { hostId: string } {
  const host = hosts.get(ctx);
  if (!host || operators.has(ctx) || devices.has(ctx))
    throw unauthenticated('UNAUTHENTICATED', 'host credentials required');
  return host;
}

const scrapers = new WeakSet<Context>();

/** A request to `GET /api/metrics/targets` with the metrics token (admin/auth/gate.ts). */
export function setMetricsScraper(ctx: Context): void {
  scrapers.add(ctx);
}

/** The scrape targets' reader: an operator, or Prometheus with the metrics token. */
export function requireMetricsReader(ctx: Context): void {
  if (scrapers.has(ctx) && !operators.has(ctx) && !devices.has(ctx) && !hosts.has(ctx)) return;
  operatorOf(ctx);
}

export function setOperator(ctx: Context, operator: Operator): void {
  operators.set(ctx, operator);
}

export function setDevice(ctx: Context, device: DevicePrincipal): void {
  devices.set(ctx, device);
}

/**
 * The operator of this request. The gate has already refused requests without one; handlers
 * call this anyway so a mis-mounted route fails closed instead of running anonymously.
 */
export function operatorOf(ctx: Context): Operator {
  const operator = operators.get(ctx);
  if (!operator || devices.has(ctx) || hosts.has(ctx)) throw unauthenticated('UNAUTHENTICATED', 'log in first');
  return operator;
}

/** The device of this request; same fail-closed rule as `operatorOf`. */
export function deviceOf(ctx: Context): DevicePrincipal {
  const device = devices.get(ctx);
  if (!device || operators.has(ctx)) throw unauthenticated('UNAUTHENTICATED', 'device credentials required');
  return device;
}

export function actorOf(ctx: Context): AuditActor {
  const operator = operators.get(ctx);
  if (operator) return { kind: 'operator', name: operator.username, sourceIp: ctx.ip };
  const device = devices.get(ctx);
  if (device) return { kind: 'device', name: device.deviceId, sourceIp: ctx.ip };
  throw unauthenticated('UNAUTHENTICATED', 'log in first');
}
