import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The adb connection a shell command runs on, for the few programs that outlive a quick answer
 * (minicap): they print while they run and end when the client hangs up, as a process in a
 * held `adb shell` gets SIGHUP. Every other command answers through its `CmdOutput`.
 */
export interface ShellSession {
  /** straight to the client, before the command has finished */
  write(data: Buffer): void;
  /** resolves when the client closes the stream */
  hangup(): Promise<void>;
}

const current = new AsyncLocalStorage<ShellSession>();

/** Runs one shell line with its connection in reach of the commands it starts. */
export function withShellSession<T>(session: ShellSession, run: () => Promise<T>): Promise<T> {
  return current.run(session, run);
}

/** The connection of the shell line running now; null outside one (a command called directly). */
function shellSession(): ShellSession | null {
  return current.getStore() ?? null;
}

/**
 * Where a long-running program prints: straight to the client while it runs in a held shell,
 * else gathered into its output (`printed`) for when it ends.
 */
export function programPrinter(): { session: ShellSession | null; print(s: string): void; printed: Buffer[] } {
  const session = shellSession();
  const printed: Buffer[] = [];
  return {
    session,
    printed,
    print: (s) => {
      const b = Buffer.from(s);
      if (session) session.write(b);
      else printed.push(b);
    },
  };
}
