import type { Socket } from 'node:net';

/** The UiAutomator2 server's two APKs (npm `appium-uiautomator2-server`) and where it listens on the phone. */
export const AGENT_PACKAGE = 'io.appium.uiautomator2.server';
export const AGENT_TEST_PACKAGE = 'io.appium.uiautomator2.server.test';
export const AGENT_RUNNER = `${AGENT_TEST_PACKAGE}/androidx.test.runner.AndroidJUnitRunner`;
const AGENT_PORT = 6790;

/** One run of the agent, from `am instrument` until its process dies. */
export interface AgentRun {
  /** takes one TCP connection made to the agent's port on the phone */
  serve(sock: Socket): void;
  /** the process dies: its connections drop and its `am instrument -w` returns */
  stop(): void;
}

/** The agent's side of one phone: which of its packages are installed and whether it runs. */
export class Agent {
  readonly installed = new Set<string>();
  /** the versionName `dumpsys package` reports for each installed package */
  readonly versions = new Map<string, string>();
  private run: AgentRun | null = null;

  get running(): boolean {
    return this.run !== null;
  }

  /** A newer instrumentation of the same package replaces the one running, as `am instrument` does. */
  start(run: AgentRun): void {
    this.stop();
    this.run = run;
  }

  /** Whether `run` is still the live one (a stopped run never comes back). */
  isCurrent(run: AgentRun): boolean {
    return this.run === run;
  }

  stop(): void {
    const run = this.run;
    this.run = null;
    run?.stop();
  }

  /** A connection to `port` on the phone: false when nothing listens there (refused). */
  connect(port: number, sock: Socket): boolean {
    if (port !== AGENT_PORT || !this.run) return false;
    this.run.serve(sock);
    return true;
  }

  reset(): void {
    this.stop();
    this.installed.clear();
    this.versions.clear();
  }
}
