/**
 * Redaction by pattern, applied to every serialized log line after pino's redaction by field
 * (platform/logger.ts): a secret that reaches a log inside a message, an error's text or a
 * field at a depth nobody listed is still cut (docs/security.md "Secrets").
 */

/** Fields whose value is a secret wherever they sit (Temporal's activity log context carries the task token). */
const SECRET_FIELD =
  /"(taskToken|base64TaskToken|task_token|token|password|authorization|cookie|apiKey|csrf_token)"\s*:\s*("(?:[^"\\]|\\.)*"|\[[^\][]*\]|\{[^{}]*\})/g;
/** `Bearer <credential>` in any text (an Authorization header quoted in an error) */
const BEARER = /\b(Bearer)\s+[^\s"\\,;]+/gi;
/** 64 hex digits: the shape of a device token, a session secret, a raw API key */
const HEX64 = /(?<![0-9A-Fa-f])[0-9A-Fa-f]{64}(?![0-9A-Fa-f])/g;

export const REDACTED = '[redacted]';

export function redactSecrets(line: string): string {
  return line
    .replace(SECRET_FIELD, (_all, field: string) => `"${field}":"${REDACTED}"`)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(HEX64, REDACTED);
}
