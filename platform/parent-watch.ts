/**
 * Calls `gone` once when the process that started this one has ended (Linux re-parents an orphan,
 * so its parent pid changes). A device worker whose phone host was killed would otherwise go on
 * holding its phone's lock beside the workers the restarted host starts for the same phone.
 */
export function onParentGone(gone: () => void, everyMs = 1_000): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    gone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
