import { err, out, type Command } from './output';

/** The operands once a signal (`-9`, `-KILL`, `-s TERM`) is taken off: every signal stops a simulated program. */
function operands(args: string[]): string[] {
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-s') i += 1;
    else if (!/^-\w+$/.test(a)) rest.push(a);
  }
  return rest;
}

/** `kill [-9] PID…`: toybox's words for a pid nobody has. */
export const kill: Command = async (phone, args) => {
  const pids = operands(args);
  if (pids.length === 0) return err('usage: kill [-s SIGNAL|-SIGNAL] PID...\n');
  let errors = '';
  for (const p of pids) {
    if (!/^\d+$/.test(p) || !phone.processes.kill(Number(p))) errors += `kill: ${p}: No such process\n`;
  }
  return errors ? err(errors) : out('');
};

/** `pkill [-9] NAME`: exit 1 when no process had the name, as toybox does. */
export const pkill: Command = async (phone, args) => {
  const name = operands(args)[0];
  if (name === undefined) return err('pkill: Need 1 argument\n');
  const pids = phone.processes.pidsOf(name);
  for (const pid of pids) phone.processes.kill(pid);
  return { ...out(''), code: pids.length ? 0 : 1 };
};

export const pidof: Command = async (phone, args) => {
  const pids = args.flatMap((n) => phone.processes.pidsOf(n));
  return pids.length ? out(`${pids.join(' ')}\n`) : { ...out(''), code: 1 };
};
