import { z } from 'zod';
import { phoneInputSchema, type PhoneInput } from '../phone-input';

/**
 * The phone host's outward channel (docs/phone-hosts.md "Live screen"): one WebSocket the host
 * opens to the admin's `/api/host/channel` with its host token, so a host behind NAT works and
 * the admin never dials a host. Over it the admin asks for screens and sends a person's input;
 * the host answers. Text messages are JSON in the shapes below; a binary message is one frame:
 * the 4-byte big-endian id of the request or stream it belongs to, then the image bytes.
 *
 * An H.264 stream (meta codec `h264`, the scrcpy path) sends Annex-B access units, one a frame;
 * a frame a decoder can start from (an IDR picture with its SPS and PPS in front) is announced
 * by the text message `{op:'key', id}` right before it. The frames between key frames need every
 * one before them: a host or admin that must drop one drops all until the next key frame, and
 * the admin sends a viewer who joins late the last key frame and what followed it.
 */

const deviceId = z.string().uuid();
const requestId = z.number().int().min(1).max(0xffff_ffff);

const SCREEN_CODECS = ['jpeg', 'png', 'h264'] as const;
const SCREEN_PATHS = ['minicap', 'scrcpy', 'screencap'] as const;

const screenMetaSchema = z
  .object({
    codec: z.enum(SCREEN_CODECS),
    width: z.number().int().min(1).max(16_384),
    height: z.number().int().min(1).max(16_384),
    path: z.enum(SCREEN_PATHS),
  })
  .strict();
export type ScreenMeta = z.infer<typeof screenMetaSchema>;

/**
 * What the admin asks. `frame`: one image now; `watch` … `unwatch`: a stream under that id.
 * `keys`: the Temporal payload keys (temporal/codec/keys.ts), sent first on every channel the
 * admin accepts; the host holds them in memory only and runs no device worker before it has them.
 */
export type AdminToHost =
  | { op: 'keys'; payload_keys: string }
  | { op: 'frame'; id: number; device_id: string }
  | { op: 'watch'; id: number; device_id: string }
  | { op: 'unwatch'; id: number }
  | { op: 'input'; id: number; device_id: string; input: PhoneInput };

export const adminToHostSchema = z.discriminatedUnion('op', [
  // the ring's format is checked where it is parsed (the host), whose errors never echo a key
  z.object({ op: z.literal('keys'), payload_keys: z.string().min(1).max(16_384) }),
  z.object({ op: z.literal('frame'), id: requestId, device_id: deviceId }),
  z.object({ op: z.literal('watch'), id: requestId, device_id: deviceId }),
  z.object({ op: z.literal('unwatch'), id: requestId }),
  // the host checks the input again, and against the phone's screen (it alone knows its size)
  z.object({ op: z.literal('input'), id: requestId, device_id: deviceId, input: phoneInputSchema }),
]);

/** Why a host could not do what was asked: the admin turns these into its own refusals. */
const HOST_REFUSALS = ['PHONE_NOT_HERE', 'SCREEN_FAILED', 'INPUT_FAILED', 'INPUT_INVALID'] as const;

export const hostToAdminSchema = z.discriminatedUnion('op', [
  /** the answer to `frame` (its image follows as a binary message under the same id) or `input` */
  z.object({
    op: z.literal('reply'),
    id: requestId,
    ok: z.boolean(),
    content_type: z.enum(['image/png', 'image/jpeg']).optional(),
    error: z
      .object({ code: z.enum(HOST_REFUSALS), message: z.string().max(500), field: z.string().max(20).optional() })
      .optional(),
  }),
  /** a stream started: its frames follow under its id */
  z.object({ op: z.literal('meta'), id: requestId, meta: screenMetaSchema }),
  /** the stream's next frame is an H.264 key frame */
  z.object({ op: z.literal('key'), id: requestId }),
  /** a stream ended on the host's side (the phone left, minicap died) */
  z.object({ op: z.literal('ended'), id: requestId, reason: z.string().max(500) }),
]);
export type HostToAdmin = z.infer<typeof hostToAdminSchema>;

/** A frame bigger than this is a broken host, not a screen. */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

export function frameMessage(id: number, body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(id, 0);
  return Buffer.concat([head, body]);
}

export function readFrameMessage(data: Buffer): { id: number; body: Buffer } | null {
  if (data.length < 5 || data.length > MAX_FRAME_BYTES + 4) return null;
  return { id: data.readUInt32BE(0), body: data.subarray(4) };
}
