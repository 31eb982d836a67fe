import type { AdbDevice } from '../../device-worker/adb/adb-device';
import { describeError } from '../../platform/errors';

export interface ScreencapStream {
  /** no frame after this; `ended` then says null */
  stop(): Promise<void>;
  /** null once stopped; the error of the capture that failed */
  ended: Promise<Error | null>;
}

const SCREENCAP_DEFAULT_FPS = 2;

/**
 * The stream every phone can give: `screencap -p` again and again, one capture at a time, at most
 * `fps` a second (a real phone takes 0.3–1 s a capture, so it is often fewer). PNG frames at the
 * phone's own size. The first failed capture ends it.
 */
export function startScreencap(
  adb: AdbDevice,
  onFrame: (frame: Buffer) => void,
  opts: { fps?: number } = {},
): ScreencapStream {
  const interval = 1000 / Math.max(0.1, opts.fps ?? SCREENCAP_DEFAULT_FPS);
  let stopped = false;
  let wake: () => void = () => undefined;
  const loop = async (): Promise<Error | null> => {
    while (!stopped) {
      const started = Date.now();
      try {
        const frame = await adb.screencap();
        if (stopped) break;
        onFrame(frame);
      } catch (err) {
        if (stopped) break;
        return err instanceof Error ? err : new Error(describeError(err));
      }
      const rest = interval - (Date.now() - started);
      if (rest > 0 && !stopped)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, rest);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
    }
    return null;
  };
  let settle: (err: Error | null) => void = () => undefined;
  const ended = new Promise<Error | null>((resolve) => (settle = resolve));
  void loop().then((err) => settle(err));
  return {
    ended,
    // a capture under way is left to finish on its own (bounded by the ADB timeout); its frame is dropped
    stop: async () => {
      stopped = true;
      wake();
      settle(null);
    },
  };
}
