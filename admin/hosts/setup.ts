import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { certificatesOf, type HostSetupFacts } from '../../domain/host-setup';
import { isLoopbackHost } from '../../platform/network';
import type { TemporalConnectionSettings } from '../../temporal/connection';
import type { AdminDb } from '../db/database';
import { readTextSetting } from '../settings/settings';

const ROOT = path.resolve(__dirname, '../..');
let origin: Promise<string | null> | undefined;

/** Where this checkout came from, asked once: the host clones the same repository. */
function repositoryUrl(): Promise<string | null> {
  origin ??= promisify(execFile)('git', ['-C', ROOT, 'remote', 'get-url', 'origin'], { timeout: 5_000 }).then(
    (r) => r.stdout.trim() || null,
    () => null, // no git, or a release without a remote: the command says to fill it in
  );
  return origin;
}

/**
 * What a phone host on another machine needs that the admin knows (domain/host-setup.ts): its
 * public address from 设置 and how the admin itself reaches Temporal. The TLS files are the
 * admin's: only the CA certificates are public and printed; a client key never is.
 */
export async function hostSetupFacts(db: AdminDb, temporal: TemporalConnectionSettings): Promise<HostSetupFacts> {
  const tls = temporal.tls ?? (temporal.apiKey ? {} : undefined);
  return {
    admin_public_url: await readTextSetting(db, 'admin.public_url'),
    repository_url: await repositoryUrl(),
    temporal: {
      address: temporal.address,
      namespace: temporal.namespace,
      loopback: isLoopbackHost(temporal.address.slice(0, temporal.address.lastIndexOf(':'))),
      tls: tls !== undefined,
      server_name: tls?.serverNameOverride ?? null,
      ca_pem: tls?.serverRootCACertificate ? certificatesOf(tls.serverRootCACertificate.toString('utf8')) : null,
      client_certificate: tls?.clientCertPair !== undefined,
      api_key: temporal.apiKey !== undefined,
    },
  };
}
