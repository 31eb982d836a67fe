import fs from 'node:fs';
import { z } from 'zod';
import { describeError } from './errors';

/**
 * How every process reads its configuration (env vars and CLI flags): one zod schema per
 * process, parsed once at start. A bad value stops the process with a message that names the
 * variable or flag, because a half-configured process that starts anyway is worse than one
 * that refuses.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A TCP port; 0 asks the OS for a free one (tests). */
export const port = z.coerce.number().int().min(0).max(65535);

export const logLevelEnvShape = {
  CMAUTOBUY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

export const dataDirEnvShape = {
  CMAUTOBUY_DATA_DIR: z.string().min(1).default('./data'),
};

/**
 * Parses `source` (an env, or flags keyed `--name`) with `schema`. Empty strings are what
 * shells leave behind for `FOO= cmd`, so they count as unset. The error lists every bad key
 * with zod's message, never the value: a value may be a secret.
 */
export function parseConfig<S extends z.ZodType>(
  schema: S,
  source: Readonly<Record<string, string | undefined>>,
  say: { what: string; hint: string },
): z.infer<S> {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid ${say.what}:\n${lines.join('\n')}\n${say.hint}`);
  }
  return result.data;
}

/**
 * Splits `--name value` / `--name=value` flags from positional arguments; an unknown flag or
 * one without a value is refused with the flag named. Flags are keyed `--name`, so a schema's
 * error names the flag as the user typed it; values are checked by that schema.
 */
export function parseFlags(
  argv: readonly string[],
  known: readonly string[],
): { positional: string[]; flags: Record<string, string> } {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (!known.includes(name))
      throw new ConfigError(`unknown option --${name} (known: ${known.map((k) => `--${k}`).join(' ')})`);
    const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined || value.startsWith('--')) throw new ConfigError(`--${name} needs a value`);
    flags[`--${name}`] = value;
  }
  return { positional, flags };
}

/** Reads a file named by a variable (a PEM, a token); the error names the variable, not the content. */
export function readConfigFile(variable: string, file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    throw new ConfigError(`${variable}: cannot read ${file}: ${describeError(err)}`);
  }
}
