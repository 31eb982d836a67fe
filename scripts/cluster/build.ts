import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Temporal server release the cluster runs, built from the Go module proxy. */
const TEMPORAL_SERVER_VERSION = 'v1.32.2';
const MODULE = 'go.temporal.io/server';
/**
 * The Go that builds it: the oldest this release accepts (its go.mod). Pinned, because with
 * GOTOOLCHAIN=auto `go install …@version` takes the newest patch release, a different toolchain
 * (and a cold build cache) whenever Go publishes one.
 */
const GO_TOOLCHAIN = 'go1.26.10';
const ROOT = path.resolve(__dirname, '../..');

export interface ServerBuild {
  version: string;
  /** the server (`cmd/server`): one binary, each process runs one service of it */
  server: string;
  /** `temporal-sql-tool` (`cmd/tools/sql`): creates and migrates the schemas */
  sqlTool: string;
  /** the schema folder of the module (postgresql/v12/temporal/versioned …) */
  schemaDir: string;
}

/** Where the binaries of a version are kept: beside the Temporal CLI, under the ignored `.tools/`. */
function buildDir(version = TEMPORAL_SERVER_VERSION): string {
  return path.join(ROOT, '.tools', 'temporal-cluster', version);
}

const INSTALL_GO =
  'install Go 1.21 or later: apt-get install -y golang where the release packages one (not Debian 12), else the official tarball from https://go.dev/dl/';

/**
 * The server and its SQL tool, built once per version with `go install` and kept; the module's own
 * `schema/` comes from the module cache (`go mod download`). GOTOOLCHAIN makes the installed `go`
 * fetch the pinned toolchain from the same proxy (it is a module there too) when it is another one.
 */
export async function ensureServerBuild(
  say: (line: string) => void,
  version = TEMPORAL_SERVER_VERSION,
): Promise<ServerBuild> {
  const bin = path.join(buildDir(version), 'bin');
  const server = path.join(bin, 'server');
  const sqlTool = path.join(bin, 'sql');
  const env = { ...process.env, GOTOOLCHAIN: GO_TOOLCHAIN };
  await goVersion(env);
  if (!fs.existsSync(server) || !fs.existsSync(sqlTool)) {
    say(`building Temporal server ${version} into ${bin} (go install, some minutes the first time)`);
    const started = Date.now();
    await goInstall(
      [`${MODULE}/cmd/server@${version}`, `${MODULE}/cmd/tools/sql@${version}`],
      { ...env, GOBIN: bin },
      path.join(buildDir(version), 'build.log'),
    );
    say(`built Temporal server ${version} in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  // on failure `go` exits 1 and still prints the JSON with its Error
  const stdout = await run('go', ['mod', 'download', '-json', `${MODULE}@${version}`], {
    env,
    cwd: buildDir(version),
    maxBuffer: 1 << 20,
  }).then(
    (r) => r.stdout,
    (err: { stdout?: string }) => err.stdout ?? '{}',
  );
  const info = JSON.parse(stdout) as { Dir?: string; Error?: string };
  if (!info.Dir) throw new Error(`go mod download ${MODULE}@${version}: ${info.Error ?? 'no folder'}`);
  return { version, server, sqlTool, schemaDir: path.join(info.Dir, 'schema') };
}

/** Go 1.21 on: the first that fetches the toolchain a module asks for (Debian 12 packages 1.19). */
async function goVersion(env: NodeJS.ProcessEnv): Promise<void> {
  let said: string;
  try {
    said = (await run('go', ['version'], { env: { ...env, GOTOOLCHAIN: 'local' } })).stdout;
  } catch {
    throw new Error(`no Go toolchain on PATH: ${INSTALL_GO}`);
  }
  const [major, minor] = (/go(\d+)\.(\d+)/.exec(said) ?? []).slice(1).map(Number);
  if (major === undefined || minor === undefined || (major === 1 && minor < 21))
    throw new Error(`${said.trim()} is too old (1.21 or later needed): ${INSTALL_GO}`);
}

/** At nice 10: compiling the server fills every core for minutes, and the machine may be doing other work. */
function goInstall(packages: string[], env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, 'a');
  const child = spawn('nice', ['-n', '10', 'go', 'install', ...packages], {
    env,
    cwd: path.dirname(logFile),
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`go install failed (${signal ?? code}); see ${logFile}`)),
    );
  });
}
