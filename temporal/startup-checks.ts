import { Connection, isGrpcServiceError } from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { ConfigError } from '../platform/config';
import { describeError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { temporalConnectOptions, type TemporalSetup } from './connection';
import { registerNamespace, retentionDaysOf, setRetentionDays } from './namespace';
import { SEARCH_ATTRIBUTE_NAMES } from './search-attributes';

export interface StartupCheckOptions {
  temporal: TemporalSetup;
  log: Logger;
  /** the admin looks after the retention; a device worker leaves it to the admin */
  checkRetention: boolean;
  /** how long to wait for Temporal before starting anyway (it may come up later) */
  connectTimeoutMs?: number;
}

/** `unreachable`: nothing could be checked; the process starts anyway and reconnects later. */
export type StartupCheckOutcome = 'ok' | 'unreachable';

const KEYWORD = encodeSearchAttributeIndexedValueType(SearchAttributeType.KEYWORD) as NonNullable<
  ReturnType<typeof encodeSearchAttributeIndexedValueType>
>;
const TYPE_NAMES = new Map(
  Object.values(SearchAttributeType).map((t) => [encodeSearchAttributeIndexedValueType(t), t]),
);
const CALL_DEADLINE_MS = 10_000;
const NEW_NAMESPACE_WAIT_MS = 30_000;
/** the gRPC status codes this check tells apart (grpc-js is the SDK's dependency, not ours) */
const grpcStatus = {
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  PERMISSION_DENIED: 7,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

type Call = <T>(fn: () => Promise<T>) => Promise<T>;
type NamespaceDescription = Awaited<ReturnType<Connection['workflowService']['describeNamespace']>>;

/**
 * Run by the admin and every device worker before they start polling. Workflows write the five
 * search attributes on every step, so a namespace without them fails each purchase at its first
 * upsert: better to refuse at start with the commands that fix it. The embedded dev server is
 * ours, so there the missing parts are created instead. A Temporal that does not answer is not
 * a reason to refuse: both processes already wait for it and reconnect.
 */
export async function checkTemporalAtStartup(opts: StartupCheckOptions): Promise<StartupCheckOutcome> {
  const { temporal, log } = opts;
  let connection: Connection;
  try {
    connection = await Connection.connect({
      ...temporalConnectOptions(temporal),
      connectTimeout: opts.connectTimeoutMs ?? 5_000,
    });
  } catch (err) {
    log.warn(
      { address: temporal.address, err: describeError(err) },
      'Temporal not reachable at start: namespace and search attribute checks skipped',
    );
    return 'unreachable';
  }
  const call: Call = (fn) => connection.withDeadline(Date.now() + CALL_DEADLINE_MS, fn);
  try {
    const desc = await ensureNamespace(connection, call, opts);
    await ensureSearchAttributes(connection, call, opts);
    if (opts.checkRetention) await checkRetention(connection, call, opts, desc);
    return 'ok';
  } catch (err) {
    return startupFailure(err, opts);
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** The namespace's description; on the embedded server a missing namespace is created first. */
async function ensureNamespace(
  connection: Connection,
  call: Call,
  opts: StartupCheckOptions,
): Promise<NamespaceDescription> {
  const { temporal, log } = opts;
  const service = connection.workflowService;
  const namespace = temporal.namespace;
  try {
    return await call(() => service.describeNamespace({ namespace }));
  } catch (err) {
    if (!hasCode(err, grpcStatus.NOT_FOUND)) throw err;
  }
  if (!temporal.embedded)
    throw notReady(
      temporal,
      [`the namespace "${namespace}" does not exist`],
      [namespaceCommand(temporal), ...SEARCH_ATTRIBUTE_NAMES.map((n) => attributeCommand(namespace, n))],
    );
  await call(() => registerNamespace(service, namespace, temporal.retentionDays));
  log.info({ namespace, retentionDays: temporal.retentionDays }, 'namespace created on the embedded Temporal server');
  const desc = await call(() => service.describeNamespace({ namespace }));
  await untilServed(() => call(() => connection.operatorService.listSearchAttributes({ namespace })));
  return desc;
}

/**
 * Every search attribute the workflows write is registered as Keyword; on the embedded server the
 * missing ones are registered. A mistyped one is refused everywhere: its type cannot change in place.
 */
async function ensureSearchAttributes(connection: Connection, call: Call, opts: StartupCheckOptions): Promise<void> {
  const { temporal, log } = opts;
  const namespace = temporal.namespace;
  const registered =
    (await call(() => connection.operatorService.listSearchAttributes({ namespace }))).customAttributes ?? {};
  const missing = SEARCH_ATTRIBUTE_NAMES.filter((n) => registered[n] === undefined);
  const mistyped = SEARCH_ATTRIBUTE_NAMES.filter((n) => registered[n] !== undefined && registered[n] !== KEYWORD);
  if (mistyped.length > 0) {
    throw notReady(
      temporal,
      mistyped.map(
        (n) =>
          `the search attribute ${n} is registered as ${TYPE_NAMES.get(registered[n]) ?? String(registered[n])}, not Keyword`,
      ),
      mistyped.flatMap((n) => [
        `temporal operator search-attribute remove --namespace ${namespace} --name ${n}`,
        attributeCommand(namespace, n),
      ]),
    );
  }
  if (missing.length === 0) return;
  if (!temporal.embedded) {
    throw notReady(
      temporal,
      [`the search attributes ${missing.join(', ')} are not registered`],
      missing.map((n) => attributeCommand(namespace, n)),
    );
  }
  await call(() =>
    connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((n) => [n, KEYWORD])),
    }),
  );
  log.info({ namespace, created: missing }, 'search attributes registered on the embedded Temporal server');
}

/** The embedded namespace keeps the configured retention; a cluster's shorter one is reported. */
async function checkRetention(
  connection: Connection,
  call: Call,
  opts: StartupCheckOptions,
  desc: NamespaceDescription,
): Promise<void> {
  const { temporal, log } = opts;
  const namespace = temporal.namespace;
  const days = retentionDaysOf(desc);
  if (temporal.embedded && days !== temporal.retentionDays) {
    await call(() => setRetentionDays(connection.workflowService, namespace, temporal.retentionDays));
    log.info(
      { namespace, from: days, retentionDays: temporal.retentionDays },
      'retention of the embedded namespace set',
    );
  } else if (!temporal.embedded && days !== null && days < temporal.retentionDays) {
    log.warn(
      { namespace, retentionDays: days, expected: temporal.retentionDays },
      `the namespace keeps closed workflows ${days} days, less than CMAUTOBUY_TEMPORAL_RETENTION_DAYS=${temporal.retentionDays}: ` +
        `purchases leave the Temporal Web UI early (temporal operator namespace update --namespace ${namespace} --retention ${temporal.retentionDays}d)`,
    );
  }
}

/**
 * A failure during the checks: refused credentials are a configuration error with what to check;
 * a Temporal that stopped answering is `unreachable` (the process starts and reconnects).
 */
function startupFailure(err: unknown, opts: StartupCheckOptions): StartupCheckOutcome {
  const { temporal, log } = opts;
  if (err instanceof ConfigError) throw err;
  if (hasCode(err, grpcStatus.UNAUTHENTICATED) || hasCode(err, grpcStatus.PERMISSION_DENIED)) {
    throw new ConfigError(
      `Temporal at ${temporal.address} refused this process (${describeError(err)}): check CMAUTOBUY_TEMPORAL_API_KEY or the mTLS client certificate, ` +
        `and that it may use the namespace "${temporal.namespace}"`,
    );
  }
  if (hasCode(err, grpcStatus.UNAVAILABLE) || hasCode(err, grpcStatus.DEADLINE_EXCEEDED)) {
    log.warn(
      { address: temporal.address, err: describeError(err) },
      'Temporal stopped answering during the start-up checks; starting anyway',
    );
    return 'unreachable';
  }
  throw err;
}

/** A new namespace is stored at once but served only once the server's registry reloads. */
async function untilServed(probe: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + NEW_NAMESPACE_WAIT_MS;
  for (;;) {
    try {
      await probe();
      return;
    } catch (err) {
      if (!hasCode(err, grpcStatus.NOT_FOUND) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

function hasCode(err: unknown, code: number): boolean {
  return isGrpcServiceError(err) && err.code === code;
}

function namespaceCommand(temporal: TemporalSetup): string {
  return `temporal operator namespace create --namespace ${temporal.namespace} --retention ${temporal.retentionDays}d`;
}

function attributeCommand(namespace: string, name: string): string {
  return `temporal operator search-attribute create --namespace ${namespace} --name ${name} --type Keyword`;
}

function notReady(temporal: TemporalSetup, problems: string[], commands: string[]): ConfigError {
  return new ConfigError(
    [
      `Temporal at ${temporal.address} is not set up for cmautobuy:`,
      ...problems.map((p) => `  - ${p}`),
      `Run once against that cluster (with --address ${temporal.address} and your TLS or API key flags), then start again:`,
      ...commands.map((c) => `  ${c}`),
    ].join('\n'),
  );
}
