import fs from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { REDACTED, redactSecrets } from './redact';

export type { Logger };

/**
 * Every process logs the same way: pretty when a person watches a terminal, JSON lines
 * otherwise, and always JSON to `<data>/logs/<name>.log`. Secrets are redacted by key
 * so a careless `log.info({ headers })` cannot leak a token or a cookie, and then by pattern
 * on the written line (platform/redact.ts) wherever else one hides.
 */
export const REDACT_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
  'cookie',
  '*.cookie',
  'csrf_token',
  '*.csrf_token',
  'apiKey',
  '*.apiKey',
  'taskToken',
  '*.taskToken',
  'base64TaskToken',
  '*.base64TaskToken',
];

export interface LoggerOptions {
  name: string;
  level?: string;
  logDir?: string;
  /** defaults to stdout; tests pass their own stream */
  stdout?: NodeJS.WritableStream & { isTTY?: boolean };
}

export function createLogger(opts: LoggerOptions): Logger {
  const out = opts.stdout ?? process.stdout;
  // Each stream takes everything; the logger's own level decides (a stream's default is info).
  const streams: pino.StreamEntry[] = [
    { level: 'trace', stream: out.isTTY ? pretty({ colorize: true, destination: out as NodeJS.WritableStream }) : out },
  ];
  if (opts.logDir) {
    fs.mkdirSync(opts.logDir, { recursive: true });
    streams.push({
      level: 'trace',
      stream: pino.destination({ dest: path.join(opts.logDir, `${opts.name}.log`), sync: false }),
    });
  }
  return pino(
    {
      name: opts.name,
      level: opts.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      hooks: { streamWrite: redactSecrets },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    pino.multistream(streams),
  );
}
