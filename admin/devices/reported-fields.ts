import { z } from 'zod';
import { UNSAFE_TEXT_MESSAGE, unsafeTextChar } from '../../domain/text';

/**
 * What phone hosts and device workers report about a phone (docs/security.md "Phone hosts and
 * devices"): serials, models, versions and capabilities are stored and shown on 设备, so each
 * is printable (domain/text.ts, one line), bounded, and — where the value is a key (serials,
 * versions) — from a small character set. Every check is linear in the input: anchored
 * character classes, no alternation that could backtrack.
 */
function reportedText(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .superRefine((s, ctx) => {
      const bad = unsafeTextChar(s);
      if (bad !== null) ctx.addIssue({ code: 'custom', message: `${UNSAFE_TEXT_MESSAGE} (found ${bad})` });
    });
}

/**
 * An ADB serial: USB serials (`R58M12ABCDE`), `emulator-5554`, network phones (`192.168.1.20:5555`,
 * `[fe80::1]:5555`) and wireless-debugging names (`adb-R58M-x._adb-tls-connect._tcp`).
 */
const SERIAL_RE = /^[A-Za-z0-9][A-Za-z0-9._:@+[\]-]*$/;
export const SERIAL_MAX = 128;
export const serialSchema = z
  .string()
  .trim()
  .min(1)
  .max(SERIAL_MAX)
  .regex(SERIAL_RE, 'a serial is letters, digits and . _ : @ + - [ ] only');

/** `7.28.0`, `14`, `8.1.0-beta+2`, or what a worker says when PDD is missing (`not installed`). */
const VERSION_RE = /^[A-Za-z0-9][A-Za-z0-9 ._+()-]*$/;
export const versionSchema = (max: number) =>
  z.string().trim().min(1).max(max).regex(VERSION_RE, 'a version is letters, digits, spaces and . _ + - ( ) only');

/** A phone model as `getprop ro.product.model` says it: any printable text, Chinese included. */
export const modelSchema = (max: number) => reportedText(max);

/** The capabilities a registration may carry, as stored JSON (`devices.capabilities_json`). */
const CAPABILITIES_MAX_BYTES = 8 * 1024;
const CAPABILITY_RE = /^[A-Za-z0-9][A-Za-z0-9._:+-]*$/;
const capability = z.string().min(1).max(64).regex(CAPABILITY_RE, 'a capability is letters, digits and . _ : + - only');
/** a flat value of a newer worker's object form: no nesting, so the shape stays one level deep */
const capabilityValue = z.union([
  reportedText(256),
  z.number().finite(),
  z.boolean(),
  z.null(),
  z.array(capability).max(64),
]);

/**
 * Today's workers send a list (`['collect', 'profile:7.28.0']`); newer ones may send a flat
 * object. Either way at most 64 entries and CAPABILITIES_MAX_BYTES of JSON.
 */
export const capabilitiesSchema = z
  .union([
    z.array(capability).max(64),
    z.record(capability, capabilityValue).refine((o) => Object.keys(o).length <= 64, 'at most 64 capabilities'),
  ])
  .refine(
    (c) => Buffer.byteLength(JSON.stringify(c)) <= CAPABILITIES_MAX_BYTES,
    `capabilities must be at most ${CAPABILITIES_MAX_BYTES} bytes of JSON`,
  );
