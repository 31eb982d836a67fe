/**
 * One command at a time per phone, whoever asks: uiautomator and `input` misbehave when two
 * shells race on one device, and a dump taken mid-tap proves nothing. Keyed by ADB server
 * and serial so that every AdbDevice for the same phone in this process shares one queue.
 */
const tails = new Map<string, Promise<unknown>>();

export function withPhoneLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = tails.get(key) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
