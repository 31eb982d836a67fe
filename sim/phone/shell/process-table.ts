/** A long-running program the shell started (minicap): it answers `kill`, `pkill` and `pidof`. */
interface SimProcess {
  pid: number;
  name: string;
  stop(): void;
}

/** The first pid a simulated program gets; below it live the system's own processes. */
const FIRST_PID = 12_000;

/** The phone's running programs that a shell command started, by pid. */
export class Processes {
  private readonly byPid = new Map<number, SimProcess>();
  private nextPid = FIRST_PID;

  /** Registers a running program; `stop` ends it (called once, by kill or by stopAll). */
  spawn(name: string, stop: () => void): number {
    const pid = this.nextPid++;
    this.byPid.set(pid, { pid, name, stop });
    return pid;
  }

  /** The program left on its own (its shell hung up): it no longer answers to its pid. */
  exited(pid: number): void {
    this.byPid.delete(pid);
  }

  kill(pid: number): boolean {
    const p = this.byPid.get(pid);
    if (!p) return false;
    this.byPid.delete(pid);
    p.stop();
    return true;
  }

  pidsOf(name: string): number[] {
    return [...this.byPid.values()].filter((p) => p.name === name).map((p) => p.pid);
  }

  /** A reset or a dropped link: nothing the shell started survives it. */
  stopAll(): void {
    for (const pid of [...this.byPid.keys()]) this.kill(pid);
  }
}
