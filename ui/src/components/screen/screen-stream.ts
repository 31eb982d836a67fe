import { createSignal, onCleanup, type Accessor } from 'solid-js';
import type { ScreenMeta } from '../../../../domain/contracts/host-channel';
import { ApiError } from '../../api/client';
import { getMe, screenStreamUrl } from '../../api/endpoints';
import { errorText } from '../../errors';
import { framesInLastSecond } from '../../../../domain/screen-gestures';
import { createH264Drawer, h264Supported, type H264Drawer } from './h264-drawer';

/** The admin closes a stream with this when the session ended (logged out, expired). */
const SESSION_ENDED = 4401;
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 15_000;

export interface ScreenStream {
  /** the phone's pixel size and how its picture comes; null until the stream says */
  meta: Accessor<ScreenMeta | null>;
  /** frames drawn in the last second, as this browser measured them */
  fps: Accessor<number>;
  /** why there is no picture, in the operator's words; null while frames come */
  error: Accessor<string | null>;
  /** the raw reason of that, for 技术详情 */
  detail: Accessor<string | null>;
  /** a frame has been drawn since the page opened */
  drawn: Accessor<boolean>;
}

/**
 * The phone's live screen drawn onto `canvas()`, for as long as the calling component lives:
 * one WebSocket, opened again with a growing pause whenever it closes, except when the session
 * ended (then the API's own 401 sends the operator to login). JPEG and PNG frames that arrive
 * while one is still being decoded are dropped, never queued, so the picture is always the
 * latest; an H.264 stream (meta codec `h264`) goes through WebCodecs (h264-drawer.ts).
 */
export function createScreenStream(deviceId: string, canvas: () => HTMLCanvasElement | undefined): ScreenStream {
  const [meta, setMeta] = createSignal<ScreenMeta | null>(null);
  const [fps, setFps] = createSignal(0);
  const [error, setError] = createSignal<string | null>(null);
  const [detail, setDetail] = createSignal<string | null>(null);
  const [drawn, setDrawn] = createSignal(false);
  const drawnAt: number[] = [];
  let socket: WebSocket | null = null;
  let retryMs = RETRY_FIRST_MS;
  let retryTimer: number | undefined;
  let closed = false;
  let video: H264Drawer | null = null;

  const markDrawn = (): void => {
    drawnAt.push(performance.now());
    setDrawn(true);
  };
  const say = (e: string, d: string): void => {
    setError(e);
    setDetail(d);
  };

  const images = imageDrawer(canvas, markDrawn, () => closed);

  const onText = (text: string, ws: WebSocket): void => {
    const said = readText(text);
    if (said?.kind === 'error') {
      setError(errorText(new ApiError(0, said.code, said.message)));
      setDetail(said.message !== '' ? `${said.code}: ${said.message}` : said.code);
    } else if (said?.kind === 'meta') {
      // the canvas takes the phone's size from it (ScreenCanvas)
      setMeta(said.meta);
      video?.close();
      video = null;
      setError(null);
      setDetail(null);
      if (said.meta.codec === 'h264') video = openVideo(ws, canvas, markDrawn, say);
      retryMs = RETRY_FIRST_MS;
    }
  };

  const open = (): void => {
    retryTimer = undefined;
    const ws = new WebSocket(screenStreamUrl(deviceId));
    ws.binaryType = 'arraybuffer';
    socket = ws;
    ws.onmessage = (ev: MessageEvent<string | ArrayBuffer>) => {
      if (typeof ev.data === 'string') return onText(ev.data, ws);
      const codec = meta()?.codec;
      if (codec === 'h264') return video?.push(new Uint8Array(ev.data));
      images(new Blob([ev.data], codec ? { type: codec === 'png' ? 'image/png' : 'image/jpeg' } : {}));
    };
    ws.onclose = (ev) => {
      if (socket === ws) socket = null;
      video?.close();
      video = null;
      if (closed) return;
      if (ev.code === SESSION_ENDED) {
        // the API's 401 is the one way to login: it remembers this page to come back to
        void getMe().catch(() => undefined);
        return;
      }
      if (error() === null) setError('与手机画面的连接断开，正在重新连接…');
      retryTimer = window.setTimeout(open, retryMs);
      retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
    };
  };

  const counter = window.setInterval(() => setFps(framesInLastSecond(drawnAt, performance.now())), 500);
  open();
  onCleanup(() => {
    closed = true;
    window.clearInterval(counter);
    if (retryTimer !== undefined) window.clearTimeout(retryTimer);
    socket?.close(1000, 'page closed');
    video?.close();
  });

  return { meta, fps, error, detail, drawn };
}

/** JPEG and PNG frames: one decoded at a time, the newest waiting, the ones between dropped. */
function imageDrawer(
  canvas: () => HTMLCanvasElement | undefined,
  drawn: () => void,
  closed: () => boolean,
): (image: Blob) => void {
  let pending: Blob | null = null;
  let decoding = false;
  const draw = async (): Promise<void> => {
    if (decoding) return;
    decoding = true;
    try {
      while (pending) {
        const blob = pending;
        pending = null;
        const bitmap = await createImageBitmap(blob).catch(() => null);
        const c = canvas();
        if (!bitmap || !c || closed()) continue;
        c.getContext('2d')?.drawImage(bitmap, 0, 0, c.width, c.height);
        bitmap.close();
        drawn();
      }
    } finally {
      decoding = false;
    }
  };
  return (image) => {
    pending = image;
    void draw();
  };
}

/** An H.264 stream's decoder for this socket; its error closes the socket, and the reconnect starts afresh. */
function openVideo(
  ws: WebSocket,
  canvas: () => HTMLCanvasElement | undefined,
  drawn: () => void,
  say: (error: string, detail: string) => void,
): H264Drawer | null {
  if (!h264Supported()) {
    say('这个浏览器不能显示视频流画面，请换用新版 Chrome 或 Edge', 'WebCodecs VideoDecoder is missing');
    return null;
  }
  return createH264Drawer(canvas, drawn, (why) => {
    say('视频流解码出错，正在重新连接…', why);
    ws.close(1000, 'decoder error');
  });
}

type StreamText = { kind: 'meta'; meta: ScreenMeta } | { kind: 'error'; code: string; message: string } | null;

/** A text message of the stream: its first (the phone's size and path), or why there is no screen. */
function readText(text: string): StreamText {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof msg !== 'object' || msg === null) return null;
  if ('error' in msg) {
    const e = (msg as { error: { code?: unknown; message?: unknown } }).error;
    return {
      kind: 'error',
      code: typeof e?.code === 'string' ? e.code : 'SCREEN_UNAVAILABLE',
      message: typeof e?.message === 'string' ? e.message : '',
    };
  }
  return 'width' in msg && 'height' in msg ? { kind: 'meta', meta: msg as ScreenMeta } : null;
}
