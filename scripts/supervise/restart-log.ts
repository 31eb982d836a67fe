import fs from 'node:fs';
import path from 'node:path';
import type { RestartEvent } from '../../platform/children';

/**
 * What the supervisor does when a child died on its own and is being restarted: one line on the
 * terminal and one JSON line in `<logs>/supervisor.log`, where an operator looks for why a part
 * of the system came back.
 */
export function restartLogger(logsDir: string, say: (line: string) => void): (event: RestartEvent) => void {
  const restartLog = path.join(logsDir, 'supervisor.log');
  return (event) => {
    say(`${event.child} exited (${event.exit}); restart ${event.restart} in ${event.delay_ms} ms`);
    fs.mkdirSync(logsDir, { recursive: true, mode: 0o700 });
    fs.appendFileSync(
      restartLog,
      `${JSON.stringify({ time: new Date().toISOString(), level: 'warn', msg: 'child restarted', ...event })}\n`,
      { mode: 0o600 },
    );
  };
}
