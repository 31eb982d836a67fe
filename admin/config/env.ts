import path from 'node:path';
import { z } from 'zod';

/**
 * The one place that reads the process environment (docs/API.md "Environment").
 * A bad value stops the process with a message that names the variable, because a
 * half-configured admin that starts anyway is worse than one that refuses.
 */
const port = z.coerce.number().int().min(0).max(65535);

const envSchema = z.object({
  CMAUTOBUY_DATA_DIR: z.string().min(1).default('./data'),
  CMAUTOBUY_ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
  CMAUTOBUY_ADMIN_PORT: port.default(8080),
  CMAUTOBUY_TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^\s:]+:\d+$/, 'expected host:port, e.g. temporal.internal:7233')
    .optional(),
  CMAUTOBUY_TEMPORAL_NAMESPACE: z.string().min(1).default('cmautobuy'),
  CMAUTOBUY_TEMPORAL_PORT: port.default(7233),
  CMAUTOBUY_TEMPORAL_UI_PORT: port.default(8233),
  /** where operators open the Temporal Web UI; wins over the embedded server's UI port */
  CMAUTOBUY_TEMPORAL_UI_URL: z.url().optional(),
  CMAUTOBUY_SIM_ADB_PORT: port.default(15037),
  CMAUTOBUY_SIM_CONTROL_PORT: port.default(15038),
  CMAUTOBUY_SYB_SIM_PORT: port.default(8090),
  CMAUTOBUY_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  // Transport security (admin/config/tls.ts, docs/security.md). File paths, never the PEM itself.
  CMAUTOBUY_ADMIN_TLS_CERT: z.string().min(1).optional(),
  CMAUTOBUY_ADMIN_TLS_KEY: z.string().min(1).optional(),
  CMAUTOBUY_ADMIN_ALLOW_PLAINTEXT: z.enum(['0', '1']).optional(),
  CMAUTOBUY_TEMPORAL_TLS: z.enum(['0', '1']).optional(),
  CMAUTOBUY_TEMPORAL_TLS_CA: z.string().min(1).optional(),
  CMAUTOBUY_TEMPORAL_TLS_CERT: z.string().min(1).optional(),
  CMAUTOBUY_TEMPORAL_TLS_KEY: z.string().min(1).optional(),
  CMAUTOBUY_TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  CMAUTOBUY_TEMPORAL_ALLOW_PLAINTEXT: z.enum(['0', '1']).optional(),
  CMAUTOBUY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Empty strings are what shells leave behind for `FOO= cmd`; treat them as unset.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}\nFix or unset these variables (see docs/API.md).`);
  }
  return result.data;
}

/** The data dir layout of ARCHITECTURE §5, resolved once so nobody joins paths by hand. */
export interface DataPaths {
  root: string;
  adminDb: string;
  temporalDb: string;
  logs: string;
  evidence: string;
  device(deviceId: string): { root: string; ledgerDb: string; artifacts: string };
}

export function dataPaths(dataDir: string): DataPaths {
  const root = path.resolve(dataDir);
  return {
    root,
    adminDb: path.join(root, 'admin.db'),
    temporalDb: path.join(root, 'temporal', 'temporal.db'),
    logs: path.join(root, 'logs'),
    evidence: path.join(root, 'evidence'),
    device(deviceId) {
      if (!/^[A-Za-z0-9._-]+$/.test(deviceId)) throw new ConfigError(`device id ${JSON.stringify(deviceId)} is not a safe folder name`);
      const dir = path.join(root, 'device', deviceId);
      return { root: dir, ledgerDb: path.join(dir, 'ledger.db'), artifacts: path.join(dir, 'artifacts') };
    },
  };
}

export interface TemporalTarget {
  address: string;
  namespace: string;
  /** true when we start the embedded dev server ourselves */
  embedded: boolean;
  /**
   * The Temporal Web UI operators are sent to (the task page's 工作流 link): the URL given, else
   * the embedded server's UI port; null for an existing cluster whose UI nobody named.
   */
  uiUrl: string | null;
}

export function temporalTarget(env: Env): TemporalTarget {
  const givenUi = env.CMAUTOBUY_TEMPORAL_UI_URL?.replace(/\/+$/, '') ?? null;
  if (env.CMAUTOBUY_TEMPORAL_ADDRESS) {
    return { address: env.CMAUTOBUY_TEMPORAL_ADDRESS, namespace: env.CMAUTOBUY_TEMPORAL_NAMESPACE, embedded: false, uiUrl: givenUi };
  }
  return {
    address: `127.0.0.1:${env.CMAUTOBUY_TEMPORAL_PORT}`,
    namespace: env.CMAUTOBUY_TEMPORAL_NAMESPACE,
    embedded: true,
    uiUrl: givenUi ?? `http://127.0.0.1:${env.CMAUTOBUY_TEMPORAL_UI_PORT}`,
  };
}
