import os from 'node:os';
import type { AuditActor } from '../audit/audit';
import type { AdminDb } from '../db/database';
import {
  DeviceCredentialError,
  issueDeviceCredential,
  listDeviceCredentials,
  revokeDeviceCredential,
} from './device-credentials';
import { hostSetupCommand, type HostSetupFacts, type HostSetupNeed } from '../../domain/host-setup';
import { issueHostCredential, listHostCredentials, revokeHostCredential } from './host-credentials';
import { addUser, changePassword, listUsers, UserError } from './users';
import { ZodError } from 'zod';

export interface CliIo {
  /** the whole of stdin (passwords are read from it, never from argv) */
  readStdin(): Promise<string>;
  out(line: string): void;
  err(line: string): void;
  /**
   * what the command `host issue` prints is built from (admin/hosts/setup.ts, read only then);
   * passed in, since hosts/ already calls into auth/
   */
  hostSetupFacts?: () => Promise<HostSetupFacts>;
}

const NEED_TEXT: Record<HostSetupNeed, string> = {
  'repository-url': 'replace <repository-url> with where this repository is cloned from',
  'client-certificate':
    'Temporal wants a client certificate: put this host its own in ~/.cmautobuy/temporal-client.pem and .key',
  'api-key': 'the script asks for the Temporal API key: have it at hand',
  'temporal-on-loopback':
    'the admin reaches Temporal on loopback: another machine cannot; give the admin a CMAUTOBUY_TEMPORAL_ADDRESS both reach',
  // a phone host gets the payload keys over its channel and reports its own phones' serials
  'payload-keys': "the script asks for the payload keys: the admin's CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS",
  'adb-serial': "replace <adb serial> with the phone's serial from `adb devices`",
};

const CLI_USAGE = [
  'usage: npm run cli -- <command>',
  '  user add <name>        password from stdin',
  '  user passwd <name>     password from stdin; ends every session of that user',
  '  user list',
  '  device issue <name>    prints device_id=… and token=… (the token only this once)',
  '  device list',
  '  device revoke <id>',
  "  host issue <name>      prints host_id=… and token=… (the token only this once) and the host's set-up",
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
    if (io.hostSetupFacts)
      printHostSetup(await io.hostSetupFacts(), { host_id: issued.hostId, token: issued.token }, io);
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

/** The same command 发放主机凭据 shows (domain/host-setup.ts), on stderr: stdout stays the two token lines. */
function printHostSetup(facts: HostSetupFacts, credential: { host_id: string; token: string }, io: CliIo): void {
  const command = hostSetupCommand(facts, credential);
  if (command === null) {
    io.err(
      'admin.public_url is not set (设置 → 管理服务对外地址): the command for another machine needs the address it reaches this admin at. ' +
        'Set it, then run the host with CMAUTOBUY_ADMIN_PUBLIC_URL=<that address> (docs/phone-hosts.md).',
    );
    return;
  }
  io.err('\n# 1. once, on the phone machine: Node.js 20, git, adb and this repository');
  io.err(command.install);
  io.err('\n# 2. in the repository folder: saves the token (mode 600) and starts the host');
  io.err(command.run);
  for (const need of command.needs) io.err(`\nnote: ${NEED_TEXT[need]}`);
}
