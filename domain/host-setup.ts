/**
 * What a phone host (or one device worker, domain/device-worker-command.ts) on another machine
 * needs to start (docs/phone-hosts.md "Setting one up"):
 * the admin's public address, and the Temporal address, namespace and TLS settings the admin
 * itself uses. Never the payload keys: a host gets them over its authenticated channel, so they
 * are neither printed nor typed on the host (domain/contracts/host-channel.ts `keys`).
 *
 * The admin gathers these facts (admin/hosts/setup.ts); 发放主机凭据 and `npm run cli -- host
 * issue` both print the command built from them here, so the two cannot drift apart.
 */
export interface HostSetupFacts {
  /** the setting `admin.public_url`; null until an operator sets it on 设置 */
  admin_public_url: string | null;
  /** `git remote get-url origin` of the admin's checkout, when it has one */
  repository_url: string | null;
  temporal: {
    address: string;
    namespace: string;
    /** the admin reaches Temporal on loopback: a host on another machine cannot, as printed */
    loopback: boolean;
    tls: boolean;
    server_name: string | null;
    /** the certificates the admin trusts for Temporal (PEM, public); null: the system's */
    ca_pem: string | null;
    /** mTLS: the host needs a client certificate and key of its own */
    client_certificate: boolean;
    /** Temporal Cloud: the host needs the API key, typed where it is asked for */
    api_key: boolean;
  };
}

/** What the operator must do by hand before `run` works as printed. */
export type HostSetupNeed =
  | 'repository-url'
  | 'client-certificate'
  | 'api-key'
  | 'temporal-on-loopback'
  /** a device worker started by hand: the script asks for the admin's payload keys */
  | 'payload-keys'
  /** …and <adb serial> is the phone's, from `adb devices` */
  | 'adb-serial';

export interface HostSetupCommand {
  /** once per machine: Node 20, git, adb, the repository and its packages */
  install: string;
  /** in the repository's folder: saves the host token (mode 600, outside the data dir) and starts the host */
  run: string;
  needs: HostSetupNeed[];
}

/** A secret the script asks for at a prompt, into `variable`. */
export interface SetupAsk {
  variable: string;
  label: string;
}
const API_KEY_ASK: SetupAsk = { variable: 'CMAUTOBUY_TEMPORAL_API_KEY', label: 'Temporal API key' };

/** Where the printed command keeps what it writes: the home folder, never the data dir. */
const inSetupDir = (name: string): string => `"$HOME/.cmautobuy${name === '' ? '' : `/${name}`}"`;
const REPOSITORY_PLACEHOLDER = '<repository-url>';

/** A value as one POSIX shell word. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_.:/@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Only the CERTIFICATE blocks of a PEM file: anything else in it (a key by mistake) is never printed. */
export function certificatesOf(pem: string): string | null {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----/g);
  return blocks ? blocks.map((b) => b.replace(/\r/g, '')).join('\n') : null;
}

function installScript(facts: HostSetupFacts): string {
  return [
    '# Debian/Ubuntu: Node.js 20, git and adb',
    'curl -fsSL https://deb.nodesource.com/setup_20.x | sudo -E bash -',
    'sudo apt-get install -y nodejs git adb',
    `git clone ${facts.repository_url ? shellWord(facts.repository_url) : REPOSITORY_PLACEHOLDER} cmautobuy`,
    'cd cmautobuy && npm ci',
  ].join('\n');
}

/**
 * The lines a start script shares whatever it starts: the token saved outside the data dir, the
 * CA certificates written beside it, the API key asked for, and the Temporal settings as the
 * admin uses them (a `KEY=value` each, for the command's environment).
 */
function setupScript(
  t: HostSetupFacts['temporal'],
  token: { file: string; lines: string[] },
  asks: SetupAsk[],
): { lines: string[]; env: string[] } {
  const caFile = inSetupDir('temporal-ca.pem');
  const lines = [`umask 077 && mkdir -p ${inSetupDir('')}`, `cat > ${token.file} <<'TOKEN'`, ...token.lines, 'TOKEN'];
  const ca = t.ca_pem === null ? null : certificatesOf(t.ca_pem);
  if (ca !== null) lines.push(`cat > ${caFile} <<'PEM'`, ca, 'PEM');
  // typed where it is asked for: a secret in the script would land in the shell's history
  for (const a of [...(t.api_key ? [API_KEY_ASK] : []), ...asks])
    lines.push(`read -rsp ${shellWord(`${a.label}: `)} ${a.variable} && echo && export ${a.variable}`);
  const env: string[] = [
    `CMAUTOBUY_TEMPORAL_ADDRESS=${shellWord(t.address)}`,
    `CMAUTOBUY_TEMPORAL_NAMESPACE=${shellWord(t.namespace)}`,
  ];
  if (t.tls) env.push('CMAUTOBUY_TEMPORAL_TLS=1');
  if (t.tls && t.server_name !== null) env.push(`CMAUTOBUY_TEMPORAL_TLS_SERVER_NAME=${shellWord(t.server_name)}`);
  if (ca !== null) env.push(`CMAUTOBUY_TEMPORAL_TLS_CA=${caFile}`);
  if (t.client_certificate)
    env.push(
      `CMAUTOBUY_TEMPORAL_TLS_CERT=${inSetupDir('temporal-client.pem')}`,
      `CMAUTOBUY_TEMPORAL_TLS_KEY=${inSetupDir('temporal-client.key')}`,
    );
  // the admin's own rule (temporal/connection.ts): plain gRPC off loopback only where allowed
  if (!t.tls && !t.loopback) env.push('CMAUTOBUY_TEMPORAL_ALLOW_PLAINTEXT=1');
  return { lines, env };
}

function setupNeeds(facts: HostSetupFacts): HostSetupNeed[] {
  const t = facts.temporal;
  const needs: HostSetupNeed[] = [];
  if (facts.repository_url === null) needs.push('repository-url');
  if (t.client_certificate) needs.push('client-certificate');
  if (t.api_key) needs.push('api-key');
  if (t.loopback) needs.push('temporal-on-loopback');
  return needs;
}

/**
 * The set-up for one program on the phone machine: `start(tokenFile, adminUrl)` is its command
 * line and environment (with the Temporal settings added), `asks` the secret variables typed at
 * a prompt; null while `admin.public_url` is unset, since the loopback address a browser used
 * reaches nothing from another machine.
 */
export function setupCommand(
  facts: HostSetupFacts,
  token: { name: string; lines: string[] },
  start: (tokenFile: string, adminUrl: string) => { env: string[]; command: string; asks?: SetupAsk[] },
): HostSetupCommand | null {
  if (facts.admin_public_url === null) return null;
  const tokenFile = inSetupDir(token.name);
  const started = start(tokenFile, shellWord(facts.admin_public_url));
  const script = setupScript(facts.temporal, { file: tokenFile, lines: token.lines }, started.asks ?? []);
  const env = [...started.env, ...script.env];
  const run = [...script.lines, ...env.map((e) => `${e} \\`), started.command].join('\n');
  return { install: installScript(facts), run, needs: setupNeeds(facts) };
}

/** 发放主机凭据 / `host issue`: the phone host, which starts a device worker per approved phone. */
export function hostSetupCommand(
  facts: HostSetupFacts,
  credential: { host_id: string; token: string },
): HostSetupCommand | null {
  return setupCommand(
    facts,
    {
      name: `host-${credential.host_id.slice(0, 8)}.token`,
      lines: [`host_id=${credential.host_id}`, `token=${credential.token}`],
    },
    (tokenFile, adminUrl) => ({
      env: [`CMAUTOBUY_ADMIN_PUBLIC_URL=${adminUrl}`],
      command: `npm run phone-host -- --token-file ${tokenFile}`,
    }),
  );
}
