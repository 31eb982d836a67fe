/**
 * adbkit runs `adb -P <port> start-server` by itself when a connection is refused; on a machine
 * with platform-tools that leaves an adb daemon holding the port the ADB server (or the
 * simulator) should have. No process of ours ever starts an ADB server: the binary adbkit would
 * run is one that does not exist, so a refused connection fails as it is (and the worker reports
 * ADB_DISCONNECTED) instead of starting a daemon (docs/phone-hosts.md "ADB server").
 */
export const NO_ADB_SERVER_START = { bin: 'cmautobuy-never-starts-an-adb-server' } as const;

/** What a refused connection reads as once adbkit tried to run the binary above. */
export function describeAdbError(err: unknown, fallback: string): string {
  return err instanceof Error && err.message.includes(NO_ADB_SERVER_START.bin)
    ? 'connection refused: no ADB server listens there (cmautobuy never starts one)'
    : fallback;
}
