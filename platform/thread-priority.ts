/**
 * JavaScript for the top of a worker thread evaluated from a string (the PNG decoder, the import
 * reader): it puts the thread below the event loop's priority. On Linux a thread has its own
 * nice value, and its id is the last part of /proc/thread-self; elsewhere the thread keeps the
 * process's priority.
 */
export const LOWER_THREAD_PRIORITY = `
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, 10);
} catch {}
`;
