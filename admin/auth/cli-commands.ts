import os from 'node:os';
import type { AuditActor } from '../audit/audit';
import type { AdminDb } from '../db/database';
import {
  DeviceCredentialError,
  issueDeviceCredential,
  listDeviceCredentials,
  revokeDeviceCredential,
} from './device-credentials';
import { issueHostCredential, listHostCredentials, revokeHostCredential } from './host-credentials';
import { addUser, changePassword, listUsers, UserError } from './users';
import { ZodError } from 'zod';

export interface CliIo {
  /** the whole of stdin (passwords are read from it, never from argv) */
  readStdin(): Promise<string>;
  out(line: string): void;
  err(line: string): void;
}

const CLI_USAGE = [
  'usage: npm run cli -- <command>',
  '  user add <name>        password from stdin',
  '  user passwd <name>     password from stdin; ends every session of that user',
  '  user list',
  '  device issue <name>    prints device_id=… and token=… (the token only this once)',
  '  device list',
  '  device revoke <id>',
  '  host issue <name>      prints host_id=… and token=… (the token only this once)',
  '  host list',
  '  host revoke <id>       revokes the host and every phone it reported',
].join('\n');

function cliActor(): AuditActor {
  let user = 'unknown';
  try {
    user = os.userInfo().username;
  } catch {
    // no passwd entry (some containers): still audit, as "unknown"
  }
  return { kind: 'cli', name: `cli:${user}` };
}

/** First line of stdin, without its line ending: `echo pw | npm run cli -- user add bob`. */
function passwordFrom(stdin: string): string {
  return stdin.split(/\r?\n/)[0] ?? '';
}

/** Runs one command; returns the exit code. Secrets go only to `out` (issued tokens) and never to a log. */
export async function runCli(db: AdminDb, argv: string[], io: CliIo): Promise<number> {
  const [area, verb, arg, ...rest] = argv;
  const usage = () => {
    io.err(CLI_USAGE);
    return 2;
  };
  if (rest.length > 0) return usage();
  try {
    if (area === 'user' && verb === 'list' && arg === undefined) {
      for (const u of await listUsers(db))
        io.out(`${u.username}\tcreated_at=${u.created_at}\tpassword_changed_at=${u.password_changed_at}`);
      return 0;
    }
    if (area === 'user' && (verb === 'add' || verb === 'passwd') && arg !== undefined) {
      const password = passwordFrom(await io.readStdin());
      if (verb === 'add') {
        await addUser(db, cliActor(), arg, password);
        io.out(`user ${arg} added`);
      } else {
        await changePassword(db, cliActor(), arg, password);
        io.out(`password of ${arg} changed; its sessions have ended`);
      }
      return 0;
    }
    if (area === 'device' && verb === 'issue' && arg !== undefined) {
      const issued = await issueDeviceCredential(db, cliActor(), arg);
      io.out(`device_id=${issued.deviceId}`);
      io.out(`token=${issued.token}`);
      return 0;
    }
    if (area === 'device' && verb === 'list' && arg === undefined) {
      for (const d of await listDeviceCredentials(db)) {
        io.out(
          `${d.device_id}\t${d.status}\t${d.display_name}\tcreated_at=${d.created_at}${d.revoked_at ? `\trevoked_at=${d.revoked_at}` : ''}`,
        );
      }
      return 0;
    }
    if (area === 'device' && verb === 'revoke' && arg !== undefined) {
      const outcome = await revokeDeviceCredential(db, cliActor(), arg);
      io.out(outcome === 'revoked' ? `device ${arg} revoked` : `device ${arg} was already revoked`);
      return 0;
    }
    if (area === 'host') return await hostCommand(db, verb, arg, io, usage);
    return usage();
  } catch (err) {
    if (err instanceof UserError || err instanceof DeviceCredentialError) {
      io.err(err.message);
      return 1;
    }
    if (err instanceof ZodError) {
      io.err(err.issues.map((i) => i.message).join('; '));
      return 1;
    }
    throw err;
  }
}

/** `host issue|list|revoke` (docs/phone-hosts.md). */
async function hostCommand(
  db: AdminDb,
  verb: string | undefined,
  arg: string | undefined,
  io: CliIo,
  usage: () => number,
): Promise<number> {
  if (verb === 'issue' && arg !== undefined) {
    const issued = await issueHostCredential(db, cliActor(), arg);
    io.out(`host_id=${issued.hostId}`);
    io.out(`token=${issued.token}`);
    return 0;
  }
  if (verb === 'list' && arg === undefined) {
    for (const h of await listHostCredentials(db))
      io.out(
        `${h.host_id}\t${h.status}\t${h.display_name}\tcreated_at=${h.created_at}${h.revoked_at ? `\trevoked_at=${h.revoked_at}` : ''}`,
      );
    return 0;
  }
  if (verb === 'revoke' && arg !== undefined) {
    const outcome = await revokeHostCredential(db, cliActor(), arg);
    io.out(outcome === 'revoked' ? `host ${arg} revoked, with its phones` : `host ${arg} was already revoked`);
    return 0;
  }
  return usage();
}
