import { avcCodecString, isKeyFrame } from '../../../../domain/h264';

/** Frames waiting in the decoder beyond which the rest up to the next key frame are skipped, not queued. */
const MAX_DECODE_QUEUE = 8;
/** A nominal frame spacing: the decoder wants rising timestamps, the picture is drawn when decoded. */
const FRAME_US = 66_000;

export interface H264Drawer {
  /** one Annex-B access unit of the stream */
  push(data: Uint8Array): void;
  close(): void;
}

/** Whether this browser decodes video with WebCodecs (Chrome and Edge 94+, Safari 16.4+, Firefox 130+). */
export function h264Supported(): boolean {
  return typeof VideoDecoder !== 'undefined' && typeof EncodedVideoChunk !== 'undefined';
}

/**
 * Decodes an H.264 stream with WebCodecs and draws each picture onto the canvas, scaled to it.
 * It starts at the first key frame (configured from its SPS, Annex-B input, no description),
 * and when it falls behind it skips to the next key frame instead of queueing. A decoder error
 * ends it: `failed` says why, and the caller opens the stream again.
 */
export function createH264Drawer(
  canvas: () => HTMLCanvasElement | undefined,
  drawn: () => void,
  failed: (why: string) => void,
): H264Drawer {
  let decoder: VideoDecoder | null = null;
  let codec: string | null = null;
  let waitKey = true;
  let timestamp = 0;
  let closed = false;

  const close = (): void => {
    closed = true;
    if (decoder && decoder.state !== 'closed') decoder.close();
    decoder = null;
  };
  const fail = (why: string): void => {
    if (closed) return;
    close();
    failed(why);
  };
  const draw = (frame: VideoFrame): void => {
    const c = canvas();
    if (c && !closed) {
      c.getContext('2d')?.drawImage(frame, 0, 0, c.width, c.height);
      drawn();
    }
    frame.close();
  };

  const push = (data: Uint8Array): void => {
    if (closed) return;
    const key = isKeyFrame(data);
    if (decoder && decoder.decodeQueueSize > MAX_DECODE_QUEUE) waitKey = true;
    if (waitKey && !key) return;
    if (key) {
      const said = avcCodecString(data);
      if (!said) return fail('a key frame without its SPS');
      try {
        if (!decoder) decoder = new VideoDecoder({ output: draw, error: (e) => fail(`VideoDecoder: ${e.message}`) });
        // a new SPS (the phone turned, the encoder restarted) may name another profile or level
        if (said !== codec) decoder.configure({ codec: said, optimizeForLatency: true });
        codec = said;
      } catch (e) {
        return fail(`VideoDecoder ${said}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (!decoder) return;
    waitKey = false;
    timestamp += FRAME_US;
    try {
      decoder.decode(new EncodedVideoChunk({ type: key ? 'key' : 'delta', timestamp, data }));
    } catch (e) {
      fail(`VideoDecoder: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  return { push, close };
}
