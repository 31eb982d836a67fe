import { z } from 'zod';
import { dataDirEnvShape, logLevelEnvShape, parseConfig, port } from '../../platform/config';
import { metricsHostEnvShape } from '../../platform/metrics';
import { temporalEnvShape } from '../../temporal/connection';

/**
 * The admin's (and `npm start`'s) environment, read in one place (docs/api.md "Environment");
 * the device worker builds its own from the same shapes (device-worker/args.ts).
 */
const envSchema = z.object({
  ...dataDirEnvShape,
  CMAUTOBUY_ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
  CMAUTOBUY_ADMIN_PORT: port.default(8080),
  ...temporalEnvShape,
  CMAUTOBUY_SIM_ADB_PORT: port.default(15037),
  CMAUTOBUY_SIM_CONTROL_PORT: port.default(15038),
  CMAUTOBUY_SYB_SIM_PORT: port.default(8090),
  CMAUTOBUY_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  // The 顺运宝 account's defaults (docs/syb-protocol.md); the password stays in memory only.
  CMAUTOBUY_SYB_URL: z.url({ protocol: /^https?$/ }).optional(),
  CMAUTOBUY_SYB_USERNAME: z.string().min(1).optional(),
  CMAUTOBUY_SYB_PASSWORD: z.string().min(1).optional(),
  // The admin's own listener (admin/config/tls.ts, docs/security.md). File paths, never the PEM itself.
  CMAUTOBUY_ADMIN_TLS_CERT: z.string().min(1).optional(),
  CMAUTOBUY_ADMIN_TLS_KEY: z.string().min(1).optional(),
  CMAUTOBUY_ADMIN_ALLOW_PLAINTEXT: z.enum(['0', '1']).optional(),
  /** 1: a reverse proxy is in front; X-Forwarded-For names the client, cookies get Secure (docs/security.md) */
  CMAUTOBUY_TRUST_PROXY: z.enum(['0', '1']).optional(),
  /** comma-separated host names the admin answers to besides loopback and its bind host (docs/security.md) */
  CMAUTOBUY_ADMIN_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== ''),
    ),
  // The Temporal SDK's worker metrics (temporal/runtime.ts); unset = not served.
  CMAUTOBUY_TEMPORAL_METRICS_PORT: port.min(1).optional(),
  /** a Bearer token Prometheus sends to `GET /api/metrics/targets` (docs/operations.md §3) */
  CMAUTOBUY_METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  // Online backups of admin.db (admin/backup/schedule.ts); unset dir = none. Outside the data dir.
  CMAUTOBUY_BACKUP_DIR: z.string().min(1).optional(),
  CMAUTOBUY_BACKUP_KEEP: z.coerce.number().int().min(1).default(7),
  CMAUTOBUY_BACKUP_INTERVAL_HOURS: z.coerce.number().positive().default(24),
  ...metricsHostEnvShape,
  ...logLevelEnvShape,
});

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  return parseConfig(envSchema, source, {
    what: 'environment',
    hint: 'Fix or unset these variables (see docs/api.md).',
  });
}
