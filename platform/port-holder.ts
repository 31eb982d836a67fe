import fs from 'node:fs';

/**
 * Which process listens on a TCP port (Linux: /proc/net/tcp{,6} → socket inode → /proc/<pid>/fd),
 * so "cannot bind" names the culprit — often an adb daemon adbkit once started, or an old run.
 * Null where /proc cannot tell (another OS, another user's process).
 */
export function portHolder(port: number): { pid: number; command: string } | null {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = readOr(() => fs.readFileSync(table, 'utf8'), '');
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is ADDR:PORT; state 0A is LISTEN; column 9 is the inode
      if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A' && cols[9]) inodes.add(cols[9]);
    }
  }
  if (inodes.size === 0) return null;
  const pids = readOr(() => fs.readdirSync('/proc'), []).filter((p) => /^\d+$/.test(p));
  for (const pid of pids) {
    for (const fd of readOr(() => fs.readdirSync(`/proc/${pid}/fd`), [])) {
      const link = readOr(() => fs.readlinkSync(`/proc/${pid}/fd/${fd}`), '');
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && inodes.has(m[1]!)) {
        const command = readOr(() => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'), '?')
          .split('\0')
          .filter(Boolean)
          .join(' ');
        return { pid: Number(pid), command };
      }
    }
  }
  return null;
}

/** Another user's process, or one gone meanwhile, is simply not ours to name. */
function readOr<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** The port a failed bind names in a child's output (Node's EADDRINUSE, Go's "address already in use"). */
function portInUse(lines: readonly string[]): number | null {
  for (const line of lines) {
    const m = /EADDRINUSE[^\n]*?:(\d{1,5})\b/.exec(line) ?? /:(\d{1,5}):? bind: address already in use/.exec(line);
    if (m) return Number(m[1]);
  }
  return null;
}

/** "… cannot bind port P: held by pid N (command)", or null when the output names no busy port. */
export function bindFailure(name: string, lines: readonly string[]): string | null {
  const port = portInUse(lines);
  if (port === null) return null;
  const holder = portHolder(port);
  return `${name} cannot bind port ${port}: ${
    holder ? `held by pid ${holder.pid} (${holder.command.slice(0, 200)})` : 'another process holds it'
  }`;
}
