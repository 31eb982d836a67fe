import { canonicalIp, isNeverATarget } from '../../platform/network';
import type { AdminDb } from '../db/database';
import { ApiError, invalidInput } from '../../domain/api-error';

/**
 * Where Prometheus may be sent to scrape a phone host (docs/phone-hosts.md "Metrics",
 * docs/security.md): the admin serves each host's `metrics_target` as a scrape target, so a
 * host could otherwise aim Prometheus at a cloud metadata address or any internal service. A
 * target's host part is accepted only when it is
 * - the address the host's own request came from (as the admin sees it: behind a trusted proxy,
 *   X-Forwarded-For), or
 * - listed in CMAUTOBUY_METRICS_TARGET_HOSTS (comma-separated names or addresses an operator
 *   vouches for, e.g. `host-a.lan,10.0.0.7`),
 * and never an unspecified, link-local, metadata or multicast address, even when listed.
 */
export const METRICS_TARGET_HOSTS_VAR = 'CMAUTOBUY_METRICS_TARGET_HOSTS';

/** `host:port` or `[v6]:port`: the two branches start apart (`[` or not), so a failing input is refused in one pass. */
const TARGET_RE = /^(\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9.-]{1,253}):(\d{1,5})$/;

function refused(message: string): ApiError {
  return invalidInput('METRICS_TARGET_REFUSED', message);
}

/** One spelling of a host part, so `::ffff:10.0.0.5` matches `10.0.0.5` and names match in any case. */
function sameHost(host: string): string {
  return canonicalIp(host)?.address ?? host.toLowerCase().replace(/\.$/, '');
}

function allowList(env: NodeJS.ProcessEnv): Set<string> {
  return new Set(
    (env[METRICS_TARGET_HOSTS_VAR] ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter((h) => h !== '')
      .map(sameHost),
  );
}

/**
 * The target as it is stored and served (`host:port`, an IPv6 host in brackets), or a 400
 * METRICS_TARGET_REFUSED saying why.
 */
export function checkMetricsTarget(
  target: string,
  remoteAddress: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const m = TARGET_RE.exec(target);
  if (!m) throw refused('metrics_target must be host:port');
  const host = m[1]!.replace(/^\[|\]$/g, '');
  const port = Number(m[2]);
  if (port < 1 || port > 65535) throw refused(`metrics_target port ${m[2]} is out of range`);
  if (isNeverATarget(host))
    throw refused(`metrics_target ${host} is an unspecified, link-local, metadata or multicast address`);
  const key = sameHost(host);
  if (key !== sameHost(remoteAddress) && !allowList(env).has(key))
    throw refused(
      `metrics_target ${host} is neither the address this host connects from (${remoteAddress}) nor listed in ${METRICS_TARGET_HOSTS_VAR}`,
    );
  return joinTarget(host, port);
}

function joinTarget(host: string, port: number): string {
  const ip = canonicalIp(host);
  const shown = ip ? ip.address : host.toLowerCase();
  return `${ip?.family === 6 ? `[${shown}]` : shown}:${port}`;
}

/**
 * `metrics_port` alone: the host listens on every interface and cannot know which of its
 * addresses the admin sees, so the admin pairs the port with the address the request came from.
 */
export function targetAtRemote(port: number, remoteAddress: string): string {
  if (canonicalIp(remoteAddress) === null || isNeverATarget(remoteAddress))
    throw refused(`this host connects from ${remoteAddress}, which cannot be a metrics target`);
  return joinTarget(remoteAddress, port);
}

/** Whether a stored target may be served: one stored before these checks existed is not, if it names a never-address. */
function servableTarget(target: string): boolean {
  const m = TARGET_RE.exec(target);
  return m !== null && !isNeverATarget(m[1]!);
}

/** Prometheus HTTP service discovery: one group per active host that reported a metrics endpoint. */
export async function metricsTargets(
  db: AdminDb,
): Promise<Array<{ targets: string[]; labels: Record<string, string> }>> {
  const hosts = await db
    .selectFrom('phone_hosts')
    .select(['host_id', 'display_name', 'metrics_target'])
    .where('status', '=', 'ACTIVE')
    .where('metrics_target', 'is not', null)
    .orderBy('created_at')
    .execute();
  // a target stored before the checks on the heartbeat existed is judged again here
  return hosts
    .filter((h) => servableTarget(h.metrics_target!))
    .map((h) => ({
      targets: [h.metrics_target!],
      labels: { job: 'cmautobuy-phone-host', host_id: h.host_id, host_name: h.display_name },
    }));
}
